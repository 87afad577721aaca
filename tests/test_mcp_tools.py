"""The tools' answers, on the example static site built by ``agentprose build``, and
how an index that cannot be used is reported."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from agentprose_core.cli import main as cli
from agentprose_core.mcp import tools
from agentprose_core.mcp.search import best_passage
from agentprose_core.mcp.site import IndexProblem, LoadedSite, Post, site_from_index
from agentprose_core.mcp.sources import FolderSource, UrlSource
from agentprose_core.reading.text import parse_view
from agentprose_core.search.index import Document, SearchIndex
from agentprose_core.search.links import links_between

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("mcp") / "site"
    shutil.copytree(ROOT / "examples" / "plain-site", site)
    assert cli(["build", str(site), "--base-url", "https://coast.example/", "--quiet"]) == 0
    return site


@pytest.fixture(scope="module")
def site(built: Path) -> LoadedSite:
    return FolderSource(built).load().site


def _body(post: Post) -> str:
    assert post.markdown is not None
    return post.markdown


def _search(site: LoadedSite) -> SearchIndex:
    return SearchIndex.build([Document(p.title, " ".join(h.title for h in p.headings), p.summary,
                                 _body(p)) for p in site.posts])


def _links(site: LoadedSite) -> list[list[int]]:
    return links_between([(p.url, p.markdown_url) for p in site.posts],
                         [_body(p) for p in site.posts])


def test_find_takes_page_urls_view_urls_and_paths(site: LoadedSite) -> None:
    pools = site.find("https://coast.example/tide-pools/")
    assert pools is not None
    assert pools.title == "How tide pools survive low tide"
    for name in ("/tide-pools/", "tide-pools", "tide-pools.md", "/tide-pools/index.html",
                 "https://coast.example/tide-pools.md#temperature", "tide-pools/?x=1"):
        assert site.find(name) is pools, name
    assert site.find("rock-pools.html") is site.find("/rock-pools.md") is not None
    assert site.find("/") is site.posts[0]
    assert site.find("/nowhere/") is None
    assert site.find("") is None


def test_paged_parts_put_together_are_the_text() -> None:
    text = "".join(f"line {n} " + "x" * (n % 90) + "\n" for n in range(2000))
    assert len(text) > 3 * tools.MAX_CHARS
    parts = []
    part = 1
    while True:
        answer = tools.paged(text, part)
        assert len(answer) <= tools.MAX_CHARS
        footer = re.search(r"\n\n\[Part (\d+) of (\d+): call get_page again with "
                           r"part=(\d+) for the rest\.\]\Z", answer)
        if footer is None:
            parts.append(answer)
            break
        parts.append(answer[: footer.start()])
        part += 1
    assert "".join(parts) == text
    assert all(piece.endswith("\n") for piece in parts)
    assert tools.paged("short", 1) == "short"
    with pytest.raises(ValueError, match="part must be between 1 and 1"):
        tools.paged("short", 2)


def test_site_info(site: LoadedSite) -> None:
    answer = tools.site_info(site, "2026-03-14T10:30:00Z", "everything")
    assert answer.startswith(f"# {site.name}\n")
    assert "- Base URL: https://coast.example/" in answer
    assert f"- Pages: {len(site.posts)}" in answer
    assert "- Index written: 2026-03-14T10:30:00Z" in answer
    assert "- How tide pools survive low tide: 2 pages" in answer


def test_list_pages_filters_and_pages_through(site: LoadedSite) -> None:
    every = tools.list_pages(site)
    assert every.startswith(f"Pages 1–{len(site.posts)} of {len(site.posts)}")
    assert [line.split("](")[1].split(")")[0] for line in every.split("\n")
            if line.startswith("- [")] == [post.url for post in site.posts]
    first = tools.list_pages(site, limit=2)
    assert "[More: call list_pages again with offset=2.]" in first
    second = tools.list_pages(site, limit=2, offset=2)
    assert second.startswith(f"Pages 3–4 of {len(site.posts)}")
    tagged = tools.list_pages(site, tag="ECOLOGY")
    assert tagged.count("\n- [") == 1
    assert "tide-pools/" in tagged
    section = tools.list_pages(site, section="How tide pools survive low tide")
    assert section.count("\n- [") == 2
    assert tools.list_pages(site, since="2999-01-01") == "No pages match."
    assert tools.list_pages(site, since="2000-01-01").count("\n- [") == len(site.posts)
    with pytest.raises(ValueError, match="since must be a date"):
        tools.list_pages(site, since="last week")


def test_table_of_contents_and_sections(site: LoadedSite) -> None:
    pools = site.find("/tide-pools/")
    assert pools is not None
    outline = tools.table_of_contents(pools, None)
    assert "- Temperature (#temperature)" in outline
    body = _body(pools)
    by_id = tools.get_section(pools, body, "temperature")
    by_title = tools.get_section(pools, body, "Temperature")
    assert by_id == by_title
    assert by_id.startswith("From How tide pools survive low tide "
                            "(https://coast.example/tide-pools/#temperature):\n\n## Temperature")
    assert "## " not in by_id.split("## Temperature", 1)[1]
    with pytest.raises(ValueError, match="no section 'Tides at night'; its sections: "):
        tools.get_section(pools, body, "Tides at night")


def test_a_section_of_an_api_object_runs_to_the_next_object() -> None:
    body = ('# <a id="module-x"></a>API\n\nAbout.\n\n<a id="x.height"></a>`x.height(a)`\n\n'
            "Height.\n\n```python\n# comment, not a heading\n```\n\n"
            '<a id="x.depth"></a>`x.depth(a)`\n\nDepth.\n\n## Notes\n\nEnd.')
    data = _index([{"url": "https://s.example/api/", "markdown_url": "https://s.example/api.md",
                    "title": "API", "modified": "2026-01-01T00:00:00Z", "markdown": body,
                    "headings": [{"level": 1, "id": "module-x", "title": "API"},
                                 {"level": 2, "id": "x.height", "title": "height"},
                                 {"level": 2, "id": "x.depth", "title": "depth"},
                                 {"level": 2, "id": "notes", "title": "Notes"}]}])
    post = site_from_index(data).posts[0]
    height = tools.get_section(post, body, "x.height")
    assert height.endswith('<a id="x.height"></a>`x.height(a)`\n\nHeight.\n\n```python\n'
                           "# comment, not a heading\n```\n")
    assert tools.get_section(post, body, "depth").endswith("Depth.\n")
    assert "Depth." in tools.get_section(post, body, "module-x")
    outline = tools.table_of_contents(post, None)
    assert "  - height (#x.height)" in outline


def test_search_gives_the_section_path_and_snippet(site: LoadedSite) -> None:
    answer = tools.search_docs(site, _search(site), _body, "temperature")
    first = answer.split("\n\n")[1]
    assert first.startswith("1. [How tide pools survive low tide]"
                            "(https://coast.example/tide-pools/#temperature)")
    assert "How tide pools survive low tide › Temperature" in first
    assert "Nothing on" in tools.search_docs(site, _search(site), _body, "zeppelin")
    with pytest.raises(ValueError, match="no words"):
        tools.search_docs(site, _search(site), _body, "  ?! ")


def test_related_pages_say_why(site: LoadedSite) -> None:
    pools = site.find("/tide-pools/")
    assert pools is not None
    links = _links(site)
    answer = tools.related_pages(site, _search(site), links, pools)
    species = site.find("/tide-pools/species/")
    assert species is not None
    line = next(line for line in answer.split("\n") if species.url + ")" in line)
    assert "same section (How tide pools survive low tide)" in line
    assert all(pools.url + ")" not in line for line in answer.split("\n")
               if line.startswith("- ["))


def test_every_url_a_tool_answers_is_in_the_index(site: LoadedSite) -> None:
    known = {post.url for post in site.posts} | {site.url}
    answers = [tools.list_pages(site), tools.site_info(site, "", ""),
               tools.search_docs(site, _search(site), _body, "pools tide crabs"),
               *(tools.related_pages(site, _search(site), _links(site), p)
                 for p in site.posts),
               *(tools.table_of_contents(p, None) for p in site.posts)]
    for answer in answers:
        # Result lines' links and bare URL lines (snippets quote the pages' own links).
        listed = re.findall(r"^ *(?:- |\d+\. )\[[^\]]*\]\((https?://[^)\s]+)\)|"
                            r"^(?:- Base URL: )?(https?://\S+)$", answer, re.MULTILINE)
        listed = [link or bare for link, bare in listed]
        assert listed, answer
        for url in listed:
            assert url.split("#")[0] in known, url


def test_views_and_index_bodies_agree(built: Path, site: LoadedSite) -> None:
    source = FolderSource(built)
    for post in site.posts:
        view = source.view(post)
        assert view == (built / post.markdown_url.removeprefix(site.url)).read_text("utf-8")
        assert parse_view(view).body == post.markdown


# -- what cannot be used --------------------------------------------------------------


def _index(posts: list[dict[str, Any]], **site: Any) -> dict[str, Any]:
    return {"version": 1, "generator": "test",
            "site": {"name": "S", "url": "https://s.example/", **site}, "posts": posts}


_POST = {"url": "https://s.example/a/", "markdown_url": "https://s.example/a.md",
         "title": "A", "modified": "2026-01-01T00:00:00Z"}


@pytest.mark.parametrize(("data", "message"), [
    ([], "the index is not a JSON object"),
    ({"version": 2}, "has version 2; this agentprose reads version 1"),
    ({"version": 1, "site": {"name": "S", "url": "https://s.example/"}}, "has no 'posts' list"),
    (_index([], url="ftp://s.example/"), "is not an http(s) URL ending with '/'"),
    (_index([{**_POST, "markdown_url": "https://evil.example/a.md"}]),
     "is not on the site's origin https://s.example"),
    (_index([{**_POST, "title": ""}]), "post 1 of the index has no 'title' text"),
    (_index([{**_POST, "markdown": 3}]), "'markdown' is not a string"),
    ({**_index([]), "parts": "more.json"}, "'parts' must be a list"),
])
def test_an_unusable_index_says_what_is_wrong(tmp_path: Path, data: object,
                                              message: str) -> None:
    (tmp_path / "agentprose.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(IndexProblem, match=re.escape(message)):
        FolderSource(tmp_path).load()


def test_a_missing_or_broken_index_file(tmp_path: Path) -> None:
    with pytest.raises(IndexProblem, match=r"has no agentprose\.json: build the site"):
        FolderSource(tmp_path).load()
    with pytest.raises(IndexProblem, match="is not a folder"):
        FolderSource(tmp_path / "nothing").load()
    (tmp_path / "agentprose.json").write_text('{"version": 1,', encoding="utf-8")
    with pytest.raises(IndexProblem, match=r"is not JSON \(Expecting"):
        FolderSource(tmp_path).load()
    (tmp_path / "agentprose.json").write_bytes(b"\xff\xfe")
    with pytest.raises(IndexProblem, match="is not UTF-8"):
        FolderSource(tmp_path).load()


def test_a_view_outside_the_folder_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "secret.md").write_text("secret", encoding="utf-8")
    post = {**_POST, "markdown_url": "https://s.example/%2e%2e/secret.md"}
    (tmp_path / "site" / "agentprose.json").write_text(json.dumps(_index([post])), "utf-8")
    source = FolderSource(tmp_path / "site")
    loaded = source.load().site
    with pytest.raises(IndexProblem, match="has no file in"):
        source.view(loaded.posts[0])


def test_a_url_source_refuses_other_origins() -> None:
    source = UrlSource("https://docs.example/guide/")
    with pytest.raises(IndexProblem, match=re.escape(
            "is not on https://docs.example: this server reads only the site it was started "
            "for")):
        source.get("https://other.example/agentprose.json")
    with pytest.raises(IndexProblem, match="is not on"):
        source.get("http://docs.example/agentprose.json")  # another scheme, another origin


def test_a_heading_the_index_spells_without_its_emoji_is_found_by_id() -> None:
    # Material's docs: "### Icons, emojis in sidebars 😄" in the view, the index's
    # title without the emoji.
    body = "# Icons\n\nIntro.\n\n### Icons, emojis in sidebars 😄\n\nShown in the nav.\n"
    post = site_from_index(_index([{
        **_POST, "markdown": body, "headings": [
            {"level": 1, "id": "icons", "title": "Icons"},
            {"level": 3, "id": "icons-emojis-in-sidebars", "title": "Icons, emojis in sidebars"}],
    }])).posts[0]
    by_id = tools.get_section(post, body, "icons-emojis-in-sidebars")
    assert by_id.endswith("### Icons, emojis in sidebars 😄\n\nShown in the nav.\n")
    assert "#icons-emojis-in-sidebars)" in by_id
    assert tools.get_section(post, body, "icons emojis in sidebars") == by_id


def test_snippets_keep_a_link_s_text_not_its_url() -> None:
    passage = best_passage("See the [blog plugin](https://s.example/plugins/blog.md) now.",
                           "blog")
    assert passage.snippet == "See the blog plugin now."


def test_headings_inside_quotes_and_list_items_are_sections() -> None:
    # MkDocs' docs: options as "> #### locale" inside an admonition; mkdocstrings:
    # parameters as "- ### <a id=…></a>name" list items.
    body = ("# Config\n\n> **Note**\n>\n> #### locale\n>\n> The language.\n>\n"
            "> ```yaml\n> # not a heading\n> ```\n>\n> #### custom_dir\n>\n> A folder.\n\n"
            '- ### <a id="m.Hook(obj)"></a>**`obj`**\n\n  The object.\n\n## Next\n')
    post = site_from_index(_index([{**_POST, "markdown": body, "headings": [
        {"level": 1, "id": "config", "title": "Config"},
        {"level": 4, "id": "locale", "title": "locale"},
        {"level": 4, "id": "custom_dir", "title": "custom_dir"},
        {"level": 3, "id": "m.Hook(obj)", "title": "obj"},
        {"level": 2, "id": "next", "title": "Next"}]}])).posts[0]
    locale = tools.get_section(post, body, "locale")
    assert locale.endswith("> #### locale\n>\n> The language.\n>\n> ```yaml\n"
                           "> # not a heading\n> ```\n>\n")
    assert tools.get_section(post, body, "custom_dir").endswith("> A folder.\n")
    assert tools.get_section(post, body, "m.Hook(obj)").endswith("  The object.\n")


def test_a_heading_with_several_anchors_is_found_by_any() -> None:
    # Sphinx: a label and the section's own id on one heading.
    body = ('# Intro\n\n## <a id="id3"></a><a id="roadmap-1-0"></a>1.0.0\n\nPlans.\n\n'
            "## Later\n")
    post = site_from_index(_index([{**_POST, "markdown": body, "headings": [
        {"level": 1, "id": "intro", "title": "Intro"},
        {"level": 2, "id": "roadmap-1-0", "title": "1.0.0"},
        {"level": 2, "id": "later", "title": "Later"}]}])).posts[0]
    answer = tools.get_section(post, body, "roadmap-1-0")
    assert answer == tools.get_section(post, body, "id3")
    assert "(https://s.example/a/#roadmap-1-0):" in answer
    assert answer.endswith("Plans.\n")
