"""llms.txt read back by the reference parser, llms-full.txt, and page summaries."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from llms_txt import parse_llms_file

from agentprose_core.errors import InputError
from agentprose_core.model import PageRecord, SiteRecord
from agentprose_core.records.summaries import summarize
from agentprose_core.render.index import check_pages
from agentprose_core.render.llmstxt import (
    OPTIONAL_SECTION,
    ROOT_SECTION,
    iter_llms_full_txt,
    render_llms_full_txt,
    render_llms_txt,
)

BASE = "https://coast.example/"
SITE = SiteRecord(name="Coast", url=BASE, description="Field notes on tide pools.")


def page(path: str, *, base: str = BASE, **fields: Any) -> PageRecord:
    stem = path.strip("/") or "index"
    values: dict[str, Any] = {
        "url": base + path,
        "markdown_url": f"{base}{stem}.md",
        "title": stem.title(),
        "modified": "2026-03-14T10:30:00Z",
    }
    values.update(fields)
    return PageRecord(**values)


def parse(text: str) -> dict[str, Any]:
    """The reference parser's reading of ``text``, as plain dicts and lists."""
    parsed = parse_llms_file(text)
    return {
        "title": parsed.title,
        "summary": parsed.summary,
        "info": parsed.info,
        "sections": {name: [dict(e) for e in links] for name, links in parsed.sections.items()},
    }


def link(record: PageRecord, title: str | None = None) -> dict[str, str | None]:
    return {
        "title": record.title if title is None else title,
        "url": record.markdown_url,
        "desc": record.summary,
    }


def one_line(text: str) -> str:
    return " ".join(text.split())


# -- llms.txt ------------------------------------------------------------------------


def test_the_reference_parser_reads_everything_back() -> None:
    home = page("", title="Coast", summary="Start here.")
    install = page(
        "guide/install/", summary="Install the kit: boots, net.", section=("Guide", "Setup")
    )
    faq = page("faq/", in_nav=False)
    text = render_llms_txt(SITE, [home, install, faq])
    assert parse(text) == {
        "title": "Coast",
        "summary": "Field notes on tide pools.",
        "info": (
            "Each link below leads to a page of Coast as Markdown. The pages follow the "
            "site's reading order, grouped by its sections."
        ),
        "sections": {
            ROOT_SECTION: [link(home)],
            "Guide": [link(install)],
            OPTIONAL_SECTION: [link(faq)],
        },
    }
    assert text.endswith(")\n")
    assert "\n\n\n" not in text


def test_sections_follow_the_nav() -> None:
    pages = [
        page("guide/a/", section=("Guide",)),
        page("", title="Home"),
        page("ref/b/", section=("Reference", "API")),
        page("guide/c/", section=("Guide", "Deep", "Deeper")),
        page("old/", in_nav=False, section=("Guide",)),
        page("about/"),
    ]
    sections = parse(render_llms_txt(SITE, pages))["sections"]
    assert list(sections) == [ROOT_SECTION, "Guide", "Reference", OPTIONAL_SECTION]
    titles = {name: [entry["title"] for entry in links] for name, links in sections.items()}
    assert titles == {
        ROOT_SECTION: ["Home", "About"],
        "Guide": ["Guide/A", "Guide/C"],
        "Reference": ["Ref/B"],
        OPTIONAL_SECTION: ["Old"],
    }


def test_no_root_pages_means_no_root_section_and_no_empty_sections() -> None:
    pages = [page("a/", section=("Guide",)), page("b/", section=(" ",))]
    assert list(parse(render_llms_txt(SITE, pages))["sections"]) == [ROOT_SECTION, "Guide"]
    assert list(parse(render_llms_txt(SITE, pages[:1]))["sections"]) == ["Guide"]


