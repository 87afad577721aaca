"""``plugins: [agentprose]``: hooks that hand each page to the core and write at the end.

Pages are handed to background workers as MkDocs renders them (``on_page_content``)
and their records made in ``on_env``, once every page's front matter is known, so that
a page excluded by its front matter is not linked from any other page's view.
"""

from __future__ import annotations

import mimetypes
import sys
from dataclasses import dataclass, replace
from functools import partial
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.exceptions import ConfigurationError, PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger

from agentprose_core.diagnostics import Diagnostic, audible
from agentprose_core.errors import AgentproseError, ConfigError
from agentprose_core.files import update_in_place
from agentprose_core.lang import normalize_lang
from agentprose_core.model import SiteRecord
from agentprose_core.output.conflicts import competing_plugins
from agentprose_core.output.publish import publish
from agentprose_core.output.release import release_freed_memory
from agentprose_core.parallel.cache import ConversionCache
from agentprose_core.parallel.policy import worker_count
from agentprose_core.parallel.pool import Failed
from agentprose_core.parallel.speculative import (
    BackgroundConversions,
    ListingTask,
    conversion_pool,
    convert_listing,
)
from agentprose_core.records.dates import LastChanged
from agentprose_core.records.includes import (
    documented_modules,
    included_files,
    module_dirs,
    search_dirs,
)
from agentprose_core.records.listings import with_listing
from agentprose_core.records.scopes import site_scopes
from agentprose_core.records.site import (
    Assembled,
    CollectedPage,
    build_records,
    is_source_excluded,
    with_listed,
)
from agentprose_core.records.store import PageStore
from agentprose_core.render.decorate import INJECTED_MARK, decorate_text, redecorate_page
from agentprose_core.settings import Settings, settings_from_mapping
from agentprose_core.urls import base_url_of, site_map
from agentprose_core.version import __version__

from .config import AgentproseConfig

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page

    from agentprose_core.model import Conversion, PageRecord
    from agentprose_core.parallel.pool import WorkerPool

__all__ = ["AgentprosePlugin"]

log = get_plugin_logger(__name__)

# Marks of HTML that other plugins finish only in on_env (mkdocs-autorefs' cross-references,
# mkdocstrings' backlinks): such a page is converted then, not in the background now.
_LATE = ("<autoref", "<backlinks")


def _log(diagnostics: list[Diagnostic], quiet: tuple[str, ...]) -> None:
    for diagnostic in audible(diagnostics, quiet):
        if diagnostic.severity == "warning":
            log.warning(str(diagnostic))
        else:
            log.info(str(diagnostic))


@dataclass(frozen=True)
class _Listing:
    """A listing page sent to a worker: where it was written and what it lists."""

    url: str
    lists: tuple[str, ...]
    path: Path
    kind: str | None


def _listed(page: Page) -> list[Page]:
    """The pages a generated page lists: a Material blog view's posts, newest first."""
    posts = getattr(page, "posts", None)
    return [post for post in posts if hasattr(post, "url")] if isinstance(posts, list) else []


def _metadata(page: Page) -> dict[str, Any]:
    """The page's front matter, with the names of the authors Material's blog resolved
    from ``.authors.yml`` (the front matter holds their keys)."""
    meta = dict(page.meta)
    authors = getattr(page, "authors", None)
    if isinstance(authors, list) and authors and all(hasattr(a, "name") for a in authors):
        meta["authors"] = [str(author.name) for author in authors]
    return meta


def _handler_paths(config: MkDocsConfig) -> object:
    """mkdocstrings' Python handler's ``paths`` option, as the user wrote it."""
    plugin = config.plugins.get("mkdocstrings")
    handlers = getattr(plugin, "config", {}).get("handlers") or {}
    python = handlers.get("python") if isinstance(handlers, dict) else None
    return python.get("paths") if isinstance(python, dict) else None


def _source_text(page: Page) -> str:
    """The page's source file as written (MkDocs 1.6 keeps it, 1.5 has its path; a page
    generated in memory may have neither)."""
    try:
        if hasattr(page.file, "content_string"):
            text = page.file.content_string
            return text if isinstance(text, str) else ""
        if page.file.abs_src_path:
            return Path(page.file.abs_src_path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError, TypeError):
        pass
    return ""


