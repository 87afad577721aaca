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

from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.convert.tree import to_html
from agentprose_core.extract.page import parse_page

if TYPE_CHECKING:
    from agentprose_core.diagnostics import Diagnostic
    from agentprose_core.model import PageRecord
    from agentprose_core.settings import Settings

__all__ = ["listing_record"]


def listing_record(
    record: PageRecord,
    page_html: str,
    *,
    site_map: Mapping[str, str],
    settings: Settings,
    listed: Sequence[PageRecord],
) -> tuple[PageRecord, tuple[Diagnostic, ...]]:
    """``record`` of a page that lists ``listed``, its view made from the themed page
    ``page_html`` as written, and its ``modified`` the newest of the listed pages it
    links to (a paginated page shows some of them)."""
    content = parse_page(page_html, url=record.url).content
    if content is None:
        return record, ()
    conversion = convert_fragment(to_html(content), page_url=record.url, site_map=site_map,
                                  settings=settings)
    shown = [page.modified for page in listed if f"({page.markdown_url}" in conversion.markdown]
    return dataclasses.replace(
        record,
        markdown=conversion.markdown,
        headings=conversion.headings,
        modified=max(shown, default=record.modified),
    ), conversion.diagnostics  # its summary stays its own: the first post's is not it