def test_a_nav_section_named_optional_joins_the_pages_outside_the_nav_at_the_end() -> None:
    pages = [page("a/", section=(OPTIONAL_SECTION,)), page("b/", section=("Guide",))]
    pages.append(page("c/", in_nav=False))
    sections = parse(render_llms_txt(SITE, pages))["sections"]
    assert list(sections) == ["Guide", OPTIONAL_SECTION]
    assert [entry["title"] for entry in sections[OPTIONAL_SECTION]] == ["A", "C"]


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("list[int] and dict[str, int]", "list(int) and dict(str, int)"),
        ("[Beta] Caching", "(Beta) Caching"),
        ("]", ")"),
        ("Ratio 1:2: a how-to", "Ratio 1:2: a how-to"),
        ("Café — 日本語 🐚", "Café — 日本語 🐚"),
        ("Two\nlines\t and  spaces", "Two lines and spaces"),
        ("The `foo()` function", "The `foo()` function"),
        ("*emphasis* and _under_", "*emphasis* and _under_"),
        ("A trailing backslash \\", "A trailing backslash \\\\"),
        ("One ` tick", "One \\` tick"),
        ("Less < than", "Less \\< than"),
        ("List<T>", "List\\<T>"),
        ("</script><script>alert(1)</script>", "\\</script>\\<script>alert(1)\\</script>"),
    ],
)
def test_titles_come_back_with_link_syntax_intact(title: str, expected: str) -> None:
    record = page("a/", title=title, summary="Uses `code` and <b>tags</b>: fine [really].")
    sections = parse(render_llms_txt(SITE, [record]))["sections"]
    escaped = {**link(record, expected), "desc": "Uses `code` and \\<b>tags\\</b>: fine [really]."}
    assert sections == {ROOT_SECTION: [escaped]}


@pytest.mark.parametrize(
    "summary",
    [
        "Has [brackets] and (parens) and a [link](https://x.example/).",
        "Colons: one: two: three",
        "Ünïcödé: 日本語, emoji 🐚, RTL שלום.",
        "## Not a heading",
        "- not a list",
    ],
)
def test_summaries_come_back_intact(summary: str) -> None:
    record = page("a/", summary=summary)
    assert parse(render_llms_txt(SITE, [record]))["sections"] == {ROOT_SECTION: [link(record)]}


def test_multiline_summaries_are_written_on_one_line() -> None:
    record = page("a/", summary="  First line\nsecond line\u2028third.  ")
    links = parse(render_llms_txt(SITE, [record]))["sections"][ROOT_SECTION]
    assert links[0]["desc"] == "First line second line third."


def test_a_page_without_summary_has_a_bare_link() -> None:
    text = render_llms_txt(SITE, [page("a/")])
    assert "- [A](https://coast.example/a.md)\n" in text


def test_sub_path_site_links_resolve_to_views_under_the_sub_path() -> None:
    base = "https://example.com/docs/"
    site = SiteRecord(name="Docs site", url="https://example.com/docs")
    home = page("", base=base, title="Welcome", markdown_url=base + "index.md")
    pages = [home, page("guide/", base=base, section=("Guide",), summary="How: step [1].")]
    parsed = parse(render_llms_txt(site, pages))
    urls = [entry["url"] for links in parsed["sections"].values() for entry in links]
    assert urls == ["https://example.com/docs/index.md", "https://example.com/docs/guide.md"]
    assert parsed["sections"]["Guide"] == [link(pages[1])]


def test_urls_with_spaces_and_parens_are_encoded_and_name_the_same_file() -> None:
    record = page("a (b)/", markdown_url=BASE + "a (b).md")
    (entry,) = parse(render_llms_txt(SITE, [record]))["sections"][ROOT_SECTION]
    assert entry["url"] == "https://coast.example/a%20%28b%29.md"
    assert unquote(entry["url"]) == record.markdown_url


def test_without_a_description_the_home_page_speaks_for_the_site() -> None:
    site = SiteRecord(name="Coast", url=BASE)
    home = page("", title="Home", markdown="# Home\n\nCoast maps *every* pool. It is free.\n")
    other = page("a/", summary="Not this one.")
    assert parse(render_llms_txt(site, [other, home]))["summary"] == "Coast maps every pool."
    described = page("", title="Home", summary="The home summary.")
    assert parse(render_llms_txt(site, [described]))["summary"] == "The home summary."


def test_without_any_description_the_summary_says_what_the_file_lists() -> None:
    site = SiteRecord(name="Coast", url=BASE, description="  ")
    parsed = parse(render_llms_txt(site, [page("a/", markdown="```\ncode\n```\n")]))
    assert parsed["summary"] == "Markdown versions of the pages of Coast."


def test_a_custom_intro_keeps_its_paragraphs_and_cannot_open_a_section() -> None:
    intro = "First paragraph.\n\n## Not a section\n# Nor a title\nLast line."
    parsed = parse(render_llms_txt(SITE, [page("a/")], intro=intro))
    assert parsed["info"] == "First paragraph.\n\n\\## Not a section\n\\# Nor a title\nLast line."
    assert list(parsed["sections"]) == [ROOT_SECTION]