def _tool() -> str:
    """``properdocs`` when ProperDocs runs us (it aliases the ``mkdocs`` modules)."""
    return sys.modules["mkdocs"].__name__ if "mkdocs" in sys.modules else "mkdocs"


class AgentprosePlugin(BasePlugin[AgentproseConfig]):  # type: ignore[no-untyped-call]
    """Agent views, ``agentprose.json``, ``llms.txt`` and discovery links for MkDocs."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self.settings = Settings()
        self.base_url = ""
        self.pages: dict[str, CollectedPage] = {}
        self.sources: dict[str, str] = {}
        self.order: list[str] = []
        self.in_nav: set[str] = set()
        self.records: dict[str, PageRecord] = {}
        self.site: SiteRecord | None = None
        self.assembled: Assembled | None = None
        self.last_changed: LastChanged | None = None
        self.cache: ConversionCache | None = None
        self.background: BackgroundConversions | None = None
        self.pool: WorkerPool | None = None  # kept across the builds of a serve session
        self.dirty = False  # serve --dirty, build --dirty: only changed pages are rendered
        self.serving = False  # mkdocs serve: its builds go to a temporary folder
        self.last_pages: dict[str, CollectedPage] = {}  # the last build's, by source
        self.page_store: PageStore | None = None  # the last build's, for the next process
        self.last_records: dict[str, PageRecord] = {}  # and their records, by URL
        self.unrendered: dict[str, Path] = {}  # a dirty build's pages MkDocs did not write
        self.partial = False  # a dirty build that lacks pages: site files left as they were
        self.titles_shown = False  # the theme writes a page's title when it has no <h1>
        self.docs_dir = Path()
        self.include_dirs: tuple[Path, ...] = ()  # where snippets and includes are found
        self.module_dirs: tuple[Path, ...] = ()  # where mkdocstrings finds documented code
        self.held: set[str] = set()  # pages not handed to the workers before on_env
        self.pooled = False  # this build converts in the workers
        self.listings: dict[int, _Listing] = {}  # listing pages in the workers, by ticket

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.dirty = dirty
        self.serving = command == "serve"
        if command == "serve":  # the dev server takes content types from mimetypes
            mimetypes.add_type("text/markdown; charset=utf-8", ".md")

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if not self.config.enabled:
            return None
        try:
            self.settings = settings_from_mapping(dict(self.config))
        except ConfigError as error:
            raise ConfigurationError(str(error)) from error
        if not config.site_url:
            raise ConfigurationError(
                "agentprose needs 'site_url' in mkdocs.yml (e.g. site_url: "
                "https://example.com/docs/): agent views cite absolute canonical URLs."
            )
        self._configure(config)
        _log(competing_plugins(config.plugins, self.settings), self.settings.quiet)
        if not self.settings.workers:
            self._close_pool()
        return None

    def _configure(self, config: MkDocsConfig) -> None:
        self.base_url = base_url_of(config.site_url or "")
        self.titles_shown = config.theme.name == "material"
        self.docs_dir = Path(config.docs_dir)
        snippets = config.mdx_configs.get("pymdownx.snippets") or {}
        config_dir = Path(config.config_file_path or ".").parent
        self.include_dirs = search_dirs(snippets.get("base_path", "."), config_dir=config_dir)
        self.module_dirs = module_dirs(_handler_paths(config), config_dir=config_dir) \
            if "mkdocstrings" in config.plugins else ()
        self.pages, self.sources, self.order, self.in_nav = {}, {}, [], set()  # serve reuses us
        self.records, self.site, self.assembled, self.last_changed = {}, None, None, None
        self.cache = self._cache(config)
        self.page_store = PageStore(self.cache.directory / "pages.pickle") if self.cache else None

    @event_priority(-100)  # after plugins that add pages to the nav (Material's blog: -50)
    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> None:
        if not self.config.enabled:
            return
        self.order = [page.file.src_uri for page in nav.pages]
        self.in_nav = set(self.order)  # asked once per page: a set, not the list
        urls = [self.base_url + (file.page.url if file.page else file.url)  # "./" -> ""
                for file in files.documentation_pages()
                if not is_source_excluded(file.src_uri, self.settings.exclude)]
        if self.pool is None:  # kept for the next builds of a serve session
            self.pool = conversion_pool(worker_count(len(urls), enabled=self.settings.workers))
        self.background = BackgroundConversions(
            site_map=site_map(urls, self.base_url, self.settings.view_layout),
            settings=self.settings, cache=self.cache, pool=self.pool,
        )
        self.last_changed = LastChanged(Path(config.docs_dir),
                                        self.cache.directory if self.cache else None,
                                        fallback=Path(config.config_file_path or ".").parent)
        if not self.dirty:  # every page is dated in on_env: git reads the history meanwhile
            self.last_changed.start()

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if self.config.enabled:
            self.sources[page.file.src_uri] = markdown
        return None

    @event_priority(-100)  # after other plugins: API docs, blog, macros are in the HTML
    def on_page_content(
        self, html: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if self.config.enabled:
            collected = self.pages[page.file.src_uri] = self._collect(page, self._shown(html, page))
            if self.background is not None and not any(mark in html for mark in _LATE):
                self.background.submit(collected.content_html, page_url=collected.url,
                                       source_markdown=collected.source_markdown)
            else:
                self.held.add(page.file.src_uri)  # handed over in on_env, when finished
        return None

    # After mkdocs-autorefs (-50) and mkdocstrings' backlinks (-100) finish the pages'
    # HTML in on_env: the views hold the cross-references readers see.
    @event_priority(-200)
    def on_env(self, env: Any, *, config: MkDocsConfig, files: Files) -> None:
        # Every page has been rendered (and its front matter read) by now, before any is
        # written: the moment to convert them all, links between them included.
        if not self.config.enabled:
            return
        finished = self._take_finished_content(files)
        self.partial = self.dirty and not self._take_unrendered(files)
        self._hand_over_unrendered()
        lang = normalize_lang(str(config.theme.get("language") or config.theme.get("locale") or ""))
        self.assembled = self._assemble(lang, finished)
        if self.cache is not None and not self.partial:  # the others' entries are unused
            self.cache.prune()
        self.records = {record.url: record for record in self.assembled.records}
        self.site = SiteRecord(
            name=config.site_name, url=self.base_url,
            description=config.site_description or self.settings.site_description, lang=lang,
            scopes=site_scopes(self.assembled.records, self.base_url, self.settings,
                               self.assembled.llms_sections),
        )

    def _assemble(self, lang: str | None, finished: set[str]) -> Assembled:
        assert self.last_changed is not None
        try:
            return build_records(
                self._reading_order(), base_url=self.base_url, settings=self.settings,
                lang=lang, last_changed=self.last_changed, cache=self.cache,
                converted=self._converted(finished),
            )
        except AgentproseError as error:
            raise PluginError(f"agentprose: {error}") from error
        finally:
            if self.background is not None:
                log.debug("%d pages converted in background processes, %d of them kept",
                          self.background.converted_in_background, self.background.kept)
                self.pooled = self.background.pooled
            self.background = None

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str | None:
        collected = self.pages.get(page.file.src_uri)
        record = self.records.get(collected.url) if collected else None
        if not (self.config.enabled and collected and record and self.site):
            return None
        kind = "BlogPosting" if type(page).__name__ == "Post" else None  # Material's blog
        if collected.lists:  # its list is in the page only now: the theme wrote it
            if self.pooled and self.pool is not None:
                self._send_listing(record, output, collected.lists, page, kind)
            else:
                record = self._listing(record, output, collected.lists)
        return decorate_text(output, record, self.site, self.settings, kind=kind)

    def _listing(self, record: PageRecord, output: str, lists: tuple[str, ...]) -> PageRecord:
        """The record of a listing page, converted here (a build without workers)."""
        # Imported here: it loads lxml, which MkDocs' process needs only on such pages.
        from agentprose_core.records.listings import listing_record

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
                      page: Page, kind: str | None) -> None:
        """Convert a listing page in a worker; the page is written with the record as
        it is, and written again in ``on_post_build`` if its date changes."""
        assert self.pool is not None and self.assembled is not None
        task = ListingTask(output, record.url, dict(self.assembled.site_map), self.settings)
        ticket = self.pool.submit(convert_listing, task)
        self.listings[ticket] = _Listing(record.url, lists, Path(page.file.abs_dest_path),
                                         kind)

    def _finish_listings(self) -> None:
        """The listing pages converted in the workers: their records, and their pages
        written again where their date changed."""
        jobs, self.listings = self.listings, {}
        if not jobs or self.pool is None or self.assembled is None or self.site is None:
            return
        answers = self.pool.gather()
        for ticket, job in jobs.items():
            record = self.records[job.url]
            conversion = answers.get(ticket)
            if isinstance(conversion, Failed) or ticket not in answers:
                new = self._listing(record, job.path.read_text("utf-8"), job.lists)
            elif conversion is None:
                continue
            else:
                new = with_listing(record, conversion, self._listed(job.lists))
                self.assembled.diagnostics.extend(conversion.diagnostics)
                self._replace_record(record, new)
            if new.modified != record.modified:  # its head tags say when it changed
                update_in_place(job.path, partial(self._redecorated, new, job.kind))

    def _redecorated(self, record: PageRecord, kind: str | None, written: bytes) -> bytes | None:
        """A written page with its tags made for ``record``, when they can be found
        (another plugin may have taken the markers out: the page is then left alone)."""
        assert self.site is not None
        if written.count(INJECTED_MARK) != 1:
            return None
        return redecorate_page(written, record, self.site, self.settings, kind=kind)

    @event_priority(100)  # before search & co. build their indexes: what we free, they get
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if not (self.config.enabled and self.site and self.assembled):
            return
        self._finish_listings()
        self._publish(Path(config.site_dir), self.site, self.assembled)
        self._keep_pages()
        self.pages, self.records, self.assembled = {}, {}, None  # every page is written
        release_freed_memory()  # the index builds after us see it free (the build's peak)

    def _publish(self, site_dir: Path, site: SiteRecord, assembled: Assembled) -> None:
        """Write the views and the site files, and say what was written."""
        try:
            published = publish(
                site_dir, site, assembled.records, settings=self._publish_settings(),
                generator=f"agentprose {__version__} ({_tool()})",
                llms_sections=assembled.llms_sections,
            )
        except AgentproseError as error:
            raise PluginError(f"agentprose: {error}") from error
        notes = assembled.diagnostics + published.diagnostics
        _log(notes + (self.last_changed.notes() if self.last_changed else []),
             self.settings.quiet)
        log.info("%d agent views, %d files written", len(published.pages), len(published.files))

    def _keep_pages(self) -> None:
        """What the next dirty build does not render again: in this process (serve) and
        in the cache folder (the next ``mkdocs build --dirty``)."""
        if self.dirty:
            self._refresh_unrendered()
            self.last_pages, self.last_records = self.pages, self.records
        # Only a build into the site folder is what a later `build --dirty` starts from;
        # serve's reloads keep their pages in memory (above), at no cost per reload.
        if self.page_store is not None and not self.partial and not self.serving:
            self.page_store.save(self.pages)

    def _shown(self, html: str, page: Page) -> str:
        """The page's content as the theme shows it: Material writes the page's title
        as its ``<h1>`` when the content has none."""
        if not self.titles_shown or "<h1" in html:
            return html
        return f"<h1>{escape(str(page.title or ''))}</h1>\n{html}" if page.title else html

    def _take_finished_content(self, files: Files) -> set[str]:
        """Take each page's HTML as other plugins left it in ``on_env`` (autorefs
        resolves cross-references there), and hand the pages it changed to the workers
        again; the URLs of the changed pages no worker converts."""
        changed = set()
        for file in files.documentation_pages():
            collected = self.pages.get(file.src_uri)
            content = file.page.content if file.page is not None else None
            if collected is None or content is None or file.page is None:
                continue
            shown = self._shown(content, file.page)
            if shown != collected.content_html or file.src_uri in self.held:
                self.pages[file.src_uri] = replace(collected, content_html=shown)
                # MkDocs' process then never loads the converter: it stays as small
                # as a bare build's, and the idle workers convert these pages.
                if self.background is None or not self.background.submit(
                        shown, page_url=collected.url,
                        source_markdown=collected.source_markdown):
                    changed.add(collected.url)
        self.held = set()
        return changed

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
        """The settings to publish with: without the site files after a dirty build
        that rendered pages this process never had the others of (they would list only
        the changed pages)."""
        if not self.partial:
            return self.settings
        log.info("agentprose: a dirty build renders only the pages changed since the last "
                 "one, and this process has not seen the others: agentprose.json, llms.txt "
                 "and llms-full.txt are left as they were (a build without --dirty writes "
                 "them).")
        return replace(self.settings, index=False, llms_txt=False, llms_full_txt=False,
                       host="none")

    def on_build_error(self, *, error: Exception) -> None:
        self.background = None
        self._close_pool()  # its workers may be busy with pages of the failed build

    def on_shutdown(self) -> None:
        self._close_pool()

    def _close_pool(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    def _cache(self, config: MkDocsConfig) -> ConversionCache | None:
        if not self.settings.cache:
            return None
        return ConversionCache(Path(config.config_file_path).parent / ".cache" / "agentprose")

    def _collect(self, page: Page, html: str) -> CollectedPage:
        source = Path(page.file.abs_src_path) if page.file.abs_src_path else None
        markdown = self.sources.pop(page.file.src_uri, "")
        return CollectedPage(
            url=self.base_url + page.url,
            source=page.file.src_uri,
            content_html=html,
            metadata=_metadata(page),
            lists=tuple(self.base_url + post.url for post in _listed(page)),
            tool_title=page.title,
            source_file=source,
            included=self._included(page, source),
            section=self._section(page),
            in_nav=page.file.src_uri in self.in_nav,
            source_markdown=markdown,
        )

    def _included(self, page: Page, source: Path | None) -> tuple[Path, ...]:
        """The files the page pulls in and the code it documents, from its source as the
        author wrote it: a plugin (include-markdown, macros) may have replaced the
        include by the time agentprose sees the page's Markdown."""
        written = _source_text(page)
        return included_files(written, page_file=source, docs_dir=self.docs_dir,
                              search=self.include_dirs) \
            + documented_modules(written, folders=self.module_dirs)

    def _take_unrendered(self, files: Files) -> bool:
        """Give the pages a dirty build did not render (unchanged since it last wrote
        them) what the last build collected of them (this process's, else the one kept
        in the cache folder), with their place in today's nav. False when that build
        did not have one of them either."""
        self.unrendered = {}
        for file in files.documentation_pages():
            if file.src_uri in self.pages or file.page is None:
                continue
            if not self.last_pages and self.page_store is not None:
                self.last_pages = self.page_store.load()  # a new process: the last build's
            last = self.last_pages.get(file.src_uri)
            if last is None:
                return False
            self.pages[file.src_uri] = replace(
                last, section=self._section(file.page), in_nav=file.src_uri in self.in_nav)
            self.unrendered[file.src_uri] = Path(file.abs_dest_path)
        return True

    def _hand_over_unrendered(self) -> None:
        """The pages a dirty build did not render go where the rendered ones went: their
        conversions were cached under the workers' key, which an in-process conversion
        would miss (and convert again, in MkDocs' process)."""
        if self.background is None:
            return
        for src in self.unrendered:
            page = self.pages[src]
            self.background.submit(page.content_html, page_url=page.url,
                                   source_markdown=page.source_markdown)

    def _refresh_unrendered(self) -> None:
        """The head tags of the pages a dirty build did not write, where their record
        changed since (a commit moved a date, a neighbour came): MkDocs leaves the page."""
        assert self.site is not None
        for src, page in self.unrendered.items():
            record = self.records.get(self.pages[src].url)
            if record is None or record == self.last_records.get(record.url) \
                    or not page.is_file():
                continue
            try:
                update_in_place(page, partial(redecorate_page, page=record, site=self.site,
                                              settings=self.settings))
            except AgentproseError as error:
                _log([Diagnostic("head", f"agentprose: the <head> of {page} was not brought up "
                                         f"to date: {error}")], self.settings.quiet)

    @staticmethod
    def _section(page: Page) -> tuple[str, ...]:
        # Sections only: Material's blog makes a post's parent its blog's index page.
        ancestors = [item.title for item in reversed(list(page.ancestors))
                     if getattr(item, "is_section", False)]
        return tuple(str(title) for title in ancestors if title)

    def _reading_order(self) -> list[CollectedPage]:
        listed = [self.pages[src] for src in self.order if src in self.pages]
        rest = [page for src, page in sorted(self.pages.items()) if src not in self.in_nav]
        return with_listed(listed + [self._out_of_nav(page) for page in rest])

    @staticmethod
    def _out_of_nav(page: CollectedPage) -> CollectedPage:
        return page if not page.in_nav else CollectedPage(**{**page.__dict__, "in_nav": False})


