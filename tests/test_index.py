"""agentprose.json: schema, determinism, reading order, origin rules, streaming."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, FormatChecker

from agentprose_core.errors import InputError
from agentprose_core.model import Heading, PageRecord, SiteRecord
from agentprose_core.render.index import (
    SCHEMA_ID,
    check_pages,
    ensure_checked,
    iter_index_chunks,
    load_schema,
    render_index,
    schema_path,
)

GENERATOR = "agentprose 0.1.0 (cli)"
SITE = SiteRecord(name="Coast", url="https://coast.example/docs", description="Tide pools.")
POST_KEYS = [
    "url", "markdown_url", "title", "summary", "authors", "published", "modified", "tags",
    "image", "lang", "section", "headings", "prev", "next", "markdown",
]  # fmt: skip


def _checker() -> FormatChecker:
    """jsonschema's checker, with date-time and uri checks when their extras are missing.

    Without rfc3339-validator and rfc3987 jsonschema skips those formats silently, which
    would make "valid" mean less than it says.
    """
    checker = FormatChecker()
    if "date-time" not in checker.checkers:
        checker.checks("date-time")(_is_date_time)
    if "uri" not in checker.checkers:
        checker.checks("uri")(_is_uri)
    return checker


def _is_date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True
    try:
        return dt.datetime.fromisoformat(value.replace("Z", "+00:00")).tzinfo is not None
    except ValueError:
        return False


def _is_uri(value: object) -> bool:
    if not isinstance(value, str):
        return True
    try:
        parts = urlsplit(value)
    except ValueError:
        return False
    return bool(parts.scheme and parts.netloc) and not any(ch.isspace() for ch in value)


VALIDATOR = Draft202012Validator(load_schema(), format_checker=_checker())


def validated(text: str) -> dict[str, Any]:
    """The parsed index, after checking it against the shipped schema."""
    document: dict[str, Any] = json.loads(text)
    VALIDATOR.validate(document)
    return document


def page(path: str, **fields: Any) -> PageRecord:
    stem = path.strip("/") or "index"
    values: dict[str, Any] = {
        "url": f"https://coast.example/docs/{path}",
        "markdown_url": f"https://coast.example/docs/{stem}.md",
        "title": stem.title(),
        "modified": "2026-03-14T10:30:00Z",
        "markdown": f"# {stem.title()}\n\nAbout {stem}.\n",
    }
    values.update(fields)
    return PageRecord(**values)


FULL = page(
    "tide-pools/",
    title="How tide pools survive low tide",
    summary="Pools hold water when the sea leaves.",
    authors=("Ana Ruiz", "Bo Li"),
    published="2025-06-02T08:00:00Z",
    tags=("ecology", "coast"),
    image="https://coast.example/img/pool.png",
    lang="en",
    section=("Guide", "Pools"),
    headings=(Heading(2, "water", "Water"), Heading(3, "", "Shade")),
    prev="https://coast.example/docs/rock-pools/",
    next="https://coast.example/docs/species/",
)


# -- the schema ----------------------------------------------------------------------


def test_schema_is_valid_draft_2020_12_with_its_published_id() -> None:
    schema = load_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == SCHEMA_ID
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_schema_path_is_the_file_load_schema_reads() -> None:
    assert schema_path().is_file()
    assert json.loads(schema_path().read_text(encoding="utf-8")) == load_schema()


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"extra": 1}, None),  # a misspelt top-level key
        ({"version": 2}, None),
        ({"titel": "x"}, 0),  # a misspelt post key
        ({"summary": None}, 0),  # absent values are left out, not null
        ({"tags": []}, 0),  # nor empty
        ({"modified": "2026-03-14T10:30:00+02:00"}, 0),
        ({"modified": "2026-03-14"}, 0),
        ({"modified": "2026-13-45T10:30:00Z"}, 0),  # right shape, not a time: format check
        ({"image": "https://[oops/a.png"}, 0),  # right shape, not a URI: format check
        ({"url": "/relative/"}, 0),
        ({"headings": [{"level": 7, "title": "Too deep"}]}, 0),
    ],
)
def test_schema_rejects_what_the_contract_forbids(
    change: dict[str, Any], where: int | None
) -> None:
    document = validated(render_index(SITE, [FULL], generator=GENERATOR))
    (document if where is None else document["posts"][where]).update(change)
    assert not VALIDATOR.is_valid(document)


# -- content -------------------------------------------------------------------------


def test_a_full_record_renders_every_field_in_the_documented_order() -> None:
    document = validated(render_index(SITE, [FULL], generator=GENERATOR))
    assert list(document) == ["version", "generator", "site", "posts"]
    assert document["site"] == {
        "name": "Coast",
        "description": "Tide pools.",
        "url": "https://coast.example/docs/",
    }
    post = document["posts"][0]
    assert list(post) == POST_KEYS
    assert post["authors"] == ["Ana Ruiz", "Bo Li"]
    assert post["section"] == ["Guide", "Pools"]
    assert post["markdown"] == "# Tide-Pools\n\nAbout tide-pools."


def test_absent_values_are_left_out_never_null_or_empty() -> None:
    site = SiteRecord("S", "https://coast.example/docs/")
    document = validated(render_index(site, [page("a/", markdown="")], generator=GENERATOR))
    assert document["site"] == {"name": "S", "url": "https://coast.example/docs/"}
    assert list(document["posts"][0]) == ["url", "markdown_url", "title", "modified"]


def test_headings_keep_level_and_title_and_leave_out_an_empty_id() -> None:
    headings = (
        Heading(2, "a", "A"),
        Heading(3, "", "B"),
        Heading(0, "c", "C"),  # not a heading level: left out
        Heading(2, "d", " "),  # nothing to show: left out
    )
    document = validated(render_index(SITE, [page("a/", headings=headings)], generator=GENERATOR))
    assert document["posts"][0]["headings"] == [
        {"level": 2, "id": "a", "title": "A"},
        {"level": 3, "title": "B"},
    ]


def test_posts_keep_the_reading_order_they_are_given_in() -> None:
    pages = [page("zebra/"), page("apple/"), page("mango/"), page("")]
    document = validated(render_index(SITE, pages, generator=GENERATOR))
    assert [post["url"] for post in document["posts"]] == [p.url for p in pages]


def test_same_input_same_bytes() -> None:
    pages = [FULL, page("b/", title="Ünïcödé")]
    first = render_index(SITE, pages, generator=GENERATOR)
    again = render_index(SITE, [PageRecord(**vars(p)) for p in pages], generator=GENERATOR)
    assert first.encode("utf-8") == again.encode("utf-8")


def test_text_is_the_canonical_dump_of_the_document() -> None:
    text = render_index(SITE, [FULL, page("b/")], generator=GENERATOR)
    assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=2) + "\n"


def test_include_markdown_false_drops_bodies_and_keeps_markdown_urls() -> None:
    pages = [FULL, page("b/")]
    document = validated(render_index(SITE, pages, generator=GENERATOR, include_markdown=False))
    assert all("markdown" not in post for post in document["posts"])
    assert [post["markdown_url"] for post in document["posts"]] == [p.markdown_url for p in pages]


def test_unicode_survives_unescaped() -> None:
    body = "# Café\n\nŁódź 日本語 🐚, a line\u2028separator and \u00a0 a no-break space."
    record = page("café/", title="Café — 日本語 🐚", summary="Ça va ? «oui»", markdown=body)
    text = render_index(SITE, [record], generator=GENERATOR)
    assert "Café — 日本語 🐚" in text
    assert "\\u" not in text
    post = validated(text)["posts"][0]
    assert post["title"] == record.title
    assert post["summary"] == record.summary
    assert post["markdown"] == body


# -- the site's origin ---------------------------------------------------------------


def test_off_site_pages_are_left_out_with_a_diagnostic() -> None:
    pages = [
        page("a/"),
        page("x/", url="https://elsewhere.example/docs/x/"),
        page("y/", url="https://coast.example/blog/y/"),  # same origin, outside the base path
        page("z/", markdown_url="http://coast.example/docs/z.md"),  # another scheme
        page("b/"),
    ]
    kept, diagnostics = check_pages(SITE, pages)
    assert [p.url for p in kept] == [pages[0].url, pages[4].url]
    assert [d.code for d in diagnostics] == ["off-site-page"] * 3
    assert [d.location for d in diagnostics] == [p.url for p in pages[1:4]]
    document = validated(render_index(SITE, kept, generator=GENERATOR))
    assert [post["url"] for post in document["posts"]] == [p.url for p in kept]


def test_off_origin_optional_urls_are_cleared_and_the_page_kept() -> None:
    record = page(
        "a/",
        image="https://cdn.example/a.png",
        prev="https://elsewhere.example/p/",
        next="https://coast.example/docs/b/",
    )
    kept, diagnostics = check_pages(SITE, [record])
    assert (kept[0].image, kept[0].prev, kept[0].next) == (None, None, record.next)
    assert [d.code for d in diagnostics] == ["off-site-url", "off-site-url"]
    validated(render_index(SITE, kept, generator=GENERATOR))


def test_an_image_elsewhere_on_the_origin_is_kept() -> None:
    record = page("a/", image="https://coast.example/static/a.png")
    assert check_pages(SITE, [record]) == ([record], [])


def test_duplicates_untitled_pages_and_bad_times_are_reported() -> None:
    pages = [
        page("a/"),
        page("a/index.html", markdown_url="https://coast.example/docs/a2.md"),
        page("b/", title="  "),
        page("c/", modified="yesterday"),
        page("d/", published="2025-06-02"),
    ]
    kept, diagnostics = check_pages(SITE, pages)
    assert [p.url for p in kept] == [pages[0].url, pages[4].url]
    assert kept[1].published is None
    codes = [d.code for d in diagnostics]
    assert codes == ["duplicate-page", "untitled-page", "bad-date", "bad-date"]
    assert all(str(d).startswith(d.location or "") for d in diagnostics)


def test_unchecked_pages_are_refused() -> None:
    stray = page("x/", url="https://elsewhere.example/x/")
    with pytest.raises(InputError, match="check_pages"):
        render_index(SITE, [page("a/"), stray], generator=GENERATOR)
    with pytest.raises(InputError, match="check_pages"):
        iter_index_chunks(SITE, [stray], generator=GENERATOR)  # before any chunk
    ensure_checked(SITE, [page("a/")])


def test_checked_pages_are_trusted_only_as_they_were_kept() -> None:
    # check_pages's list skips the renderers' second check, until it is changed.
    kept, _ = check_pages(SITE, [page("a/"), page("b/")])
    ensure_checked(SITE, kept)
    assert kept == [page("a/"), page("b/")]
    stray = page("x/", url="https://elsewhere.example/x/")
    for change in (lambda pages: pages.append(stray),
                   lambda pages: pages.__setitem__(0, stray)):
        changed, _ = check_pages(SITE, [page("a/"), page("b/")])
        change(changed)
        with pytest.raises(InputError, match="check_pages"):
            render_index(SITE, changed, generator=GENERATOR)
    elsewhere = SiteRecord(name="Other", url="https://other.example/", description="")
    with pytest.raises(InputError, match="check_pages"):
        ensure_checked(elsewhere, kept)


def test_a_bad_site_url_is_an_input_error() -> None:
    with pytest.raises(InputError, match="absolute"):
        check_pages(SiteRecord("S", "/docs/"), [])


# -- streaming -----------------------------------------------------------------------


def test_chunks_join_to_the_rendered_text() -> None:
    pages = [FULL, page("b/"), page("c/", markdown="")]
    chunks = list(iter_index_chunks(SITE, pages, generator=GENERATOR))
    assert len(chunks) == len(pages) + 2
    assert "".join(chunks) == render_index(SITE, pages, generator=GENERATOR)


def test_an_empty_site_is_a_valid_index() -> None:
    text = render_index(SITE, [], generator=GENERATOR)
    assert validated(text)["posts"] == []
    assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=2) + "\n"


def test_a_large_site_streams_one_post_per_chunk() -> None:
    pages = [page(f"p{n}/", markdown="x" * 2_000) for n in range(5_000)]
    chunks = iter_index_chunks(SITE, pages, generator=GENERATOR)
    sizes = [len(chunk) for chunk in chunks]
    assert len(sizes) == 5_002
    assert max(sizes) < 3_000
    posts = validated(render_index(SITE, pages, generator=GENERATOR))["posts"]
    assert [post["url"] for post in posts] == [p.url for p in pages]


# -- any text ------------------------------------------------------------------------

_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)


@settings(deadline=None)
@given(
    title=_TEXT.filter(str.strip),
    summary=st.none() | _TEXT,
    markdown=_TEXT,
    tags=st.lists(_TEXT, max_size=3),
    heading=_TEXT,
)
def test_any_text_makes_a_valid_index_that_reads_back(
    title: str, summary: str | None, markdown: str, tags: list[str], heading: str
) -> None:
    record = page(
        "a/",
        title=title,
        summary=summary,
        markdown=markdown,
        tags=tuple(tags),
        headings=(Heading(2, "h", heading),),
    )
    chunks = list(iter_index_chunks(SITE, [record], generator=GENERATOR))
    post = validated("".join(chunks))["posts"][0]
    assert post["title"] == title
    assert post.get("summary") == (summary or None)
    assert post.get("markdown", "") == markdown.strip("\n")
    assert post.get("tags", []) == [tag for tag in tags if tag.strip()]