def test_a_blank_intro_means_the_default_so_the_summary_survives() -> None:
    parsed = parse(render_llms_txt(SITE, [], intro="  \n "))
    assert parsed["summary"] == SITE.description
    assert parsed["info"].startswith("Each link below")
    assert parsed["sections"] == {}


def test_a_blank_site_name_falls_back_to_the_site_url() -> None:
    parsed = parse(render_llms_txt(SiteRecord(name=" ", url=BASE), []))
    assert parsed["title"] == BASE


def test_unchecked_pages_are_refused() -> None:
    stray = page("x/", url="https://elsewhere.example/x/")
    with pytest.raises(InputError, match="check_pages"):
        render_llms_txt(SITE, [stray])
    with pytest.raises(InputError, match="check_pages"):
        iter_llms_full_txt(SITE, [stray])


def test_every_link_resolves_to_a_checked_page_view() -> None:
    pages = [page("a/"), page("x/", url="https://elsewhere.example/x/"), page("b/", in_nav=False)]
    kept, _ = check_pages(SITE, pages)
    parsed = parse(render_llms_txt(SITE, kept))
    urls = {entry["url"] for links in parsed["sections"].values() for entry in links}
    assert urls == {p.markdown_url for p in kept}


_ANY = st.characters(exclude_categories=("Cs",))
_TRICKY = st.sampled_from("[]()<>`\\*_:#>!- \n\t\u2028日é")
_TEXT = st.text(_ANY | _TRICKY, max_size=30)


@settings(deadline=None)
@given(name=_TEXT, description=_TEXT, title=_TEXT, summary=_TEXT)
def test_any_site_and_page_text_parses_back(
    name: str, description: str, title: str, summary: str
) -> None:
    """Titles without backticks, ``<`` or backslashes come back exactly (brackets made
    parentheses); everything else comes back exactly, on one line, but for the
    backslashes that escape what would read as HTML."""
    title = title.replace("`", "").replace("<", "").replace("\\", "")
    assume(title.strip())
    site = SiteRecord(name=name, url=BASE, description=description)
    record = page("a/", title=title, summary=summary, section=("S",))
    parsed = parse(render_llms_txt(site, [record]))
    assert _unescaped(parsed["title"]) == (one_line(name) or BASE)
    fallback = f"Markdown versions of the pages of {one_line(name) or BASE}."
    assert _unescaped(parsed["summary"]) == _unescaped(one_line(description) or fallback)
    expected_title = one_line(title).replace("[", "(").replace("]", ")")
    (entry,) = parsed["sections"]["S"]
    assert _unescaped(entry["title"]) == expected_title
    assert entry["url"] == record.markdown_url
    assert _unescaped(entry["desc"] or "") == one_line(summary)


