"""A page-at-a-time build's plan (Sphinx's): which documents get a view, and what each
page needs to know of the whole site before the first one is written.

The tool knows every document, its URL, its metadata and the reading order once it
has read the sources and before it writes any page: :func:`plan_views` makes the site
map, each document's view URL, prev/next in reading order and the sections that get
an ``llms.txt`` of their own from that, on values alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentprose_core.records.metadata import opted_out, read_metadata
from agentprose_core.records.page import neighbours
from agentprose_core.records.scopes import PlacedPage, site_scopes
from agentprose_core.records.site import (
    exclusion,
    is_source_excluded,
    left_out_note,
    site_views,
)
from agentprose_core.urls import page_key

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Mapping, Sequence

    from agentprose_core.diagnostics import Diagnostic
    from agentprose_core.settings import Settings

__all__ = ["PlannedViews", "left_out_reason", "plan_views"]


@dataclass(frozen=True)
class PlannedViews:
    """``site_map`` (page key -> view URL, the pages left out as no view), ``views``
    (document -> view URL), ``neighbours`` (document -> prev/next page URLs, for the
    documents in the reading order's nav), ``scopes`` (the sections with an
    ``llms.txt`` of their own) and what to tell the user."""

    site_map: dict[str, str]
    views: dict[str, str]
    neighbours: dict[str, tuple[str | None, str | None]]
    scopes: tuple[tuple[str, str], ...]
    diagnostics: list[Diagnostic]


def left_out_reason(metadata: Mapping[str, object] | None, source: Callable[[], str], *,
                    patterns: Sequence[str], location: str) -> str | None:
    """Why a document gets no view (its metadata opts out, an ``exclude`` glob matches
    its ``source`` path), or None. Asked of every document of every build: the
    metadata is read in full, and the source path made, only for those left out."""
    if opted_out(metadata):
        return exclusion(read_metadata(metadata, location=location), "", ()) or "a redirect"
    if patterns and is_source_excluded(source(), patterns):
        return "exclude"
    return None


def plan_views(urls: Mapping[str, str], reasons: Mapping[str, str], *,
               sources: Mapping[str, str], nav: Sequence[str], in_nav: Collection[str],
               sections: Mapping[str, tuple[str, ...]], base_url: str,
               settings: Settings) -> PlannedViews:
    """The plan for ``urls`` (every document -> its page URL, in reading order), of
    which ``reasons`` are left out (document -> why; ``sources`` names their source
    files); ``nav`` is the reading order, ``in_nav`` the documents the nav lists and
    ``sections`` their section titles. Raises :class:`~agentprose_core.errors.InputError`
    when two pages would share a view whatever its layout."""
    kept = {doc: url for doc, url in urls.items() if doc not in reasons}
    left_out = [url for doc, url in urls.items() if doc in reasons]
    site_map, notes = site_views(list(kept.values()), left_out, base_url,
                                 settings.view_layout)
    notes += left_out_note({sources[doc]: why for doc, why in reasons.items()})
    listed = [doc for doc in nav if doc in kept and doc in in_nav]
    around = neighbours([kept[doc] for doc in listed])
    placed = [PlacedPage(url, sections.get(doc, ()), doc in in_nav) for doc, url in kept.items()]
    return PlannedViews(
        site_map=site_map,
        views={doc: site_map[page_key(url)] for doc, url in kept.items()},
        neighbours={doc: around[kept[doc]] for doc in listed},
        scopes=site_scopes(placed, base_url, settings),
        diagnostics=notes,
    )
