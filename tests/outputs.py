"""Checks every built site's agent outputs must pass, whichever tool wrote them.

``check_site`` reads a site folder as a client would and asserts the rules of
docs/formats.md: views with valid front matter, an index valid under the JSON Schema,
llms.txt intact under the reference parser with every link resolving to a file we
wrote, and the discovery links once in each page that has a view.
"""

from __future__ import annotations

import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml
from jsonschema import Draft202012Validator
from llms_txt import parse_llms_file
from ruamel.yaml import YAML

from agentprose_core.phrases import phrases_for
from agentprose_core.reading.html import body_top_links, head_links
from agentprose_core.reading.llmstxt import language_llms_files
from agentprose_core.render.index import load_schema

KEYS = ("title", "canonical", "modified", "published", "author", "lang", "version", "latest",
        "translations", "prev", "next")
TIME = "%Y-%m-%dT%H:%M:%SZ"


@dataclass
class SiteOutputs:
    """What a site folder holds for agents, parsed."""

    index: dict[str, object]
    llms: dict[str, object]
    views: dict[str, tuple[dict[str, object], str]]  # path -> (front matter, body)


def split_view(text: str) -> tuple[dict[str, object], str]:
    assert text.startswith("---\n"), text[:40]
    head, sep, body = text[4:].partition("\n---\n")
    assert sep, "front matter is not closed"
    data = yaml.safe_load(head)
    assert data == YAML(typ="safe", pure=True).load(io.StringIO(head)), "YAML 1.1 != 1.2"
    assert list(data) == [k for k in KEYS if k in data], f"key order: {list(data)}"
    for key in ("title", "canonical", "modified"):
        assert isinstance(data.get(key), str), f"missing {key}"
        assert data[key], f"missing {key}"
    for key in ("modified", "published"):
        if key in data:
            assert len(data[key]) == 20, data[key]
            assert data[key].endswith("Z"), data[key]
    assert body == "" or body.startswith("\n"), "a blank line must follow the front matter"
    assert "\n\n\n" not in body, "doubled blank lines"
    assert all(line == line.rstrip() for line in body.split("\n")), "trailing spaces"
    assert "¶" not in body
    body = body.lstrip("\n")
    label = phrases_for(data.get("lang")).site_index  # in the page's language
    if body.startswith(f"> {label} "):  # the site-index line: the view file's, not the body's
        line, _, body = body.partition("\n")
        base = str(data["canonical"]).split("/")[0] + "//"
        assert re.fullmatch(rf"> {re.escape(label)} \[llms\.txt\]\((\S+)/llms\.txt\)"
                            r"(?: · \[agentprose\.json\]\(\1/agentprose\.json\))?", line), line
        assert line.count(base) >= 1
        assert body == "" or body.startswith("\n"), "a blank line must follow the directive"
    return data, body.lstrip("\n")


def _path_of(url: str, base: str) -> str:
    assert url.startswith(base), f"{url} is not under {base}"
    return unquote(url[len(base):])


def check_site(
    site_dir: Path, base: str, *, expect_pages: int | None = None, full_complete: bool = True,
    canonical_base: str | None = None,
) -> SiteOutputs:
    index = json.loads((site_dir / "agentprose.json").read_text(encoding="utf-8"))
    Draft202012Validator(
        load_schema(), format_checker=Draft202012Validator.FORMAT_CHECKER
    ).validate(index)
    assert index["site"]["url"] == base
    posts = index["posts"]
    if expect_pages is not None:
        assert len(posts) == expect_pages, [p["url"] for p in posts]
    views = {}
    for post in posts:
        for key in ("url", "markdown_url", "image", "prev", "next"):
            if key in post:
                assert post[key].startswith(base), f"{key} off the site: {post[key]}"
        relative = _path_of(post["markdown_url"], base)
        text = (site_dir / relative).read_text(encoding="utf-8")
        front, body = split_view(text)
        cited = post["url"] if canonical_base is None else canonical_base + post["url"][len(base):]
        assert front["canonical"] == cited
        assert front["title"] == post["title"]
        assert front["modified"] == post["modified"]
        if "markdown" in post:
            assert post["markdown"] == body.rstrip("\n")
        views[relative] = (front, body)
    llms_text = (site_dir / "llms.txt").read_text(encoding="utf-8")
    parsed = parse_llms_file(llms_text)
    links = [dict(link) for section in parsed.sections.values() for link in section]
    assert parsed.title
    assert parsed.summary
    assert sorted(link["url"] for link in links) == sorted(p["markdown_url"] for p in posts)
    for link in links:
        assert (site_dir / _path_of(link["url"], base)).is_file(), link["url"]
    full = (site_dir / "llms-full.txt").read_text(encoding="utf-8")
    for post in posts if full_complete else posts[:1]:
        cited = post["url"] if canonical_base is None else canonical_base + post["url"][len(base):]
        assert f"Source: {cited}" in full
    _check_section_files(site_dir, base, posts, llms_text)
    _check_discovery(site_dir, base, posts)
    _check_no_leaks(site_dir)
    return SiteOutputs(index=index, llms={"title": parsed.title, "summary": parsed.summary,
                                          "sections": parsed.sections}, views=views)