def _unescaped(text: str) -> str:
    """``text`` without the escapes of :func:`llmstxt._inline` (before ``<`` and ``&``
    that would read as HTML, and the backslashes before those)."""
    return re.sub(r"(\\*)\\(<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;))",
                  lambda m: m.group(1)[: len(m.group(1)) // 2] + m.group(2), text)


@settings(deadline=None)
@given(title=_TEXT, summary=_TEXT)
def test_any_title_stays_one_commonmark_link(title: str, summary: str) -> None:
    """Whatever the title and summary, a CommonMark reader sees one link to the view."""
    markdown_it = pytest.importorskip("markdown_it")
    assume(title.strip())
    record = page("a b/", title=title, summary=summary, markdown_url=BASE + "a (b).md")
    text = render_llms_txt(SITE, [record])
    parser = markdown_it.MarkdownIt("commonmark")
    items = [t for t in parser.parse(text) if t.type == "inline" and t.map and t.level == 3]
    (item,) = items
    children = item.children or []
    hrefs = [child.attrGet("href") for child in children if child.type == "link_open"]
    view = parser.normalizeLink(BASE + "a%20%28b%29.md")
    assert children[0].type == "link_open"
    assert hrefs[0] == view
    assert hrefs.count(view) == 1  # (a title may hold an autolink of its own)
    entry = parse(text)["sections"][ROOT_SECTION][0]
    assert unquote(entry["url"]) == record.markdown_url
    assert _unescaped(entry["desc"] or "") == one_line(summary)


# -- llms-full.txt -------------------------------------------------------------------


def test_llms_full_introduces_each_view_by_title_and_canonical_url() -> None:
    pages = [
        page("", title="Home", markdown="# Home\n\nWelcome.\n"),
        page("a/", title="Guide", markdown="\n\n## Start\n\nGo.\n\n"),
        page("b/", title="Empty", markdown=""),
    ]
    assert render_llms_full_txt(SITE, pages) == (
        "# Home\n\nSource: https://coast.example/\n\nWelcome.\n"
        "\n# Guide\n\nSource: https://coast.example/a/\n\n## Start\n\nGo.\n"
        "\n# Empty\n\nSource: https://coast.example/b/\n"
    )


@pytest.mark.parametrize(
    ("title", "first_line", "kept"),
    [
        ("Tide pools", "# Tide pools", False),
        ("Tide pools", "#   Tide   pools  ##", False),
        ("The foo module", "# The `foo` module", False),
        ("Café — 日本", "# Café — 日本", False),
        ("Tide pools", "# Welcome", True),
        ("Tide pools", "## Tide pools", True),
    ],
)
def test_the_body_h1_is_not_repeated_when_it_says_the_title(
    title: str, first_line: str, kept: bool
) -> None:
    body = f"{first_line}\n\nText."
    text = render_llms_full_txt(SITE, [page("a/", title=title, markdown=body)])
    head = f"# {title}\n\nSource: https://coast.example/a/\n\n"
    assert text == head + (f"{first_line}\n\n" if kept else "") + "Text.\n"


def test_llms_full_streams_one_piece_per_page_in_reading_order() -> None:
    pages = [page(f"p{n}/", markdown=f"Body {n}.") for n in (3, 1, 2)]
    pieces = list(iter_llms_full_txt(SITE, pages))
    assert len(pieces) == 3
    assert "".join(pieces) == render_llms_full_txt(SITE, pages)
    assert [piece.split("\n")[-2] for piece in pieces] == ["Body 3.", "Body 1.", "Body 2."]


# -- summaries -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("# Title\n\nFirst sentence. Second one.", "First sentence."),
        ('---\ntitle: "x"\n---\n\n# T\n\nAfter front matter.', "After front matter."),
        ("```python\nnot = 'this'\n```\n\nReal prose.", "Real prose."),
        ("~~~\ncode. More code\n~~~\n\nReal prose.", "Real prose."),
        ("    indented code\n\nReal prose.", "Real prose."),
        ("| a | b |\n| --- | --- |\n| 1 | 2 |\n\nReal prose.", "Real prose."),
        ("> **Note: Keep the lid on**\n> Inside.\n\nReal prose.", "Real prose."),
        ("![logo](https://x.example/l.png)\n\nReal prose.", "Real prose."),
        ("[![build](https://ci.example/b.svg)](https://ci.example/)\n\nReal prose.", "Real prose."),
        ("- a list\n- of items\n\nReal prose.", "Real prose."),
        ("1. first\n2. second\n\nReal prose.", "Real prose."),
        ('<div class="x">html</div>\n\nReal prose.', "Real prose."),
        ("$$\nx = 1. Y\n$$\n\nReal prose.", "Real prose."),
        ("---\n\nProse after a rule.", "Prose after a rule."),
        ("Contents:\n\n- a\n\nReal prose.", "Real prose."),
        ("See [the guide](https://x.example/g.md#a) now.", "See the guide now."),
        ("A *very* **bold** _claim_ and __more__ ~~old~~.", "A very bold claim and more old."),
        ("Use `snake_case` or `a*b*c` in my_var.", "Use snake_case or a*b*c in my_var."),
        ("Escaped \\*stars\\* stay.", "Escaped *stars* stay."),
        ("A footnote[^1] and ![an image](i.png) inline.", "A footnote and inline."),
        ("Use e.g. pools, i.e. wet ones. Next.", "Use e.g. pools, i.e. wet ones."),
        ("Ask Dr. Ruiz about J. Smith. Then go.", "Ask Dr. Ruiz about J. Smith."),
        ("Version 2.0 is out! It is good.", "Version 2.0 is out!"),
        ("Is it wet? Yes.", "Is it wet?"),
        ("Ends with an ellipsis… and goes on", "Ends with an ellipsis… and goes on"),
        ("潮だまりは生きている。次の文。", "潮だまりは生きている。"),
        ("Line one\ncontinues here. Next.", "Line one continues here."),
        ("Math $a_1 * b_2$ stays. Next.", "Math $a_1 * b_2$ stays."),
        ("Visit <https://coast.example/> today.", "Visit https://coast.example/ today."),
        ("Text<br>with a <em>tag</em>.", "Text with a tag."),
        ("", ""),
        ("# Only a heading\n\n```\ncode\n```", ""),
        # issue 39: a list item's continuation line, a bare URL
        (("- If you have Python, it prevents changing it and potentially\n  messing up your "
          "os.\n\nA tool for tides."), "A tool for tides."),
        ("1. a\n   b c d.\n\n   More of the item.\n\nProse here.", "Prose here."),
        ("```\n- x\n  y z.\n```\n\nProse here.", "Prose here."),
        ("https://docs.example.org/en/latest/\n\nProse here.", "Prose here."),
        ("See https://x.example for more.", "See https://x.example for more."),
    ],
)
def test_summarize(markdown: str, expected: str) -> None:
    assert summarize(markdown) == expected


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("setup.py\n\n```python\nsetup()\n```\n\nThe setup script.", "The setup script."),
        ("\\[\na = b\nc = d\n\\]\n\nThe identity holds.", "The identity holds."),
        ("\\(x = 1\\)\n\nPlain words here.", "Plain words here."),
        ("allow.\n\nThe policy says so.", "The policy says so."),
        (("**pip**\n\n```\npip i\n```\n\n**conda**\n\nConda users read this.\n\n"
         "## Next\n\nAfter the tabs."), "After the tabs."),
    ],
)
def test_a_summary_is_the_first_real_prose_sentence(markdown: str, expected: str) -> None:
    assert summarize(markdown) == expected


