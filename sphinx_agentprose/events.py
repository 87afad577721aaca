"""The event handlers: plan in the main process, write each page where Sphinx writes it,
assemble the site files at the end.

- ``env-get-outdated`` (main process, before reading): the worker of a serial build
  or of a rebuild starts, warming up while Sphinx reads.
- ``env-updated`` (main process, after reading): settings, reading order, which pages
  get a view, and git dates, all inherited by forked writer processes under ``-j``.
- ``html-page-context`` (main or writer process): hand the page to the worker and put
  a marker where its head tags go (main process, with a worker:
  :mod:`agentprose_core.build.deferred`), or
  convert it here; either way its agent view and record (JSON under the doctree dir)
  are written and its head gets the ``<link>`` tags
  (:mod:`agentprose_core.build.pagewise`).
- ``html-collect-pages`` (main process, every page written, the pages other
  extensions generate too: it runs after theirs): the worker fills in the last heads
  and starts on the site files (:mod:`agentprose_core.build.sitefiles`) while Sphinx finishes.
- ``build-finished`` (main process): the worker's last answers, then the site files,
  from the worker or made now: load every page's record, the unchanged ones from
  earlier builds included, bring prev/next up to date, drop deleted pages, and write
  ``agentprose.json``, ``llms.txt`` and ``llms-full.txt``.
"""

from __future__ import annotations

import itertools
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote, unquote

from sphinx.errors import ExtensionError
from sphinx.util import logging

from agentprose_core.build.deferred import DeferredPages, start_worker
from agentprose_core.build.incremental import LastChanged, remember_head
from agentprose_core.build.pagewise import (
    ConversionCache,
    HeadFill,
    PageJob,
    RecordStore,
    SitePages,
    marker,
    read_metadata,
    write_page,
)
from agentprose_core.build.plan import left_out_reason, plan_views
from agentprose_core.build.sitejob import ListingPage, SiteJob, ours
from agentprose_core.errors import AgentproseError
from agentprose_core.languages import language_location
from agentprose_core.model import SiteRecord
from agentprose_core.version import __version__

from .blogs import listing_pages, page_metadata
from .builders import skip_reason
from .config import build_lang, checked_languages, checked_location, checked_settings
from .order import reading_order
from .plan import Plan, plan_of
from .refresh import content_files, media_files, outdated_pages, page_modified

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from agentprose_core.build.deferred import Note
    from agentprose_core.diagnostics import Diagnostic

__all__ = [
    "build_finished",
    "builder_inited",
    "doctree_resolved",
    "env_updated",
    "html_collect_pages",
    "html_page_context",
]

logger = logging.getLogger(__name__)
T = TypeVar("T")


def _log(diagnostics: Iterable[Diagnostic], docname: str | None = None) -> None:
    for diagnostic in dict.fromkeys(diagnostics):
        where = docname  # site-wide notes carry a folder, which Sphinx would take for a doc
        if diagnostic.severity == "warning":
            logger.warning(diagnostic.message, type="agentprose", subtype=diagnostic.code,
                           location=where)
        else:
            logger.info(diagnostic.message, location=where)


def builder_inited(app: Sphinx) -> None:
    """Start a plan when this builder writes views (html, dirhtml) and the options hold."""
    settings = checked_settings(app)  # a mistake was reported at config-inited
    if settings is None or not settings.enabled:
        return
    skipped = skip_reason(app.builder)
    if skipped:
        logger.info("agentprose: %s", skipped)
        return
    location = checked_location(app)
    if location is None:
        return
    location = language_location(location, settings.languages, build_lang(app.config, location))
    app.agentprose_plan = Plan(  # type: ignore[attr-defined]
        settings=settings, base_url=location.base_url, location=location,
        records=RecordStore(Path(app.doctreedir) / "agentprose"),
        last_changed=LastChanged(Path(app.srcdir), _cache_dir(app) if settings.cache else None),
        languages=checked_languages(app, settings, location),
    )


