"""JSON-LD and OpenGraph article tags: safe, never duplicated, equal to the front matter."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from agentprose_core.model import PageRecord, SiteRecord
from agentprose_core.render.decorate import decorate_page, decorate_text
from agentprose_core.render.jsonld import article_data, head_tags, script_tag
from agentprose_core.settings import Settings

from .outputs import check_site, split_view
from .sites import write_tree

SITE = SiteRecord(name="Coast", url="https://coast.example/")
PAGE = PageRecord(url="https://coast.example/a/", markdown_url="https://coast.example/a.md",
                  title="Tide pools", modified="2026-03-14T10:30:00Z",
                  published="2025-06-02T08:00:00Z", authors=("Ana Ruiz", "Bo Li"),
                  tags=("ecology",), summary="Pools.", lang="en")
LD = re.compile(r'<script type="application/ld\+json">(.*?)</script>', re.DOTALL)
META = re.compile(r'<meta property="([^"]+)" content="([^"]*)"')


def test_title_cannot_break_out_of_the_script() -> None:
    hostile = PageRecord(url=PAGE.url, markdown_url=PAGE.markdown_url, modified=PAGE.modified,
                         title="</script><script>alert(1)</script> & \u2028")
    tag = script_tag(article_data(hostile, SITE))
    assert tag.count("</script>") == 1
    assert tag.endswith("</script>")
    assert "<script>alert" not in tag
    assert json.loads(LD.search(tag).group(1))["headline"] == hostile.title  # type: ignore[union-attr]


def test_the_json_ld_article_carries_the_records_values() -> None:
    data = article_data(PAGE, SITE)
    assert data["@type"] == "TechArticle"
    assert data["headline"] == "Tide pools"
    assert data["dateModified"] == "2026-03-14T10:30:00Z"
    assert data["datePublished"] == "2025-06-02T08:00:00Z"
    assert data["author"] == [{"@type": "Person", "name": "Ana Ruiz"},
                              {"@type": "Person", "name": "Bo Li"}]
    assert data["mainEntityOfPage"] == {"@type": "WebPage", "@id": PAGE.url}
    assert data["isPartOf"]["url"] == SITE.url
    assert data["keywords"] == ["ecology"]


def test_existing_article_json_ld_is_kept_alone() -> None:
    head = ('<script type="application/ld+json">{"@graph": [{"@type": "BlogPosting"}]}'
            '</script><meta property="og:type" content="article">')
    added = head_tags(head, PAGE, SITE)
    assert "ld+json" not in added
    assert "og:type" not in added
    assert 'property="article:modified_time"' in added


def test_website_og_type_gets_no_article_properties() -> None:
    added = head_tags('<meta property="og:type" content="website">', PAGE, SITE)
    assert "ld+json" in added
    assert "article:" not in added
    assert "og:type" not in added


def _tags(html: str) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    head = html[: html.index("</head>")]
    return [json.loads(b) for b in LD.findall(head)], META.findall(head)


def _check_page(html: str, view: str) -> None:
    front, _ = split_view(view)
    blocks, metas = _tags(html)
    articles = [b for b in blocks if b.get("@type") in ("TechArticle", "BlogPosting", "Article")]
    assert len(articles) == 1
    article = articles[0]
    assert article["headline"] == front["title"]
    assert article["mainEntityOfPage"]["@id"] == front["canonical"]
    assert article["dateModified"] == front["modified"]
    assert article.get("datePublished") == front.get("published")
    names = [a["name"] for a in article.get("author", [])]
    expected = front.get("author", [])
    assert names == (expected if isinstance(expected, list) else [expected])
    meta = dict(metas)
    if meta.get("og:type") == "article":
        assert meta["article:modified_time"] == front["modified"]


def test_material_site(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write_tree(root, {
        "mkdocs.yml": yaml.safe_dump({
            "site_name": "Coast", "site_url": "https://coast.example/",
            "theme": {"name": "material", "custom_dir": "overrides"},
            "plugins": ["agentprose"],
        }),
        "docs/index.md": "---\nauthors: [Ana]\ndate: 2025-06-02\n---\n\n# Home\n\nHello.\n",
        "docs/own.md": "---\nown_json_ld: true\n---\n\n# Own\n\nHas its own JSON-LD.\n",
        "overrides/main.html": (
            '{% extends "base.html" %}{% block extrahead %}{% if page and page.meta.own_json_ld %}'
            '<script type="application/ld+json">{"@type": "Article", "headline": "Own"}'
            "</script>{% endif %}{% endblock %}"
        ),
    })
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=root,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    site = root / "site"
    check_site(site, "https://coast.example/")
    _check_page((site / "index.html").read_text(), (site / "index.md").read_text())
    blocks, _ = _tags((site / "own" / "index.html").read_text())
    assert blocks == [{"@type": "Article", "headline": "Own"}]  # exactly one, theirs


@pytest.mark.parametrize("opengraph", [False, True])
def test_sphinx_furo(make_app: Any, tmp_path: Path, opengraph: bool) -> None:
    source = tmp_path / "src"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "sphinx-site", source)
    if opengraph:
        with (source / "conf.py").open("a") as conf:
            conf.write('\nextensions.insert(0, "sphinxext.opengraph")\n'
                       'ogp_site_url = html_baseurl\nogp_enable_meta_description = False\n')
    app = make_app("html", srcdir=source)
    app.build()
    out = Path(app.outdir)
    check_site(out, "https://shore.example/notes/")
    for name in ("index", "tides", "journal"):
        html = (out / f"{name}.html").read_text()
        _check_page(html, (out / f"{name}.md").read_text())
        metas = _tags(html)[1]
        og_types = [value for prop, value in metas if prop == "og:type"]
        assert og_types == (["website"] if opengraph else ["article"])


@pytest.mark.parametrize("document", [
    "<html><head><title>T</title></head><body><p>é</p></body></html>",
    "<HTML><HEAD ><meta charset=utf-8></HEAD ><body>x</body></HTML>",
    '<html><head><link rel="agentprose-index" href="/x.json"></head><body></body></html>',
    '<html><head><script type="application/ld+json">{}</script></head></html>',
    "<html><body>no head</body></html>",
    "<html><head><title>T</title></HEAD><body><code></head></code></body></html>",
    # What the text version replaces (</head> to the body's tag) again further on
    "<html><head></head><body><script>'</head><body>'</script></body></html>",
    "<html><head></head >\n<body x='1'><p>\u2192 </head >\n<body x='1'></p></body></html>",
])
@pytest.mark.parametrize("hint", [True, False])
def test_decorating_text_equals_decorating_bytes(document: str, hint: bool) -> None:
    settings = Settings(body_hint=hint)
    as_bytes = decorate_page(document.encode("utf-8"), PAGE, SITE, settings)
    as_text = decorate_text(document, PAGE, SITE, settings)
    assert as_text == (None if as_bytes is None else as_bytes.decode("utf-8"))
