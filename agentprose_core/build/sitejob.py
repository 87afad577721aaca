"""What a build tool's process hands over to have its site files written
(:func:`~agentprose_core.build.sitefiles.finish_site`, in the worker or, without one,
in the tool's process): light to import, so that the tool's process loads the site
files' renderers only when it writes them itself."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentprose_core.model import INDEX_NAME, LLMS_FULL_NAME, LLMS_NAME, SEARCH_NAME

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from pathlib import Path

    from agentprose_core.model import SiteRecord
    from agentprose_core.parallel.cache import ConversionCache
    from agentprose_core.records.store import RecordStore
    from agentprose_core.settings import Settings

__all__ = ["ListingPage", "SiteJob", "ours"]


@dataclass(frozen=True)
class ListingPage:
    """A page generated to list posts, as written at ``page``: ``listed`` are the
    documents of the posts it lists, ``title`` the one its template was given."""

    docname: str
    page: Path
    url: str
    markdown_url: str
    title: str | None
    listed: tuple[str, ...]
    lang: str | None


@dataclass(frozen=True)
class SiteJob:
    """What writing the site files needs: ``docs`` are the documents with a view, in
    reading order; ``sections`` their section titles, ``in_toctree`` those the toctree
    lists, ``neighbours`` their prev/next page URLs. ``prune_cache`` is set when the
    build wrote every one of them: only then is an entry no page used a dead one."""

    outdir: Path
    base_url: str
    settings: Settings
    site: SiteRecord
    generator: str
    records: RecordStore
    cache: ConversionCache | None
    docs: tuple[str, ...]
    sections: dict[str, tuple[str, ...]]
    in_toctree: frozenset[str]
    neighbours: dict[str, tuple[str | None, str | None]]
    prune_cache: bool
    written: tuple[tuple[str, Path], ...] = ()  # (docname, HTML page) written by this build
    theme: str = ""
    listings: tuple[ListingPage, ...] = ()  # their docnames are among ``docs``
    site_map: Mapping[str, str] = dataclasses.field(default_factory=dict)  # for listings
    encoding: str = "utf-8"  # of the HTML pages


def ours(names: Iterable[str], settings: Settings) -> set[str]:
    """Which of ``names`` (of files in a site's root) are site files this build writes."""
    # Imported here, not with the module: 16 ms of every build (an HTTP server's).
    from agentprose_core.hosting.servers import host_files

    search = (SEARCH_NAME,) if settings.mcp_endpoint else ()
    return set(names) & {INDEX_NAME, LLMS_NAME, LLMS_FULL_NAME, *search,
                         *host_files(settings.host)}
