"""Generated pages that list others: a blog's index, archives, categories, pagination.

Their source holds little or nothing: the theme writes the list (each post's title,
date and excerpt) into the page when it renders it. Their view is what the theme
shows, converted from the written page, and their date is the newest of the posts
they show, never the build's clock (the same input gives the same bytes).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from agentprose_core.parallel.speculative import listing_conversion

if TYPE_CHECKING:
    from agentprose_core.diagnostics import Diagnostic
    from agentprose_core.model import Conversion, PageRecord
    from agentprose_core.settings import Settings

__all__ = ["listing_record", "with_listing"]


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
