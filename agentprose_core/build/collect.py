"""A collect-then-assemble build (MkDocs'): the tool hands over every page as it renders
it, the site is assembled once every page's front matter is known, and the pages are
written afterwards, each with its head tags; the site files come last.

:class:`CollectingBuild` is the state of such a build and what a serve session keeps
across its builds (the worker pool, the last build's pages). The plugin turns the
tool's objects into values (a :class:`~agentprose_core.build.assemble.CollectedPage`,
URLs, paths) and calls it at each step:

1. :meth:`CollectingBuild.configure` (the settings, once per build);
2. :meth:`CollectingBuild.plan` (the site's pages and nav: workers and git start);
3. :meth:`CollectingBuild.collect` (each rendered page, handed to a worker);
4. :meth:`CollectingBuild.assemble` (the records, from every page as finished);
5. :meth:`CollectingBuild.decorate` (each written page's head tags; a listing's view);
6. :meth:`CollectingBuild.publish_ahead` (the views and the site files, to a worker);
7. :meth:`CollectingBuild.publish` (the views and the site files, written).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from agentprose_core.build.assemble import (
    Assembled,
    CollectedPage,
    SiteSources,
    build_records,
    reading_order,
)
from agentprose_core.build.listings import (
    FAILED,
    ListingTask,
    SentListing,
    SentListings,
    listing_record,
    redecorated_listing,
    with_listing,
)
from agentprose_core.build.outputs import OutputsJob, SentOutputs, views_only, write_outputs
from agentprose_core.build.pagestore import PageStore, UnrenderedPage, refresh_heads
from agentprose_core.files import update_in_place
from agentprose_core.location import SiteLocation
from agentprose_core.model import Conversion, SiteRecord
from agentprose_core.parallel.cache import ConversionCache
from agentprose_core.parallel.policy import worker_count
from agentprose_core.parallel.speculative import BackgroundConversions, conversion_pool
from agentprose_core.records.dates import LastChanged
from agentprose_core.records.scopes import site_scopes
from agentprose_core.records.site import is_source_excluded
from agentprose_core.render.decorate import decorate_text
from agentprose_core.settings import Settings
from agentprose_core.urls import site_map

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from agentprose_core.diagnostics import Diagnostic
    from agentprose_core.languages import SiteLanguages
    from agentprose_core.model import PageRecord
    from agentprose_core.parallel.pool import WorkerPool

__all__ = ["LATE_MARKS", "CollectingBuild", "Published"]

LATE_MARKS = ("<autoref", "<backlinks")
"""Marks of HTML that other plugins finish only after every page is rendered
(mkdocs-autorefs' cross-references, mkdocstrings' backlinks): such a page is converted
then, not in the background as soon as it is collected."""


@dataclass(frozen=True)
class Published:
    """What a build wrote, and what to tell the user."""

    views: int
    files: int
    diagnostics: list[Diagnostic]
    partial: bool  # a dirty build that left the site files as they were


class CollectingBuild:
    """The builds of one process: ``dirty`` when the tool renders only changed pages,
    ``serving`` when they are previews (``mkdocs serve``, into a temporary folder)."""

    def __init__(self, *, dirty: bool = False, serving: bool = False) -> None:
        self.dirty = dirty
        self.serving = serving
        self.settings = Settings()
        self.base_url = ""
        self.location = SiteLocation("")
        self.sources = SiteSources(Path())
        self.pool: WorkerPool | None = None  # kept across the builds of a serve session
        self.last_pages: dict[str, CollectedPage] = {}  # the last build's, by source
        self.last_records: dict[str, PageRecord] = {}  # and their records, by URL
        self._reset(cache=None)

    def _reset(self, cache: ConversionCache | None) -> None:
        self.cache = cache
        self.page_store = PageStore(cache.directory / "pages.pickle") if cache else None
        self.pages: dict[str, CollectedPage] = {}  # by source
        self.order: list[str] = []
        self.in_nav: set[str] = set()
        self.records: dict[str, PageRecord] = {}
        self.site: SiteRecord | None = None
        self.assembled: Assembled | None = None
        self.last_changed: LastChanged | None = None
        self.background: BackgroundConversions | None = None
        self.held: set[str] = set()  # pages not handed to the workers before assemble
        self.unrendered: dict[str, Path] = {}  # a dirty build's pages the tool did not write
        self.partial = False  # a dirty build that lacks pages: site files left as they were
        self.pooled = False  # this build converts in the workers
        self.in_background = (0, 0)  # pages converted in the workers, and kept of them
        self.languages: SiteLanguages | None = None  # on a site built once per language
        self.listings = SentListings()  # listing pages in the workers
        self.outputs: SentOutputs | None = None  # the views and site files, in a worker

    def configure(self, settings: Settings, *, location: SiteLocation, sources: SiteSources,
                  cache_dir: Path | None) -> None:
        """Start a build (a serve session's reload starts another) of a site served
        where ``location`` says."""
        self.settings, self.location, self.sources = settings, location, sources
        self.base_url = location.base_url
        self._reset(ConversionCache(cache_dir) if settings.cache and cache_dir else None)
        if not settings.workers:
            self.close()

    def plan(self, order: Sequence[str], pages: Mapping[str, str], *, docs_dir: Path,
             fallback: Path, languages: SiteLanguages | None = None) -> None:
        """The nav's pages by source (``order``) and every page the tool will render
        (source -> URL): the workers start (once a session), git reads the history
        meanwhile. ``fallback`` dates pages outside any repository's history;
        ``languages`` says which language this build writes, on a site of several."""
        self.languages = languages
        if languages is not None and self.cache is not None:  # a store per language
            name = f"pages-{languages.current.lang}.pickle"
            self.page_store = PageStore(self.cache.directory / name)
        urls = [url for source, url in pages.items()
                if not is_source_excluded(source, self.settings.exclude)]
        self.order, self.in_nav = list(order), set(order)  # in_nav: asked once per page
        if self.pool is None:
            self.pool = conversion_pool(worker_count(len(urls), enabled=self.settings.workers))
        self.background = BackgroundConversions(
            site_map=site_map(urls, self.root_url, self.settings.view_layout),
            settings=self.settings, cache=self.cache, pool=self.pool,
        )
        self.last_changed = LastChanged(docs_dir, self.cache.directory if self.cache else None,
                                        fallback=fallback)
        if not self.dirty:  # every page is dated in assemble: git reads the history meanwhile
            self.last_changed.start(expect=partial(self.sources.pulled_in,
                                                   [docs_dir / source for source in pages]))

    @property
    def root_url(self) -> str:
        """The URL of the site this build writes: a language's root on a site of several."""
        return self.languages.root_url(self.base_url) if self.languages else self.base_url

    def included(self, written: str, source: Path | None) -> tuple[Path, ...]:
        """The files a page pulls in and the code it documents, from its source as the
        author wrote it (a plugin may have replaced the include by now)."""
        return self.sources.included(written, source)

    def collect(self, page: CollectedPage) -> None:
        """A page the tool rendered: a worker converts it now, unless another plugin
        finishes its HTML later."""
        late = any(mark in page.content_html for mark in LATE_MARKS)
        if self.background is None or late:
            self.held.add(page.source)  # handed over in assemble, when finished
        else:
            self.background.submit(page.content_html, page_url=page.url,
                                   source_markdown=page.source_markdown)
        # A late page's HTML comes finished in assemble: kept from now, it would be alive
        # beside the finished one while the other plugin rewrites every page (API pages).
        self.pages[page.source] = replace(page, content_html="") if late else page

    def assemble(self, finished: Mapping[str, str], unrendered: Sequence[UnrenderedPage], *,
                 name: str, description: str | None, lang: str | None) -> None:
        """The site's records, once every page is rendered: ``finished`` is each page's
        HTML as other plugins left it (by source), ``unrendered`` the pages a dirty build
        did not render. Raises :class:`~.errors.AgentproseError` for a site it can't make."""
        changed = self._take_finished(finished)
        self.partial = self.dirty and not self._take_unrendered(unrendered)
        self._hand_over_unrendered()
        assert self.last_changed is not None
        lang = self.languages.current.lang if self.languages else lang or self.location.lang
        try:
            self.assembled = build_records(
                reading_order(self.pages, self.order, self.in_nav), base_url=self.root_url,
                settings=self.settings, lang=lang, last_changed=self.last_changed, cache=self.cache,
                converted=self._converted(changed), location=self.location,
            )
        finally:
            if self.background is not None:
                self.pooled = self.background.pooled
                self.in_background = (self.background.converted_in_background,
                                      self.background.kept)
            self.background = None
        # The others' entries are unused; not a language's: the others' are the cache's.
        if self.cache is not None and not self.partial and self.languages is None:
            self.cache.prune()
        self.records = {record.url: record for record in self.assembled.records}
        root = self.root_url
        self.site = SiteRecord(
            name=name, url=root,
            description=description or self.settings.site_description, lang=lang,
            scopes=site_scopes(self.assembled.records, root, self.settings,
                               self.assembled.llms_sections),
            languages=self.languages.listed(self.base_url) if self.languages else (),
        )

    def decorate(self, source: str, output: str, *, written: Path,
                 kind: str | None) -> str | None:
        """The page the tool is about to write at ``written``, with its head tags; a page
        that lists others gets its view from what the theme wrote in it."""
        collected = self.pages.get(source)
        record = self.records.get(collected.url) if collected else None
        if not (collected and record and self.site):
            return output
        if collected.lists:  # its list is in the page only now: the theme wrote it
            if self.pooled and self.pool is not None:
                self._send_listing(record, output, collected.lists, written, kind)
            else:
                record = self._listing(record, output, collected.lists)
        return decorate_text(output, record, self.site, self.settings, kind=kind)

    def publish_ahead(self, site_dir: Path, *, generator: str, others: Iterable[str]) -> None:
        """Hand the views and the site files to a worker, written while the tool writes its
        pages; ``others``: the files the tool writes meanwhile (under ``site_dir``). Not
        without workers, nor on a site with listing pages (:mod:`~.build.outputs`)."""
        if not (self.pooled and self.pool is not None and self.pool.alive) or \
                any(page.lists for page in self.pages.values()):
            return
        prefix = self.languages.current.root if self.languages is not None else ""
        self.outputs = SentOutputs(self.pool, self._outputs(site_dir, generator),
                                   [path.removeprefix(prefix) for path in others
                                    if path.startswith(prefix)])
        assert self.assembled is not None  # its records as sent: without their Markdown
        self.assembled.records = list(self.outputs.job.records)
        self.records = {record.url: record for record in self.assembled.records}

    def publish(self, site_dir: Path, *, generator: str) -> Published:
        """Write the views and the site files once every page is written, or take what
        the worker wrote (:meth:`publish_ahead`). Raises :class:`~.errors.AgentproseError`."""
        assert self.site is not None and self.assembled is not None
        self._finish_listings()
        sent, self.outputs = self.outputs, None
        written = sent.written() if sent else write_outputs(None,
                                                            self._outputs(site_dir, generator))
        notes = self.assembled.diagnostics + list(written.diagnostics) + self._keep_pages()
        if self.last_changed is not None:
            notes += self.last_changed.notes()
        self.pages, self.records, self.assembled = {}, {}, None  # every page is written
        return Published(written.views, len(written.files), notes, self.partial)

    def _outputs(self, site_dir: Path, generator: str) -> OutputsJob:
        assert self.site is not None and self.assembled is not None
        if self.languages is not None:  # each language's files under its root
            site_dir = site_dir / self.languages.current.root
        return OutputsJob(site_dir, self.site, tuple(self.assembled.records),
                          self._publish_settings(), generator, self.assembled.llms_sections)

    def abandon(self) -> None:
        """A build that failed: its workers may be busy with its pages."""
        self.background = self.outputs = None
        self.close()

    def close(self) -> None:
        """Stop the workers (the end of a session, or a build without them)."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    # -- listing pages --------------------------------------------------------------

    def _listing(self, record: PageRecord, output: str, lists: tuple[str, ...]) -> PageRecord:
        """The record of a listing page, converted here (a build without workers)."""
        assert self.assembled is not None
        new, notes = listing_record(record, output, site_map=self.assembled.site_map,
                                    settings=self.settings, listed=self._listed(lists))
        self.assembled.diagnostics.extend(notes)
        self._replace_record(record, new)
        return new

    def _listed(self, lists: tuple[str, ...]) -> list[PageRecord]:
        return [self.records[url] for url in lists if url in self.records]

    def _replace_record(self, old: PageRecord, new: PageRecord) -> None:
        assert self.assembled is not None
        self.records[old.url] = new
        self.assembled.records[self.assembled.records.index(old)] = new

    def _send_listing(self, record: PageRecord, output: str, lists: tuple[str, ...],
                      written: Path, kind: str | None) -> None:
        """Convert a listing page in a worker; the page is written with the record as
        it is, and written again in :meth:`publish` if its date changes."""
        assert self.pool is not None and self.assembled is not None
        task = ListingTask(output, record.url, dict(self.assembled.site_map), self.settings)
        self.listings.send(self.pool, task, SentListing(record.url, lists, written, kind))

    def _finish_listings(self) -> None:
        """The listing pages converted in the workers: their records, and their pages
        written again where their date changed."""
        if self.pool is None or self.assembled is None or self.site is None:
            return
        for job, conversion in self.listings.answers(self.pool):
            record = self.records[job.url]
            if conversion is FAILED:
                new = self._listing(record, job.path.read_text("utf-8"), job.lists)
            elif not isinstance(conversion, Conversion):
                continue
            else:
                new = with_listing(record, conversion, self._listed(job.lists))
                self.assembled.diagnostics.extend(conversion.diagnostics)
                self._replace_record(record, new)
            if new.modified != record.modified:  # its head tags say when it changed
                update_in_place(job.path, partial(redecorated_listing, record=new, site=self.site,
                                                  settings=self.settings, kind=job.kind))

    # -- dirty builds -----------------------------------------------------------------

    def _take_finished(self, finished: Mapping[str, str]) -> set[str]:
        """Take each page's HTML as other plugins left it, and hand the pages it changed
        to the workers again; the URLs of the changed pages no worker converts."""
        changed = set()
        for source, shown in finished.items():
            collected = self.pages.get(source)
            if collected is None:
                continue
            if shown != collected.content_html or source in self.held:
                self.pages[source] = replace(collected, content_html=shown)
                # The tool's process then never loads the converter: it stays as small
                # as a bare build's, and the idle workers convert these pages.
                if self.background is None or not self.background.submit(
                        shown, page_url=collected.url,
                        source_markdown=collected.source_markdown):
                    changed.add(collected.url)
        self.held = set()
        return changed

    def _take_unrendered(self, unrendered: Sequence[UnrenderedPage]) -> bool:
        """Give the pages a dirty build did not render what the last build collected of
        them (this process's, else the one kept in the cache folder), with their place
        in today's nav. False when that build did not have one of them either."""
        self.unrendered = {}
        for page in unrendered:
            if page.source in self.pages:
                continue
            if not self.last_pages and self.page_store is not None:
                self.last_pages = self.page_store.load()  # a new process: the last build's
            last = self.last_pages.get(page.source)
            if last is None:
                return False
            self.pages[page.source] = replace(last, section=page.section, in_nav=page.in_nav)
            self.unrendered[page.source] = page.written
        return True

    def _hand_over_unrendered(self) -> None:
        """The pages a dirty build did not render go where the rendered ones went: their
        conversions were cached under the workers' key, which an in-process conversion
        would miss (and convert again, in the tool's process)."""
        if self.background is None:
            return
        for source in self.unrendered:
            page = self.pages[source]
            self.background.submit(page.content_html, page_url=page.url,
                                   source_markdown=page.source_markdown)

    def _converted(
        self, changed: set[str]
    ) -> Callable[[Mapping[str, str]], Mapping[str, Conversion]] | None:
        """What the background workers converted, but the pages changed since."""
        background = self.background
        if background is None:
            return None
        return lambda views: {url: conversion for url, conversion in
                              background.results(views).items() if url not in changed}

    def _publish_settings(self) -> Settings:
        """The settings to publish with: :func:`~.build.outputs.views_only` if partial."""
        return views_only(self.settings) if self.partial else self.settings

    def _keep_pages(self) -> list[Diagnostic]:
        """What the next dirty build does not render again: in this process (serve) and
        in the cache folder (the next ``build --dirty``)."""
        notes = []
        if self.dirty:
            notes = self._refresh_unrendered()
            self.last_pages, self.last_records = self.pages, self.records
        # Only a build into the site folder is what a later `build --dirty` starts from;
        # serve's reloads keep their pages in memory (above), at no cost per reload.
        if self.page_store is not None and not self.partial and not self.serving:
            self.page_store.save(self.pages)
        return notes

    def _refresh_unrendered(self) -> list[Diagnostic]:
        assert self.site is not None
        pages = [(written, record) for source, written in self.unrendered.items()
                 if (record := self.records.get(self.pages[source].url)) is not None]
        return refresh_heads(pages, self.last_records, site=self.site, settings=self.settings)
