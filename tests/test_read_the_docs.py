"""Builds on Read the Docs (issue 42): the environment Read the Docs sets says where the
version being built is served, which version it is and its language. Views, indexes
and llms.txt name that version's URLs whatever the project's own URL; the canonical
the views name is the one the HTML pages carry."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import TYPE_CHECKING, Any

import pytest

from agentprose_core.errors import InputError
from agentprose_core.location import SiteLocation, site_location

from .outputs import check_site
from .test_mkdocs_plugin import make_site
from .test_sphinx_extension import BASE, build, copy_root

if TYPE_CHECKING:
    from pathlib import Path

STABLE = "https://coast.readthedocs.io/fr/stable/"
ON_RTD = {"READTHEDOCS": "True", "READTHEDOCS_CANONICAL_URL": STABLE,
          "READTHEDOCS_VERSION": "stable", "READTHEDOCS_VERSION_NAME": "stable",
          "READTHEDOCS_LANGUAGE": "fr"}


def test_the_location_of_a_build() -> None:
    assert site_location("https://x.org/docs", {}) == SiteLocation("https://x.org/docs/")
    with pytest.raises(InputError):
        site_location(None, {})
    hosted = site_location(None, ON_RTD)
    assert hosted == SiteLocation(STABLE, None, "stable", "fr")
    assert hosted.canonical_of(STABLE + "a/") is None
    own = site_location("https://coast.example/docs/", {**ON_RTD, "READTHEDOCS_LANGUAGE": "pt-br"})
    assert (own.base_url, own.canonical_base, own.lang) == (STABLE, BASE, "pt-BR")
    assert own.canonical_of(STABLE + "guide/a/") == BASE + "guide/a/"
    assert site_location(STABLE, ON_RTD).canonical_base is None  # the same URL
    with pytest.raises(InputError, match="READTHEDOCS_CANONICAL_URL"):
        site_location(None, {"READTHEDOCS_CANONICAL_URL": "not a url"})


def _canonical_link(html: str) -> str | None:
    found = re.search(r'<link[^>]*rel="canonical"[^>]*href="([^"]+)"', html) or \
        re.search(r'<link[^>]*href="([^"]+)"[^>]*rel="canonical"', html)
    return found.group(1) if found else None


# -- Sphinx ---------------------------------------------------------------------------

def test_sphinx_without_a_url_of_its_own_is_cited_where_read_the_docs_serves_it(
        make_app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ON_RTD.items():
        monkeypatch.setenv(name, value)
    out = build(make_app, copy_root("nobaseurl", tmp_path / "src"))
    outputs = check_site(out, STABLE, expect_pages=1)
    front, _ = outputs.views["index.md"]
    assert front["canonical"] == STABLE + "index.html"
    assert front["version"] == "stable"
    # the HTML page carries the canonical its view names (html_baseurl was set for it)
    assert _canonical_link((out / "index.html").read_text(encoding="utf-8")) \
        == STABLE + "index.html"


def test_sphinx_with_a_url_of_its_own_serves_views_of_the_version_built(
        make_app: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ON_RTD.items():
        monkeypatch.setenv(name, value)
    out = build(make_app, copy_root("basic", tmp_path / "src"))  # html_baseurl = BASE
    outputs = check_site(out, STABLE, expect_pages=5, canonical_base=BASE)
    front, body = outputs.views["guide/tide-pools.md"]
    assert front["canonical"] == BASE + "guide/tide-pools.html"  # the project's choice
    assert front["version"] == "stable"
    assert front["lang"] == "pt-BR"  # conf.py's language wins over the host's
    assert front["next"] == STABLE + "guide/rocks.html"
    assert f"({STABLE}guide/rocks.md)" in body
    assert all(post["url"].startswith(STABLE) for post in outputs.index["posts"])
    page = (out / "guide" / "tide-pools.html").read_text(encoding="utf-8")
    assert _canonical_link(page) == front["canonical"]
    assert f'type="text/markdown" href="{STABLE}guide/tide-pools.md"' in page
    assert f"Source: {BASE}guide/tide-pools.html" in \
        (out / "llms-full.txt").read_text(encoding="utf-8")


def test_sphinx_off_read_the_docs_writes_no_version(make_app: Any, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ON_RTD:
        monkeypatch.delenv(name, raising=False)
    out = build(make_app, copy_root("basic", tmp_path / "src"))
    front, _ = check_site(out, BASE, expect_pages=5).views["guide/tide-pools.md"]
    assert "version" not in front
    assert front["canonical"] == BASE + "guide/tide-pools.html"


# -- MkDocs ---------------------------------------------------------------------------

def _mkdocs(root: Path, environ: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("READTHEDOCS")}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=root,
                          capture_output=True, text=True, check=False,
                          env={**clean, **environ})


def test_mkdocs_without_site_url_builds_on_read_the_docs(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", site_url=None)
    done = _mkdocs(root, ON_RTD)
    assert done.returncode == 0, done.stderr
    outputs = check_site(root / "site", STABLE)
    front, _ = outputs.views["guide/tide-pools.md"]
    assert front["canonical"] == STABLE + "guide/tide-pools/"
    assert front["version"] == "stable"
    assert front["lang"] == "en"  # the theme's (its locale), as the HTML page says
    page = (root / "site" / "guide" / "tide-pools" / "index.html").read_text(encoding="utf-8")
    assert _canonical_link(page) == front["canonical"]


def test_mkdocs_with_site_url_serves_views_of_the_version_built(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj")  # site_url = BASE
    done = _mkdocs(root, ON_RTD)
    assert done.returncode == 0, done.stderr
    outputs = check_site(root / "site", STABLE, canonical_base=BASE)
    front, body = outputs.views["guide/tide-pools.md"]
    assert front["canonical"] == BASE + "guide/tide-pools/"
    assert front["next"] == STABLE + "guide/rocks/"
    assert all(post["url"].startswith(STABLE) for post in outputs.index["posts"])
    page = (root / "site" / "guide" / "tide-pools" / "index.html").read_text(encoding="utf-8")
    assert _canonical_link(page) == front["canonical"]
    assert f'href="{STABLE}guide/tide-pools.md"' in page
    assert body  # the view itself is as off Read the Docs


def test_mkdocs_off_read_the_docs_needs_site_url(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", site_url=None)
    done = _mkdocs(root, {})
    assert done.returncode != 0
    assert "agentprose needs 'site_url' in mkdocs.yml" in done.stderr
    assert "Traceback" not in done.stderr
