"""One page's outputs, written as the build tool writes the page (Sphinx does, page by
page), the same way in the tool's process and in a worker: its agent view, its record
in the record store, and the tags its ``<head>`` gains.

A serial build hands each page to the worker and goes on writing: the page is written
with a marker where the tags go (:func:`marker`), and the worker puts the tags in
place of it once the tool has written the file (:func:`fill_head`), that is, when the
next page is handed over. The page ends with the very bytes an in-process build gives
it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agentprose_core.diagnostics import Diagnostic
from agentprose_core.errors import AgentproseError, OutputError
from agentprose_core.files import update_in_place
from agentprose_core.parallel.cache import ConversionCache, site_digest
from agentprose_core.parallel.wire import WiredTexts
from agentprose_core.records.metadata import read_metadata
from agentprose_core.records.store import RecordStore

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from agentprose_core.model import SiteRecord
    from agentprose_core.parallel.pool import WorkerState
    from agentprose_core.records.metadata import PageFacts
    from agentprose_core.settings import Settings


__all__ = [
    "ConversionCache",
    "HeadFill",
    "PageJob",
    "PageOutputs",
    "RecordStore",
    "SitePages",
    "fill_head",
    "fill_written",
    "marker",
    "read_metadata",
    "start_pages",
    "write_page",
    "write_page_in_worker",
]


@dataclass(frozen=True)
class SitePages:
    """What every page of a build shares; sent to the worker once."""

    outdir: Path
    base_url: str
    settings: Settings
    site: SiteRecord
    site_map: Mapping[str, str]
    site_digest: str
    cache: ConversionCache | None
    records: RecordStore

    @classmethod
    def of(cls, outdir: Path, *, base_url: str, settings: Settings, site: SiteRecord,
           site_map: Mapping[str, str], cache: ConversionCache | None,
           records: RecordStore) -> SitePages:
        """What the pages of a build converted with ``site_map`` share."""
        return cls(outdir=outdir, base_url=base_url, settings=settings, site=site,
                   site_map=site_map, site_digest=site_digest(site_map), cache=cache,
                   records=records)


@dataclass(frozen=True)
class PageJob(WiredTexts):
    """One page as Sphinx knows it when it writes it. ``modified`` is the time of its
    sources, needed only when the metadata has none; ``metatags`` is what the head
    holds already (other extensions' tags)."""

    docname: str
    body: str
    url: str
    markdown_url: str
    facts: PageFacts
    tool_title: str | None
    modified: str | None
    section: tuple[str, ...]
    prev: str | None
    next: str | None
    lang: str | None
    in_nav: bool
    metatags: str
    canonical: str | None = None  # when the page is cited by another URL than ``url``
    version: str | None = None
    translations: tuple[tuple[str, str], ...] = ()  # (lang, page URL) in other languages

    wired = ("body", "metatags")  # pickled as str, Sphinx's copies would grow


@dataclass(frozen=True)
class PageOutputs:
    """What is left to do once a page's view and record are written: its head tags,
    and what to tell the user about it."""

    tags: str
    diagnostics: tuple[Diagnostic, ...] = ()
    filled: tuple[Diagnostic, ...] = ()  # the worker's, of filling in earlier pages


def write_page(site: SitePages, job: PageJob) -> PageOutputs:
    """Convert one page, write its view and its record; returns its head tags.
    Raises :class:`OutputError` when a file can't be written."""
    # Imported here: a build whose pages go to a worker never loads them in the tool's
    # process (with the site files' module, a sixth of the extension's import).
    from agentprose_core.output.publish import write_view
    from agentprose_core.parallel.cache import convert_cached
    from agentprose_core.records.page import make_record
    from agentprose_core.render.decorate import head_additions

    conversion = convert_cached(job.body, page_url=job.url, site_map=site.site_map,
                                settings=site.settings, cache=site.cache,
                                site=site.site_digest)
    record = make_record(
        url=job.url, markdown_url=job.markdown_url, conversion=conversion, facts=job.facts,
        tool_title=job.tool_title, modified=lambda: job.modified or "",
        section=job.section, prev=job.prev, next=job.next, lang=job.lang, in_nav=job.in_nav,
        canonical=job.canonical, version=job.version, translations=job.translations,
    )
    try:
        write_view(site.outdir, record, site.base_url, site.settings)
        site.records.save(job.docname, record)
    except (AgentproseError, OSError) as error:
        message = f"agentprose could not write the view of {job.docname}: {error}"
        raise OutputError(message) from error
    tags = head_additions(job.metatags, record, site.site, site.settings)
    return PageOutputs(tags, conversion.diagnostics + job.facts.diagnostics)


def marker(token: str) -> str:
    """What a deferred page's head holds where its tags go; ``token`` is the build's."""
    return f"<!--agentprose-head {token}-->"


@dataclass(frozen=True)
class HeadFill:
    """How to fill in the head of the pages of one build: the marker its pages hold,
    and the encoding Sphinx writes them in (``html_output_encoding``)."""

    marker: str
    encoding: str = "utf-8"

    def filled(self, document: bytes, tags: str) -> bytes | None:
        """``document`` with the tags in place of the marker, or None without one."""
        placeholder = f"\n{self.marker}\n".encode("ascii")
        at = document.find(placeholder)
        if at < 0:
            return None
        # Sphinx writes pages with errors="xmlcharrefreplace", and so do we.
        replacement = f"\n{tags}\n".encode(self.encoding, "xmlcharrefreplace") if tags else b""
        return document[:at] + replacement + document[at + len(placeholder):]


def fill_head(fill: HeadFill, path: Path, tags: str, docname: str) -> Diagnostic | None:
    """Put ``tags`` in place of the marker in ``docname``'s page at ``path``; a warning
    (located at ``docname``) if the page can't be written. Filling a page twice
    changes nothing: the marker is gone after the first time."""
    try:
        update_in_place(path, lambda document: fill.filled(document, tags))
    except AgentproseError as error:
        return Diagnostic("head", f"The page's <head> tags were not added: {error}", docname)
    return None


@dataclass
class _WorkerPages:
    """A worker's state for the pages of one build."""

    site: SitePages
    fill: HeadFill
    unfilled: list[tuple[str, Path, str]] = field(default_factory=list)


def write_page_in_worker(state: WorkerState, job: PageJob, page: Path) -> PageOutputs:
    """A worker's task for one page that Sphinx is about to write to ``page``: fill in
    the heads of the pages handed over before it (Sphinx has written them by now),
    then write this one's view and record."""
    filled = fill_written(state)
    pages = state.get(_WorkerPages)
    outputs = write_page(pages.site, job)
    pages.unfilled.append((job.docname, page, outputs.tags))
    return PageOutputs(outputs.tags, outputs.diagnostics, tuple(filled))


def fill_written(state: WorkerState) -> list[Diagnostic]:
    """A worker's task once the pages it was handed are written: fill in their heads."""
    pages = state.get(_WorkerPages)
    notes = [fill_head(pages.fill, path, tags, docname)
             for docname, path, tags in pages.unfilled]
    pages.unfilled.clear()
    return [note for note in notes if note is not None]


def start_pages(state: WorkerState, site: SitePages, fill: HeadFill) -> None:
    """A worker's first task of a build: what its pages share."""
    state.put(_WorkerPages(site, fill))
