"""Reaching agents that see only part of a page: the directive line of a view, the
sections' own llms.txt (llms.txt v2 scoping), ``describedby`` and the body hint."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from llms_txt import parse_llms_file

from agentprose_core.model import PageRecord, SiteRecord
from agentprose_core.output.publish import SECTION_FULL_MIN_CHARS, publish
from agentprose_core.reading.text import parse_view
from agentprose_core.records.scopes import (
    PlacedPage,
    covering_scope,
    describedby_url,
    folder_of,
    pages_in_scopes,
    pages_under,
    section_scopes,
    site_scopes,
)
from agentprose_core.render.bodyhint import (
    HINT_MARKER,
    body_hint,
    insert_hint,
    insert_hint_bytes,
    without_hint,
)
from agentprose_core.render.decorate import decorate_page, decorate_text, redecorate_page
from agentprose_core.render.llmstxt import render_llms_txt, render_section_llms_txt
from agentprose_core.render.view import render_view, view_directive
from agentprose_core.settings import Settings

if TYPE_CHECKING:
    from pathlib import Path

BASE = "https://coast.example/docs/"
SETTINGS = Settings()


def page(path: str, *section: str, in_nav: bool = True, **fields: Any) -> PageRecord:
    stem = path.strip("/") or "index"
    values: dict[str, Any] = {
        "url": BASE + path, "markdown_url": f"{BASE}{stem}.md", "title": stem.title(),
        "modified": "2026-03-14T10:30:00Z", "section": section, "in_nav": in_nav,
        "markdown": f"# {stem.title()}\n\nText of {stem}.",
    }
    values.update(fields)
    return PageRecord(**values)


PAGES = [
    page(""),
    page("about/"),
    page("guide/", "Guide"),
    page("guide/install/", "Guide"),
    page("guide/tuning/cache/", "Guide", "Tuning"),
    page("api/tides.html", "API"),
    page("api/moon.html", "API"),
    page("lonely/one/", "Lonely"),  # one page: no file of its own
    page("spread/a/", "Spread"),  # no folder of their own: under the root only
    page("elsewhere/b/", "Spread"),
    page("guide/extra/", in_nav=False),  # outside the nav, under guide/
]
SCOPES = section_scopes(PAGES, BASE)
SITE = SiteRecord(name="Coast", url=BASE, description="Field notes.", scopes=SCOPES)


# -- scopes --------------------------------------------------------------------------


def test_sections_with_a_folder_and_several_pages_get_a_scope() -> None:
    assert SCOPES == (("guide/", "Guide"), ("api/", "API"))


def test_folder_of_a_page() -> None:
    assert folder_of(BASE + "guide/", BASE) == "guide/"
    assert folder_of(BASE + "guide/install.html", BASE) == "guide/"
    assert folder_of(BASE + "index.html", BASE) == ""
    assert folder_of("https://other.example/guide/", BASE) is None


_SEGMENTS = st.sampled_from(["a", "b", "ab", "a.html", "b/index.html", "", "x%20y"])


@settings(max_examples=200, deadline=None)
@given(paths=st.lists(st.lists(_SEGMENTS, max_size=4).map("/".join), max_size=12),
       folders=st.lists(st.lists(st.sampled_from(["a", "b", "ab", ""]), min_size=1,
                                 max_size=3).map(lambda parts: "/".join(parts) + "/"),
                        max_size=5, unique=True),
       off_site=st.booleans())
def test_pages_in_scopes_files_each_page_as_pages_under_does(
    paths: list[str], folders: list[str], off_site: bool,
) -> None:
    # One pass instead of one per section: the same pages, in the same order.
    pages = [page(path, "Guide") for path in paths]
    if off_site:
        pages.append(dataclasses.replace(page("a/", "Guide"), url="https://other.example/a/"))
    assert pages_in_scopes(pages, BASE, folders) == {
        folder: pages_under(pages, BASE, folder) for folder in folders}


def test_the_most_specific_scope_covers_a_page() -> None:
    folders = ["guide/", "guide/tuning/", "api/"]
    assert covering_scope(BASE + "guide/tuning/cache/", BASE, folders) == "guide/tuning/"
    assert covering_scope(BASE + "guide/install/", BASE, folders) == "guide/"
    assert covering_scope(BASE + "guidebook/", BASE, folders) == ""
    assert describedby_url(BASE + "api/moon.html", BASE, SCOPES) == BASE + "api/llms.txt"
    assert describedby_url(BASE + "about/", BASE, SCOPES) == BASE + "llms.txt"


@settings(max_examples=200, deadline=None)
@given(paths=st.lists(st.lists(_SEGMENTS, max_size=4).map("/".join), max_size=12),
       folders=st.lists(st.lists(st.sampled_from(["a", "b", "ab", ""]), min_size=1,
                                 max_size=3).map(lambda parts: "/".join(parts) + "/"),
                        max_size=5, unique=True))
def test_describedby_names_the_longest_scope_that_holds_the_page(
    paths: list[str], folders: list[str],
) -> None:
    # Found by the page's folder's prefixes: what comparing with every scope gives.
    scopes = tuple((folder, "Title") for folder in folders)
    for path in [*paths, "https://other.example/a/"]:
        url = path if path.startswith("https:") else BASE + path
        assert describedby_url(url, BASE, scopes) == \
            BASE + covering_scope(url, BASE, folders) + "llms.txt"


def test_a_folder_two_sections_share_goes_to_the_first() -> None:
    pages = [page("a/x/", "One"), page("a/y/", "One"), page("a/z/", "Two"), page("a/w/", "Two")]
    assert section_scopes(pages, BASE) == (("a/", "One"),)


def test_given_sections_make_the_scopes() -> None:
    given = [("Reference", [BASE + "api/tides.html", BASE + "api/moon.html"])]
    assert section_scopes(PAGES, BASE, given) == (("api/", "Reference"),)


def test_no_scopes_when_settings_write_no_section_files() -> None:
    placed = [PlacedPage(p.url, p.section, p.in_nav) for p in PAGES]
    assert site_scopes(placed, BASE, SETTINGS) == SCOPES
    assert site_scopes(placed, BASE, Settings(section_llms_txt=False)) == ()
    assert site_scopes(placed, BASE, Settings(llms_txt=False)) == ()


# -- llms.txt files ------------------------------------------------------------------


def test_the_root_file_links_the_sections_files_and_parses_intact() -> None:
    text = render_llms_txt(SITE, PAGES)
    parsed = parse_llms_file(text)
    assert parsed.title == "Coast"
    assert f"[Guide]({BASE}guide/llms.txt)" in parsed.info
    assert f"[API]({BASE}api/llms.txt)" in parsed.info
    links = [link["url"] for links in parsed.sections.values() for link in links]
    assert all(url.endswith(".md") for url in links)  # section lists stay pages only
    assert len(links) == len(PAGES)


def test_a_section_file_lists_every_page_under_its_folder() -> None:
    text = render_section_llms_txt(SITE, PAGES, "guide/", "Guide")
    parsed = parse_llms_file(text)
    assert parsed.title == "Coast: Guide"
    assert f"({BASE}llms.txt)" in parsed.info
    sections = {name: [link["url"] for link in links] for name, links in parsed.sections.items()}
    assert sections == {
        "Guide": [BASE + "guide.md", BASE + "guide/install.md"],
        "Tuning": [BASE + "guide/tuning/cache.md"],
        "Optional": [BASE + "guide/extra.md"],
    }


def test_a_section_file_summary_is_its_index_page_summary() -> None:
    pages = [dataclasses.replace(PAGES[2], summary="How to use the coast."), *PAGES[3:]]
    text = render_section_llms_txt(SITE, pages, "guide/", "Guide")
    assert parse_llms_file(text).summary == "How to use the coast."


def test_publish_writes_the_section_files(tmp_path: Path) -> None:
    published = publish(tmp_path, SITE, PAGES, settings=SETTINGS, generator="test")
    assert {"llms.txt", "guide/llms.txt", "api/llms.txt"} <= set(published.files)
    assert not (tmp_path / "guide" / "llms-full.txt").exists()  # small: no llms-full.txt


def test_a_large_section_gets_its_own_llms_full(tmp_path: Path) -> None:
    big = "x" * SECTION_FULL_MIN_CHARS
    pages = [dataclasses.replace(p, markdown=p.markdown + "\n\n" + big)
             if p.url.startswith(BASE + "api/") else p for p in PAGES]
    publish(tmp_path, SITE, pages, settings=SETTINGS, generator="test")
    full = (tmp_path / "api" / "llms-full.txt").read_text(encoding="utf-8")
    assert f"Source: {BASE}api/tides.html" in full
    assert f"Source: {BASE}guide/" not in full
    assert f"({BASE}api/llms-full.txt)" in (tmp_path / "api" / "llms.txt").read_text("utf-8")


# -- the directive -------------------------------------------------------------------


def test_the_directive_follows_the_front_matter() -> None:
    directive = view_directive(BASE, SETTINGS)
    assert directive == (f"> Site index: [llms.txt]({BASE}llms.txt) · "
                         f"[agentprose.json]({BASE}agentprose.json)")
    view = render_view(PAGES[0], directive)
    _, _, rest = view.partition("---\n\n")
    assert rest.startswith(directive + "\n\n# Index\n")
    parsed = parse_view(view)
    assert parsed.directive == directive
    assert parsed.body == PAGES[0].markdown  # what agentprose.json and llms-full.txt hold
    assert parsed.findings == []


def test_the_directive_names_only_what_is_written() -> None:
    assert view_directive(BASE, Settings(directive=False)) == ""
    assert view_directive(BASE, Settings(llms_txt=False, index=False)) == ""
    assert "agentprose.json" not in view_directive(BASE, Settings(index=False))


def test_the_directive_is_only_in_the_view_files(tmp_path: Path) -> None:
    publish(tmp_path, SITE, PAGES, settings=SETTINGS, generator="test")
    assert (tmp_path / "about.md").read_text("utf-8").count("> Site index:") == 1
    for name in ("agentprose.json", "llms-full.txt", "llms.txt"):
        assert "Site index:" not in (tmp_path / name).read_text("utf-8")


# -- the head and the body hint ------------------------------------------------------

DOCUMENT = ('<!doctype html><html><head><title>T</title></head>'
            '<body class="md" data-x="a>b"><nav>menu</nav><main>Text</main></body></html>')


def test_the_head_links_the_covering_llms_txt() -> None:
    decorated = decorate_text(DOCUMENT, PAGES[4], SITE, SETTINGS)
    assert decorated is not None
    head = decorated.split("</head>")[0]
    assert head.count('rel="describedby"') == 1
    assert f'<link rel="describedby" href="{BASE}guide/llms.txt">' in head


def test_the_hint_opens_the_body_once() -> None:
    decorated = decorate_text(DOCUMENT, PAGES[4], SITE, SETTINGS)
    assert decorated is not None
    body = decorated.split('<body class="md" data-x="a>b">', 1)[1]
    assert body.startswith(f"<div {HINT_MARKER} ")
    assert f'href="{PAGES[4].markdown_url}"' in body.split("</div>")[0]
    assert f'href="{BASE}guide/llms.txt"' in body.split("</div>")[0]
    assert decorate_text(decorated, PAGES[4], SITE, SETTINGS) is None  # a rebuild adds none


def test_hint_is_hidden_for_the_eye_and_out_of_the_tab_order() -> None:
    hint = body_hint(PAGES[1], SITE, SETTINGS)
    assert "clip-path:inset(50%)" in hint
    assert "display:none" not in hint
    assert "aria-hidden" not in hint
    assert " hidden" not in hint.replace(HINT_MARKER, "")
    assert hint.count('tabindex="-1"') == 2


def test_no_hint_when_the_setting_is_off() -> None:
    off = Settings(body_hint=False)
    decorated = decorate_text(DOCUMENT, PAGES[1], SITE, off)
    assert decorated is not None
    assert HINT_MARKER not in decorated
    assert insert_hint(DOCUMENT, "") is None


def test_same_hint_for_text_and_bytes() -> None:
    as_text = decorate_text(DOCUMENT, PAGES[1], SITE, SETTINGS)
    as_bytes = decorate_page(DOCUMENT.encode(), PAGES[1], SITE, SETTINGS)
    assert as_text is not None
    assert as_bytes is not None
    assert HINT_MARKER in as_text
    assert HINT_MARKER.encode() in as_bytes
    hint = body_hint(PAGES[1], SITE, SETTINGS)
    assert as_text.count(hint) == 1
    assert as_bytes.count(hint.encode()) == 1


def test_no_body_no_hint() -> None:
    assert insert_hint_bytes(b"<html><head></head></html>", "<div>x</div>") is None
    assert insert_hint("<p>fragment</p>", "<div>x</div>") is None


def test_redecorating_replaces_the_hint_and_gives_the_same_bytes() -> None:
    once = redecorate_page(DOCUMENT.encode(), PAGES[1], SITE, SETTINGS)
    assert once is not None
    assert redecorate_page(once, PAGES[1], SITE, SETTINGS) is None
    moved = SiteRecord(name="Coast", url="https://new.example/", scopes=())
    other = dataclasses.replace(PAGES[1], url="https://new.example/about/",
                                markdown_url="https://new.example/about.md")
    again = redecorate_page(once, other, moved, SETTINGS)
    assert again is not None
    assert b"coast.example" not in again
    assert again.count(HINT_MARKER.encode()) == 1
    assert without_hint(without_hint(once)) == without_hint(once)


@pytest.mark.parametrize("tag", ["<BODY>", "<body\n  class='a'>", '<body onload="x>y">'])
def test_any_body_tag(tag: str) -> None:
    document = f"<html><head></head>{tag}<p>x</p></body></html>"
    hinted = insert_hint(document, "<div data-agentprose-hint>h</div>")
    assert hinted == document.replace(tag, tag + "<div data-agentprose-hint>h</div>\n")