def _start_worker(plan: Plan, pages: int) -> None:
    plan.pool = start_worker(plan.settings, pages)


def _page_url(app: Sphinx, plan: Plan, docname: str) -> str:
    # Sphinx gives the path as written (spaces, accents): a URL needs it percent-encoded.
    # (the html builder quotes it already, dirhtml does not: quoted once either way)
    return plan.base_url + quote(unquote(app.builder.get_target_uri(docname)), safe="/#")


def _source(env: BuildEnvironment, docname: str) -> str:
    return str(env.doc2path(docname, False))


def _left_out(env: BuildEnvironment, docname: str, plan: Plan) -> str | None:
    """Why the document gets no view, or None."""
    return left_out_reason(env.metadata.get(docname), lambda: _source(env, docname),
                           patterns=plan.settings.exclude, location=docname)


def env_updated(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Every document is read: plan the views, start dating the pages, and the worker."""
    plan = plan_of(app)
    if plan is None:
        return []
    plan.order = reading_order(env, app.config.root_doc)
    plan.listings = listing_pages(app)
    _plan_views(app, env, plan)
    _start_dating(app, env, plan)
    if plan.settings.cache:
        plan.cache = ConversionCache(_cache_dir(app))
    plan.pages = SitePages.of(Path(app.outdir), base_url=plan.base_url, settings=plan.settings,
                              site=_site(app, plan), site_map=plan.site_map,
                              cache=plan.cache, records=plan.records)
    # A first build that writes serially leaves a CPU idle, if there is one: the worker
    # converts there (started at env-get-outdated, unless every page is generated).
    if plan.pool is None and not plan.rebuild and app.parallel <= 1:
        _start_worker(plan, len(plan.views))
    if plan.pool is not None:
        fill = HeadFill(marker(secrets.token_hex(8)), app.config.html_output_encoding)
        plan.deferred = DeferredPages(plan.pool, plan.pages, fill)
    return []


def _start_dating(app: Sphinx, env: BuildEnvironment, plan: Plan) -> None:
    """Name the files the pages' dates come from: one git pass covers those outside
    the source folder too."""
    if plan.last_changed is None:
        return
    srcdir = Path(app.srcdir)
    plan.media = media_files(env)
    plan.last_changed.expect(srcdir / dependency for doc in plan.views
                             for dependency in content_files(env, doc, plan.media))
    # A first build dates every page: git reads the history while Sphinx pickles the
    # environment. Not beside -j, whose writers are forked (a fork has no thread).
    if not plan.rebuild and app.parallel <= 1:
        plan.last_changed.start()


def _plan_views(app: Sphinx, env: BuildEnvironment, plan: Plan) -> None:
    """Which documents (and generated listings) get a view, the site map, and prev/next
    in toctree order."""
    urls = {docname: _page_url(app, plan, docname)
            for docname in (*plan.order.docs, *plan.listings)}
    reasons = {docname: why for docname in urls
               if (why := _left_out(env, docname, plan)) is not None}
    try:
        planned = plan_views(urls, reasons, sources={doc: _source(env, doc) for doc in reasons},
                             nav=plan.order.docs, in_nav=plan.order.in_toctree,
                             sections=plan.order.sections, base_url=plan.base_url,
                             settings=plan.settings)
    except AgentproseError as error:
        raise ExtensionError(f"agentprose: {error}") from error
    _log(planned.diagnostics)
    plan.site_map, plan.views = planned.site_map, planned.views
    plan.neighbours, plan.scopes = planned.neighbours, planned.scopes


def _cache_dir(app: Sphinx) -> Path:
    return Path(app.doctreedir) / "agentprose-cache"


def env_get_outdated(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
                     removed: set[str]) -> list[str]:
    """The documents to read again though their files did not change."""
    # Pages whose view links one removed, or whose date a commit moved: Sphinx reads
    # and writes them again, as if they had changed.
    plan = plan_of(app)
    if plan is None:
        return []
    outdated = outdated_pages(app, plan, env, changed | added, removed)
    # The worker starts now, while Sphinx reads, so that it is warm when Sphinx writes:
    # on a rebuild of a site we know (the one page an edit changed too: the worker then
    # writes the site files while Sphinx finishes), and on a first build that writes
    # serially.
    if env.all_docs:
        plan.rebuild = True
        _start_worker(plan, len(added | changed | set(outdated)))
    elif app.parallel <= 1:
        _start_worker(plan, len(added))
    return outdated


def _job(app: Sphinx, plan: Plan, docname: str, context: dict[str, Any]) -> PageJob:
    facts = read_metadata(page_metadata(app, docname), location=docname)
    title = app.env.titles.get(docname)
    prev, next_ = plan.neighbours.get(docname, (None, None))
    url = _page_url(app, plan, docname)
    return PageJob(
        docname=docname, body=str(context.get("body", "")),
        url=url, markdown_url=plan.views[docname], facts=facts,
        tool_title=title.astext() if title is not None else None,
        modified=None if facts.modified else page_modified(app, plan, docname),
        section=plan.order.sections.get(docname, ()), prev=prev, next=next_,
        lang=_lang(app, plan),
        in_nav=docname in plan.order.in_toctree, metatags=str(context.get("metatags", "")),
        canonical=plan.location.canonical_of(url), version=plan.location.version,
        translations=plan.languages.translations_of(url, plan.base_url) if plan.languages
        else (),
    )


def doctree_resolved(app: Sphinx, doctree: Any, docname: str) -> None:
    """Note that this build writes ``docname``."""
    # In Sphinx's process for every document it writes, -j included (writer processes
    # get resolved doctrees): which pages are written is known only by then.
    plan = plan_of(app)
    if plan is not None:
        plan.written.add(docname)


def html_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Write the page's view and record (here, or in the worker) and add its head tags."""
    plan = plan_of(app)
    if plan is None or pagename not in plan.views:
        return
    if doctree is None:
        _note_listing(app, plan, pagename, context)
        return
    job = _job(app, plan, pagename, context)
    # Runs after other extensions (sphinxext-opengraph): what they wrote is not repeated.
    tags = _hand_over(app, plan, job)
    if tags is None:
        assert plan.pages is not None
        outputs = _guarded(write_page, plan.pages, job)
        _log(outputs.diagnostics, pagename)
        tags = outputs.tags
    if tags:
        context["metatags"] = f"{job.metatags}\n{tags}\n"


def _note_listing(app: Sphinx, plan: Plan, pagename: str, context: dict[str, Any]) -> None:
    """A page an extension generates to list posts: its view is made from the page as
    written, with the site files."""
    if pagename not in plan.listings:
        return
    title = context.get("title")
    plan.listing_pages[pagename] = ListingPage(
        docname=pagename, page=Path(app.builder.get_outfilename(pagename)),  # type: ignore[attr-defined]
        url=_page_url(app, plan, pagename), markdown_url=plan.views[pagename],
        title=str(title) if title else None, listed=plan.listings[pagename],
        lang=_lang(app, plan),
    )


def _hand_over(app: Sphinx, plan: Plan, job: PageJob) -> str | None:
    """Send the page to the worker, if there is one here; the marker its head then
    holds until the worker fills it in, else None."""
    if plan.deferred is None:
        return None
    page = Path(app.builder.get_outfilename(job.docname))  # type: ignore[attr-defined]
    tags, notes = _guarded(plan.deferred.hand_over, job, page)
    _log_notes(notes)
    return tags


def _guarded(function: Callable[..., T], *args: Any) -> T:
    try:
        return function(*args)
    except AgentproseError as error:
        raise ExtensionError(str(error)) from error


def _log_notes(notes: Iterable[Note]) -> None:
    # A page's notes together, so that _log says each of them once, as in-process.
    for docname, group in itertools.groupby(notes, key=lambda entry: entry[0]):
        _log([note for _, note in group], docname)


def _lang(app: Sphinx, plan: Plan) -> str | None:
    return build_lang(app.config, plan.location)


def _site(app: Sphinx, plan: Plan) -> SiteRecord:
    return SiteRecord(
        name=app.config.project or "Documentation", url=plan.base_url,
        description=plan.settings.site_description,
        lang=_lang(app, plan), scopes=plan.scopes,
        languages=plan.languages.listed(plan.base_url) if plan.languages else (),
    )


def html_collect_pages(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    """Generate no page; once every page is written, start on the site files."""
    # Sphinx writes the pages of each extension's handler in turn, and this one's
    # last (priority 900): when the generator runs, every page is written, ablog's
    # listings too. The worker fills in the last heads, then writes the site files
    # while Sphinx writes its indexes and copies its static files.
    yield from ()
    plan = plan_of(app)
    if plan is not None and plan.deferred is not None:
        if _extra_files_clash(app, plan):
            plan.deferred.all_written()
        else:
            plan.deferred.write_site_files(_site_job(app, plan))


def build_finished(app: Sphinx, exception: BaseException | None) -> None:
    """Write the site files (or take the worker's) and stop the worker."""
    plan = plan_of(app)
    if plan is None:
        return
    pool = plan.pool
    if plan.deferred is not None and exception is None:
        plan.deferred.all_written()  # if html-collect-pages did not run
    if pool is not None:
        pool.release()  # stops once its tasks are done
    try:
        if exception is None:
            notes = _site_files(app, plan)
            _log(notes + (plan.last_changed.notes() if plan.last_changed else []))
            remember_head(plan.records, plan.last_changed)
    finally:
        plan.pool = plan.deferred = None
        if pool is not None:
            pool.close()


def _site_files(app: Sphinx, plan: Plan) -> list[Diagnostic]:
    """The notes of the worker's last pages and of writing the site files: the
    worker's, or of writing them now (also when the worker failed, or failed a page
    after it had them: errors are raised here)."""
    if plan.deferred is not None:
        _log_notes(_guarded(plan.deferred.gather))
        notes = plan.deferred.site_notes()
        if notes is not None:
            logger.verbose("agentprose: site files written by the worker process")
            return notes
    from agentprose_core.build.sitefiles import finish_site  # only without a worker

    try:
        return finish_site(None, _site_job(app, plan))
    except AgentproseError as error:
        raise ExtensionError(f"agentprose: {error}") from error


def _site_job(app: Sphinx, plan: Plan) -> SiteJob:
    docs = tuple(doc for doc in plan.order.docs if doc in plan.views)
    listings = tuple(plan.listing_pages[doc] for doc in plan.listings
                     if doc in plan.listing_pages)  # in the extension's order
    written = [(doc, Path(app.builder.get_outfilename(doc)))  # type: ignore[attr-defined]
               for doc in docs if doc in plan.written]
    return SiteJob(
        outdir=Path(app.outdir), base_url=plan.base_url, settings=plan.settings,
        site=_site(app, plan), generator=f"agentprose {__version__} (sphinx)",
        records=plan.records, cache=plan.cache,
        docs=docs + tuple(listing.docname for listing in listings),
        sections=plan.order.sections, in_toctree=frozenset(plan.order.in_toctree),
        neighbours=plan.neighbours, prune_cache=plan.written.issuperset(docs),
        written=(*written, *((listing.docname, listing.page) for listing in listings)),
        theme=str(app.config.html_theme), listings=listings, site_map=plan.site_map,
        encoding=app.config.html_output_encoding,
    )


def _extra_files_clash(app: Sphinx, plan: Plan) -> bool:
    """True when ``html_extra_path`` holds a file Sphinx would copy over one of ours
    after ``html-collect-pages``: then ours are written at ``build-finished``, last."""
    for extra in app.config.html_extra_path:
        folder = Path(app.confdir) / extra
        names = [path.name for path in folder.iterdir()] if folder.is_dir() else [folder.name]
        if ours(names, plan.settings):
            return True
    return False
