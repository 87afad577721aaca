"""Generated pages that list others: a blog's index, archives, categories, pagination.

Their source holds little or nothing: the theme writes the list (each post's title,
date and excerpt) into the page when it renders it. Their view is what the theme
shows, converted from the written page, and their date is the newest of the posts
they show, never the build's clock (the same input gives the same bytes).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentprose_core.parallel.pool import Failed
from agentprose_core.parallel.wire import WiredTexts
from agentprose_core.render.decorate import INJECTED_MARK, redecorate_page

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence
    from pathlib import Path

    from agentprose_core.diagnostics import Diagnostic
    from agentprose_core.model import Conversion, PageRecord, SiteRecord
    from agentprose_core.parallel.pool import WorkerPool, WorkerState
    from agentprose_core.settings import Settings

__all__ = [
    "FAILED", "ListingTask", "SentListing", "SentListings", "convert_listing",
    "listing_conversion", "listing_record", "redecorated_listing", "with_listing",
]


def with_listing(record: PageRecord, conversion: Conversion,
                 listed: Sequence[PageRecord]) -> PageRecord:
    """``record`` with the listing's view, and its ``modified`` the newest of the listed
    pages it links to (a paginated page shows some of them)."""
    shown = [page.modified for page in listed if f"({page.markdown_url}" in conversion.markdown]
    return dataclasses.replace(
        record,
        markdown=conversion.markdown,
        headings=conversion.headings,
        modified=max(shown, default=record.modified),
    )  # its summary stays its own: the first post's is not it


def listing_record(
    record: PageRecord,
    page_html: str,
    *,
    site_map: Mapping[str, str],
    settings: Settings,
    listed: Sequence[PageRecord],
) -> tuple[PageRecord, tuple[Diagnostic, ...]]:
    """``record`` of a page that lists ``listed``, its view made from the themed page
    ``page_html`` as written (:func:`listing_conversion`, :func:`with_listing`)."""
    conversion = listing_conversion(page_html, page_url=record.url, site_map=site_map,
                                    settings=settings)
    if conversion is None:
        return record, ()
    return with_listing(record, conversion, listed), conversion.diagnostics


@dataclass(frozen=True)
class ListingTask(WiredTexts):
    """A page that lists others, to convert from its themed HTML as written."""

    wired = ("page_html",)

    page_html: str
    page_url: str
    site_map: Mapping[str, str]
    settings: Settings


def listing_conversion(page_html: str, *, page_url: str, site_map: Mapping[str, str],
                       settings: Settings) -> Conversion | None:
    """The view of a page that lists others (a blog's index), from the themed page as
    written; None when the page shows no content."""
    # Imported here: lxml and the engine load where the conversion runs (a worker), not
    # where records are put together.
    from agentprose_core.convert.fragment import convert_element
    from agentprose_core.convert.tree import detached
    from agentprose_core.extract.page import parse_page, without_large_navs

    # The site's navigation (most of a Material page) is left unparsed, and the content
    # converted as the tree it is, as `agentprose build` reads a page.
    content = parse_page(without_large_navs(page_html), url=page_url).content
    if content is None:
        return None
    return convert_element(detached(content), page_url=page_url, site_map=site_map,
                           settings=settings)


def convert_listing(_state: WorkerState, task: ListingTask) -> Conversion | None:
    """:func:`listing_conversion` in a worker."""
    return listing_conversion(task.page_html, page_url=task.page_url,
                              site_map=task.site_map, settings=task.settings)


@dataclass(frozen=True)
class SentListing:
    """A listing page sent to a worker: its URL, the URLs it lists, where it was
    written and its kind of page (JSON-LD's)."""

    url: str
    lists: tuple[str, ...]
    path: Path
    kind: str | None


FAILED = object()
"""What :meth:`SentListings.answers` gives for a page the worker failed: convert it here."""


class SentListings:
    """The listing pages a build sent to the workers, by ticket."""

    def __init__(self) -> None:
        self._sent: dict[int, SentListing] = {}

    def send(self, pool: WorkerPool, task: ListingTask, listing: SentListing) -> None:
        """Convert ``listing`` (made into ``task``) in one of ``pool``'s workers."""
        self._sent[pool.submit(convert_listing, task)] = listing

    def answers(self, pool: WorkerPool) -> Iterator[tuple[SentListing, object]]:
        """Each page sent, and its conversion: None when the page shows no content,
        :data:`FAILED` when the worker failed it (or ended before)."""
        sent, self._sent = self._sent, {}
        if not sent:
            return
        answers = pool.gather()
        for ticket, listing in sent.items():
            answer = answers.get(ticket, FAILED)
            yield listing, FAILED if isinstance(answer, Failed) else answer


def redecorated_listing(written: bytes, *, record: PageRecord, site: SiteRecord,
                        settings: Settings, kind: str | None) -> bytes | None:
    """A listing page as written, with its tags made for its ``record`` (its date is
    known only once its view is made), when they can be found: another plugin may have
    taken the markers out, and the page is then left alone."""
    if written.count(INJECTED_MARK) != 1:
        return None
    return redecorate_page(written, record, site, settings, kind=kind)