def _check_no_leaks(site_dir: Path) -> None:
    """No output holds a path of the build machine or the value of an environment variable."""
    forbidden = {str(site_dir.resolve().parent), str(Path.cwd()), str(Path.home())}
    forbidden |= {value for key, value in os.environ.items()
                  if len(value) >= 12 and key not in ("PATH", "LANG", "SHELL", "TERM")
                  and not value.startswith(("http://", "https://"))}
    for path in site_dir.rglob("*"):
        if path.suffix in (".md", ".json", ".txt") and path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            for value in forbidden:
                assert value not in text, f"{path.name} holds {value!r}"


def _html_file(site_dir: Path, url: str, base: str) -> Path:
    relative = _path_of(url, base)
    if relative == "" or relative.endswith("/"):
        relative += "index.html"
    return site_dir / relative


def _check_section_files(site_dir: Path, base: str, posts: list[dict[str, str]],
                         root: str) -> None:
    """Every section llms.txt is linked from the root file, parses intact, and lists the
    views of every post under its folder."""
    prose = root.split("\n## ", 1)[0]
    linked = set(re.findall(r"\]\((\S+/llms\.txt)\)", prose)) - set(language_llms_files(prose))
    nested = [path.parent for path in site_dir.rglob("agentprose.json") if path.parent != site_dir]
    found = {base + path.relative_to(site_dir).as_posix()
             for path in site_dir.rglob("llms.txt") if path.parent != site_dir
             and not any(folder == path.parent or folder in path.parents for folder in nested)}
    assert linked == found, (linked, found)
    for url in found:
        folder = url[len(base):-len("llms.txt")]
        parsed = parse_llms_file((site_dir / folder / "llms.txt").read_text(encoding="utf-8"))
        assert parsed.title
        assert parsed.summary
        urls = [link["url"] for links in parsed.sections.values() for link in links]
        under = [p["markdown_url"] for p in posts
                 if p["url"][len(base):].startswith(folder)]
        assert sorted(urls) == sorted(under), url


def _describedby(url: str, base: str, site_dir: Path) -> str:
    """The most specific llms.txt written that covers the page at ``url``."""
    folder = url[len(base):]
    folder = folder[: folder.rfind("/") + 1]
    while folder and not (site_dir / folder / "llms.txt").is_file():
        folder = folder[: folder[:-1].rfind("/") + 1]
    return base + folder + "llms.txt"


_MARKDOWN_TYPE = re.compile(r"""type=["']?text/markdown""")


def _check_discovery(site_dir: Path, base: str, posts: list[dict[str, str]]) -> None:
    # Parsed as a client parses them, so that a minifier's unquoted attributes pass.
    for post in posts:
        html = _html_file(site_dir, post["url"], base).read_text(encoding="utf-8")
        links = head_links(html)
        views = [link.href for link in links
                 if "alternate" in link.rel and link.type == "text/markdown"]
        assert views == [post["markdown_url"]], f"discovery link in {post['url']}: {views}"
        assert sum("agentprose-index" in link.rel for link in links) == 1
        described = [link.href for link in links if "describedby" in link.rel]
        assert described == [_describedby(post["url"], base, site_dir)], post["url"]
        body = html[html.lower().index("<body"):]
        first = body[body.index(">") + 1:]
        assert re.match(r"<div data-agentprose-hint[\s>]", first), post["url"]
        assert html.count("<div data-agentprose-hint") == 1
        top = body_top_links(html)
        assert post["markdown_url"] in top or "%" in post["markdown_url"], post["url"]
        assert len(_MARKDOWN_TYPE.findall(html)) == 1
    pages = {_html_file(site_dir, post["url"], base).resolve() for post in posts}
    for other in site_dir.rglob("*.html"):  # 404, search, indexes, pages left out
        if other.resolve() not in pages:
            text = other.read_text(encoding="utf-8", errors="replace")
            if _MARKDOWN_TYPE.search(text):
                continue  # a page a deleted source left (Sphinx keeps its old HTML)
            assert "<div data-agentprose-hint" not in text, other
            assert not any("describedby" in link.rel for link in head_links(text)), other
    assert urlsplit(base).scheme in ("http", "https")
