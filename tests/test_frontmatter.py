"""The agent view's front matter: quoting, key order, YAML 1.1 and 1.2 agree."""

from __future__ import annotations

import io

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from agentprose_core.model import PageRecord
from agentprose_core.render.view import _escape, quote, render_front_matter, render_view

PAGE = PageRecord(
    url="https://coast.example/tide-pools/",
    markdown_url="https://coast.example/tide-pools.md",
    title="How tide pools survive low tide",
    modified="2026-03-14T10:30:00Z",
    markdown="# How tide pools survive low tide\n\nBody.\n",
    published="2025-06-02T08:00:00Z",
    authors=("Ana Ruiz",),
    lang="en",
    prev="https://coast.example/rock-pools/",
    next="https://coast.example/tide-pools/species/",
)


def _load_12(text: str) -> object:
    return YAML(typ="safe", pure=True).load(io.StringIO(text))


def test_documented_example_byte_for_byte() -> None:
    assert render_front_matter(PAGE) == (
        "---\n"
        'title: "How tide pools survive low tide"\n'
        'canonical: "https://coast.example/tide-pools/"\n'
        'modified: "2026-03-14T10:30:00Z"\n'
        'published: "2025-06-02T08:00:00Z"\n'
        'author: "Ana Ruiz"\n'
        'lang: "en"\n'
        'prev: "https://coast.example/rock-pools/"\n'
        'next: "https://coast.example/tide-pools/species/"\n'
        "---\n"
    )


def test_absent_fields_are_left_out() -> None:
    bare = PageRecord(url="https://x.org/", markdown_url="https://x.org/index.md", title="X",
                      modified="2026-01-01T00:00:00Z")
    text = render_front_matter(bare)
    assert text.splitlines() == [
        "---", 'title: "X"', 'canonical: "https://x.org/"', 'modified: "2026-01-01T00:00:00Z"',
        "---",
    ]


def test_several_authors_are_a_list() -> None:
    page = PageRecord(url="https://x.org/", markdown_url="https://x.org/index.md", title="X",
                      modified="2026-01-01T00:00:00Z", authors=("Ana", "Bo"))
    data = yaml.safe_load(render_front_matter(page).strip("-\n"))
    assert data["author"] == ["Ana", "Bo"]


def test_view_is_front_matter_blank_line_body() -> None:
    view = render_view(PAGE)
    _, _, body = view.partition("---\n\n")
    assert body == PAGE.markdown
    assert view.endswith("Body.\n")


def test_times_stay_strings_in_both_yaml_versions() -> None:
    text = render_front_matter(PAGE).strip("-\n")
    for data in (yaml.safe_load(text), _load_12(text)):
        assert data["modified"] == "2026-03-14T10:30:00Z"  # type: ignore[index]
        assert isinstance(data["published"], str)  # type: ignore[index]


HOSTILE = ["yes", "no", "null", "~", "0012", "1e3", "---", "a: b", "#x", "*a", "&a", "!t", "%p",
           "@x", "`x", "'q'", '"q"', "\u2028", "\u2029", "\x85", "\ufeffBOM", "tab\there",
           "line\nbreak", "back\\slash", "\x00nul", "\x7f", "é ü 😀 潮", " lead", "trail ", ""]


def test_hostile_values_round_trip_in_yaml_11_and_12() -> None:
    for value in HOSTILE:
        doc = f"v: {quote(value)}\n"
        assert yaml.safe_load(doc)["v"] == value, value
        assert _load_12(doc)["v"] == value, value  # type: ignore[index]


@settings(deadline=None)
@given(
    title=st.text(min_size=1),
    authors=st.lists(st.text(), min_size=0, max_size=3),
    lang=st.text(),
)
def test_any_string_round_trips(title: str, authors: list[str], lang: str) -> None:
    page = PageRecord(url="https://x.org/a/", markdown_url="https://x.org/a.md", title=title,
                      modified="2026-01-01T00:00:00Z", authors=tuple(authors), lang=lang or None)
    text = render_front_matter(page)
    assert text.startswith("---\n")
    assert text.endswith("\n---\n")
    inner = text[4:-4]
    for data in (yaml.safe_load(inner), _load_12(inner)):
        assert data["title"] == title  # type: ignore[index]
        if len(authors) == 1:
            assert data["author"] == authors[0]  # type: ignore[index]
        elif authors:
            assert data["author"] == authors  # type: ignore[index]
        if lang:
            assert data["lang"] == lang  # type: ignore[index]


def test_every_character_is_quoted_as_its_own_escape() -> None:
    # quote() only looks at the characters its pattern finds: none may be missed.
    for start in range(0, 0x110000, 0x10000):
        text = "".join(chr(code) for code in range(start, start + 0x10000))
        assert quote(text) == '"' + "".join(_escape(ch) for ch in text) + '"'
