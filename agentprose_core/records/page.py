"""A page's record from what a build tool knows about it, the same way for every tool."""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING

from agentprose_core.model import Heading, PageRecord
from agentprose_core.records.summaries import summarize
from agentprose_core.urls import resolve

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Mapping, Sequence

    from agentprose_core.convert.fragment import Conversion
    from agentprose_core.records.metadata import PageFacts

__all__ = [
    "make_record",
    "neighbours",
    "out_of_date",
    "page_title",
    "record_from_json",
    "record_to_json",
]


def page_title(facts: PageFacts, conversion: Conversion, tool_title: str | None,
               untitled: str = "Untitled") -> str:
    """The page's own title: its metadata title, else its first ``<h1>``, else the tool's,
    else its first heading of any level, else ``untitled``.

    A nav label ("Home") is the tool's title, so it comes after the ``<h1>``.
    """
    first_h1 = next((h.title for h in conversion.headings if h.level == 1), None)
    first = conversion.headings[0].title if conversion.headings else None
    return facts.title or first_h1 or (tool_title or "").strip() or first or untitled


def neighbours(urls: Sequence[str]) -> dict[str, tuple[str | None, str | None]]:
    """Each page's previous and next page, by URL, for the pages read in this order
    (those of the nav: the others have neither)."""
    return {url: (urls[i - 1] if i else None, urls[i + 1] if i + 1 < len(urls) else None)
            for i, url in enumerate(urls)}


def make_record(
    *,
    url: str,
    markdown_url: str,
    conversion: Conversion,
    facts: PageFacts,
    tool_title: str | None,
    modified: Callable[[], str],
    section: tuple[str, ...] = (),
    prev: str | None = None,
    next: str | None = None,
    lang: str | None = None,
    in_nav: bool = True,
    untitled: str = "Untitled",
    summary: str | None = None,
    canonical: str | None = None,
    version: str | None = None,
    translations: tuple[tuple[str, str], ...] = (),
) -> PageRecord:
    """The record of one page, the same way for every tool. ``modified`` is asked only
    when the metadata has no time; ``summary`` is the first sentence of the page's
    Markdown when a worker made it already."""
    if summary is None and not facts.description:
        summary = summarize(conversion.markdown)
    return PageRecord(
        url=url,
        markdown_url=markdown_url,
        title=page_title(facts, conversion, tool_title, untitled),
        modified=facts.modified or modified(),
        markdown=conversion.markdown,
        published=facts.published,
        authors=facts.authors,
        summary=facts.description or summary or None,
        tags=facts.tags,
        image=resolve(facts.image, url) if facts.image else None,
        lang=lang,
        section=section,
        headings=conversion.headings,
        unanchored=conversion.unanchored,
        prev=prev,
        next=next,
        in_nav=in_nav,
        canonical=canonical,
        version=version,
        translations=translations,
    )


def record_to_json(record: PageRecord) -> str:
    """A record as JSON, for tools that keep records on disk between processes or builds."""
    return json.dumps(dataclasses.asdict(record), ensure_ascii=False, sort_keys=True)


def record_from_json(text: str) -> PageRecord:
    """The record :func:`record_to_json` wrote."""
    data = json.loads(text)
    data["headings"] = tuple(Heading(**heading) for heading in data["headings"])
    for key in ("authors", "tags", "section", "unanchored"):
        if key in data:
            data[key] = tuple(data[key])
    if "translations" in data:
        data["translations"] = tuple((lang, url) for lang, url in data["translations"])
    return PageRecord(**data)


def out_of_date(
    records: Mapping[str, PageRecord],
    *,
    gone: Collection[str],
    modified_now: Callable[[str], str] | None,
) -> list[str]:
    """The pages (by name) whose stored record no longer holds though the page did not
    change: its view links the view of a page that is gone (``gone``: view URLs), or,
    when ``modified_now`` is given (the repository moved to another commit), its date
    is no longer what git says."""
    return [name for name, record in records.items()
            if any(f"({url}" in record.markdown for url in gone)
            or (modified_now is not None and modified_now(name) != record.modified)]
