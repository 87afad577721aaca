"""A page's record from what a build tool knows about it, the same way for every tool."""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING

from agentprose_core.model import Heading, PageRecord
from agentprose_core.records.summaries import summarize
from agentprose_core.urls import resolve

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Mapping

    from agentprose_core.convert.fragment import Conversion
    from agentprose_core.records.metadata import PageFacts

__all__ = ["make_record", "out_of_date", "page_title", "record_from_json", "record_to_json"]


def page_title(facts: PageFacts, conversion: Conversion, tool_title: str | None) -> str:
    """The page's own title: its metadata title, else its first ``<h1>``, else the tool's.

    A nav label ("Home") is the tool's title, so it comes last.
    """
    first_h1 = next((h.title for h in conversion.headings if h.level == 1), None)
    return facts.title or first_h1 or (tool_title or "").strip() or "Untitled"


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
) -> PageRecord:
    """The record of one page. ``modified`` is asked only when the metadata has no time."""
    return PageRecord(
        url=url,
        markdown_url=markdown_url,
        title=page_title(facts, conversion, tool_title),
        modified=facts.modified or modified(),
        markdown=conversion.markdown,
        published=facts.published,
        authors=facts.authors,
        summary=facts.description or summarize(conversion.markdown) or None,
        tags=facts.tags,
        image=resolve(facts.image, url) if facts.image else None,
        lang=lang,
        section=section,
        headings=conversion.headings,
        prev=prev,
        next=next,
        in_nav=in_nav,
    )


def record_to_json(record: PageRecord) -> str:
    """A record as JSON, for tools that keep records on disk between processes or builds."""
    return json.dumps(dataclasses.asdict(record), ensure_ascii=False, sort_keys=True)


def record_from_json(text: str) -> PageRecord:
    """The record :func:`record_to_json` wrote."""
    data = json.loads(text)
    data["headings"] = tuple(Heading(**heading) for heading in data["headings"])
    for key in ("authors", "tags", "section"):
        data[key] = tuple(data[key])
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
