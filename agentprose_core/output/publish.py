"""Writing every agent output of a site: the views and the site-wide files.

Shared by ``agentprose build`` and both plugins, so that every tool writes the same
bytes for the same pages.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from agentprose_core.diagnostics import Diagnostic
from agentprose_core.files import remove_stale_temporaries, safe_target, write_atomic
from agentprose_core.model import INDEX_NAME, LLMS_FULL_NAME, LLMS_NAME, SEARCH_NAME
from agentprose_core.phrases import phrases_for, translated
from agentprose_core.records.links import link_findings
from agentprose_core.records.scopes import pages_in_scopes
from agentprose_core.render.index import check_pages, iter_index_chunks
from agentprose_core.render.llmstxt import (
    iter_llms_full_txt,
    render_llms_txt,
    render_section_llms_txt,
)
from agentprose_core.render.pagemenu import menu_files
from agentprose_core.render.parts import PageParts, SiteParts
from agentprose_core.render.view import render_view, view_directive
from agentprose_core.urls import base_url_of, output_path
from agentprose_core.version import __version__

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
    from pathlib import Path

    from agentprose_core.model import PageRecord, SiteRecord
    from agentprose_core.settings import Settings

__all__ = ["Published", "publish", "write_view"]


@dataclass
class Published:
    """What :func:`publish` wrote (or would write, in a dry run)."""

    files: list[str] = field(default_factory=list)
    bytes_written: int = 0
    pages: list[PageRecord] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    parts: dict[str, PageParts] = field(default_factory=dict)  # every page's, by URL


def publish(
    site_dir: Path,
    site: SiteRecord,
    pages: Sequence[PageRecord],
    *,
    settings: Settings,
    generator: str,
    dry_run: bool = False,
    llms_sections: Sequence[tuple[str, Sequence[str]]] = (),
    views: bool = True,
    parts: Mapping[str, PageParts] | None = None,
) -> Published:
    """Write each page's agent view and the site files into ``site_dir``.

    Pages the index may not list (off the site, duplicates) are reported and get no
    file. Every path is checked to stay inside ``site_dir``. ``llms_sections`` replaces
    the nav's grouping in ``llms.txt`` (titles with page URLs). ``views=False`` writes
    the site files only, for tools that wrote each view as the page was rendered.
    ``parts``: the pages' parts of the site files as an earlier build made them, by
    URL, for pages whose record has not changed since
    (:mod:`~agentprose_core.render.parts`); the result's ``parts`` are this build's,
    to keep for the next.
    """
    kept, diagnostics = check_pages(site, pages)
    base = base_url_of(site.url)
    shares = SiteParts(base, settings, parts)
    found = link_findings(kept, base, links=shares.links, targets=shares.targets)
    result = Published(pages=kept, diagnostics=[*diagnostics, *found,
                                                *_untranslated(site, kept, settings)],
                       parts=shares.parts)

    def emit(relative: str, data: str | Iterable[str]) -> None:
        target = safe_target(site_dir, relative)
        result.files.append(relative)
        if dry_run:
            return
        result.bytes_written += write_atomic(target, data)

    for page in kept:
        if views:  # in the page's own language, as write_view has it: the same bytes
            text = render_view(page, view_directive(base, settings, page.lang))
            shares.size(page, text)
            emit(output_path(page.markdown_url, base), text)
        else:
            shares.size(page)
    if settings.index:
        emit(INDEX_NAME, _index(site, kept, generator, settings, result.diagnostics,
                                shares=shares))
    endpoint = _endpoint_files(site, kept, settings, generator=generator, emit=emit,
                               notes=result.diagnostics)
    if settings.llms_txt:
        words = phrases_for(site.lang, settings.phrases)
        emit(LLMS_NAME, render_llms_txt(site, kept, sections=llms_sections, phrases=words,
                                        mcp_endpoint=endpoint))
        scoped = pages_in_scopes(kept, base, (folder for folder, _ in site.scopes))
        for folder, title in site.scopes:
            under = scoped[folder]
            full = settings.llms_full_txt and \
                sum(len(page.markdown) for page in under) >= SECTION_FULL_MIN_CHARS
            emit(folder + LLMS_NAME, render_section_llms_txt(site, under, folder, title,
                                                             full=full, phrases=words))
            if full:
                emit(folder + LLMS_FULL_NAME,
                     iter_llms_full_txt(site, under, entries=shares.entry))
    if settings.llms_full_txt:
        emit(LLMS_FULL_NAME, _capped_full(site, kept, settings.llms_full_max_bytes,
                                          result.diagnostics, entries=shares.entry))
    if settings.host != "none":
        from agentprose_core.hosting.servers import (
            host_files,  # imported only for a build that asks for it
        )

        views_written = {output_path(page.markdown_url, base): shares.size(page).tokens
                         for page in kept}
        scopes = ("", *(folder for folder, _ in site.scopes)) if settings.llms_txt else ()
        for name, text in host_files(settings.host, base_path=urlsplit(base).path,
                                     view_layout=settings.view_layout,
                                     views=views_written, llms_scopes=scopes,
                                     index=settings.index, tokens=views_written,
                                     detect_agents=settings.detect_agents).items():
            emit(name, text)
    if settings.page_actions:  # the page menu's script and style, once per site
        for name, text in menu_files().items():
            emit(name, text)
    if not dry_run:  # where a killed build may have left some: beside what we write
        written = {*result.files, *(output_path(page.markdown_url, base) for page in kept)}
        # each folder checked once, not each file: a rebuild of a large site asks this
        folders = {safe_target(site_dir, posixpath.dirname(relative)) for relative in written}
        remove_stale_temporaries(sorted(folders))
    return result


def _endpoint_files(site: SiteRecord, pages: Sequence[PageRecord], settings: Settings, *,
                    generator: str, emit: Callable[[str, str], None],
                    notes: list[Diagnostic]) -> str | None:
    """With ``mcp_endpoint``: what an endpoint searches with and the files that say where
    it is; its URL. (Imported here: a build without an endpoint never loads them.)"""
    if not settings.mcp_endpoint:
        return None
    from agentprose_core.render.discovery import discovery_files, endpoint_url
    from agentprose_core.render.searchfile import render_search_file

    endpoint = endpoint_url(site.url, settings.mcp_endpoint)
    if endpoint:
        emit(SEARCH_NAME, render_search_file(pages, generator=generator))
        found, found_notes = discovery_files(site, [(p.url, p.markdown_url) for p in pages[:2]],
                                             endpoint, version=__version__)
        notes.extend(found_notes)
        for name, text in found.items():
            emit(name, text)
    return endpoint


def _untranslated(site: SiteRecord, pages: Sequence[PageRecord],
                  settings: Settings) -> list[Diagnostic]:
    """One note per language whose fixed sentences are written in English."""
    langs = sorted({lang for lang in (site.lang, *(page.lang for page in pages))
                    if lang and not translated(lang, settings.phrases,
                                                 menu=settings.page_actions,
                                                 mcp=settings.mcp_endpoint is not None)})
    return [Diagnostic("untranslated",
                       f"agentprose has no phrases in '{lang}': its fixed sentences in the "
                       f"pages in '{lang}' are in English; give them with the 'phrases' "
                       "option to translate them.", severity="info") for lang in langs]


SECTION_FULL_MIN_CHARS = 50_000
"""A section gets its own ``llms-full.txt`` from this much Markdown on: about where
fetching its pages one by one starts to cost an agent more than one file would."""


def _index(site: SiteRecord, pages: Sequence[PageRecord], generator: str,
           settings: Settings, notes: list[Diagnostic], *,
           shares: SiteParts) -> Iterable[str]:
    """The index, streamed; without bodies when it would pass ``index_max_bytes``."""
    bodies = settings.index_markdown
    if bodies and settings.index_max_bytes:
        # Measured in a first pass and made again to write: never the whole index (every
        # page's Markdown a second time) in memory at once.
        size = sum(len(chunk.encode("utf-8"))
                   for chunk in iter_index_chunks(site, pages, generator=generator,
                                                  posts=shares.post))
        if size <= settings.index_max_bytes:
            return iter_index_chunks(site, pages, generator=generator, include_markdown=True,
                                     posts=shares.post)
        notes.append(Diagnostic(
            "index-cut",
            f"agentprose.json would pass index_max_bytes ({settings.index_max_bytes:,}): it "
            "lists every page without its Markdown (each post keeps its markdown_url).",
        ))
        bodies = False
    return iter_index_chunks(site, pages, generator=generator, include_markdown=bodies,
                             posts=shares.post)


def _capped_full(site: SiteRecord, pages: Sequence[PageRecord], limit: int | None,
                 notes: list[Diagnostic], *,
                 entries: Callable[[PageRecord], str]) -> Iterator[str]:
    """``llms-full.txt``, stopping before the page that would pass ``limit`` bytes."""
    written = 0
    for count, chunk in enumerate(iter_llms_full_txt(site, pages, entries=entries)):
        size = len(chunk.encode("utf-8"))
        if limit is not None and written + size > limit:
            left = len(pages) - count
            notes.append(Diagnostic(
                "llms-full-cut",
                f"llms-full.txt stops at llms_full_max_bytes ({limit:,}): {left} of "
                f"{len(pages)} pages are left out of it (they are in llms.txt).",
            ))
            yield (f"\n{left} more pages are not in this file; llms.txt and agentprose.json "
                   "list them all.\n")
            return
        written += size
        yield chunk


def write_view(site_dir: Path, page: PageRecord, base_url: str, settings: Settings) -> int:
    """Write one page's agent view into ``site_dir``; returns the bytes written."""
    base = base_url_of(base_url)
    relative = output_path(page.markdown_url, base)
    return write_atomic(safe_target(site_dir, relative),
                        render_view(page, view_directive(base, settings, page.lang)))