def test_summarize_cuts_long_sentences_at_a_word() -> None:
    text = "Tide pools " + "hold water " * 40 + "for hours."
    summary = summarize(text, max_chars=50)
    assert summary == "Tide pools hold water hold water hold water hold…"
    assert summarize("Short one.", max_chars=10) == "Short one."


def test_summarize_needs_room_for_something() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        summarize("Text.", max_chars=0)


@settings(deadline=None)
@given(markdown=st.text(_ANY | _TRICKY, max_size=200), max_chars=st.integers(1, 80))
def test_summaries_are_one_short_line(markdown: str, max_chars: int) -> None:
    summary = summarize(markdown, max_chars)
    assert len(summary) <= max_chars
    assert summary == one_line(summary)


def test_html_in_titles_and_descriptions_stays_text_where_llms_txt_is_rendered() -> None:
    # issue 40: a title "</script><script>alert(1)</script>" stayed live HTML
    markdown_it = pytest.importorskip("markdown_it")
    attack = "</script><script>alert(1)</script><img src=x onerror=alert(2)> &amp;"
    site = SiteRecord(name=f"Coast {attack}", url=BASE, description=f"Notes {attack}")
    record = page("a/", title=f"Tide {attack}", summary=f"Pools {attack}",
                  section=(f"Guide {attack}",))
    pages, _ = check_pages(site, [record])
    for text in (render_llms_txt(site, pages), render_llms_full_txt(site, pages)):
        html = markdown_it.MarkdownIt("commonmark").render(text)
        assert "<script" not in html, html
        assert "<img" not in html, html
        assert "</script" not in html, html
        assert "&amp;amp;" in html  # the entity shown as written
    parsed = parse(render_llms_txt(site, pages))
    assert _unescaped(parsed["title"]) == f"Coast {attack}"
    assert _unescaped(parsed["sections"][f"Guide {_inline_of(attack)}"][0]["desc"]) == \
        f"Pools {attack}"


def _inline_of(text: str) -> str:
    from agentprose_core.render.llmstxt import _inline

    return _inline(text)


@pytest.mark.parametrize(("markdown", "expected"), [
    ("Release v2.34.2.\n\nRequests is an elegant HTTP library.",
     "Requests is an elegant HTTP library."),
    ("Release v2.34.2.\n\n## Install\n\n- pip", "Release v2.34.2."),  # nothing says more
    ("Release UNRELEASED ([What’s new?](https://x.example/))\n\n*attrs* brings back the joy.",
     "attrs brings back the joy."),
    ("PyPI package name: pytest\n\nThe pytest framework makes tests easy.",
     "The pytest framework makes tests easy."),
    ("Version 3.0 is out with many new features for everybody who uses it daily.",
     "Version 3.0 is out with many new features for everybody who uses it daily."),
    ("Note: keep the lid on.\n\nOther.", "Note: keep the lid on."),
])
def test_a_release_banner_is_no_summary(markdown: str, expected: str) -> None:
    # issue 39 (attrs, requests, pytest): the home page's banner became the site description
    assert summarize(markdown) == expected
