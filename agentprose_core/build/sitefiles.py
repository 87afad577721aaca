"""The site files of a build whose pages were written one by one (Sphinx's): every
page's stored record brought up to date, then ``agentprose.json``, ``llms.txt`` and
``llms-full.txt``.

Sphinx's process makes them at ``build-finished`` when it has no worker; a build that
has one hands them to it at ``html-collect-pages`` instead, so that they are written
while Sphinx writes its indexes and copies its static files, and Sphinx's process never
imports this module (nor the renderers it stands on). Everything the work needs travels
in a :class:`~agentprose_core.build.sitejob.SiteJob`.

Pages an extension generates to list others (ablog's index, archive and tag pages)
have no document: Sphinx writes them from a template after every document. Their
views are made here from the pages as written
(:class:`~agentprose_core.build.sitejob.ListingPage`), before the site files, and dated
by the newest post they show.
"""

from __future__ import annotations

import contextlib
import dataclasses
from functools import partial
from typing import TYPE_CHECKING

from agentprose_core.build.listings import listing_conversion, with_listing
from agentprose_core.diagnostics import Diagnostic
from agentprose_core.errors import AgentproseError
from agentprose_core.files import safe_target, update_in_place
from agentprose_core.output.publish import publish, write_view
from agentprose_core.records.metadata import PageFacts
from agentprose_core.records.page import make_record
from agentprose_core.render.decorate import decorate_page
from agentprose_core.render.parts import PageParts
from agentprose_core.urls import output_path

if TYPE_CHECKING:
    from agentprose_core.build.sitejob import ListingPage, SiteJob
    from agentprose_core.model import PageRecord
    from agentprose_core.records.store import StoredRecords

__all__ = ["finish_site"]


def finish_site(_state: object, job: SiteJob) -> list[Diagnostic]:
    """Drop the views of documents gone or left out, bring every record up to date,
    write the site files and, after a build that wrote every page, prune the cache (an
    incremental build did not use the entries of the pages it left as they were);
    returns what the build should report. The first argument is a worker's state
    (unused: the job holds everything)."""
    _drop_stale(job)
    notes = _write_listings(job)
    stored = job.records.load_stored(job.docs)
    records = _records(job, stored)
    published = publish(job.outdir, job.site, list(records.values()), settings=job.settings,
                        generator=job.generator, views=False, parts=_kept_parts(stored))
    job.records.keep(stored, {docname: published.parts.get(record.url)
                              for docname, record in records.items()})
    _drop_stale_site_files(job, published.files)
    if job.cache is not None and job.prune_cache:
        job.cache.prune()
    summary = Diagnostic(
        "summary", f"agentprose: {len(published.pages)} agent views, "
        f"{len(published.pages) + len(published.files)} files written", severity="info")
    return [*notes, *published.diagnostics, *_decorate_written_pages(job, records), summary]


def _write_listings(job: SiteJob) -> list[Diagnostic]:
    """The views and records of the listing pages; a page that shows no content, or
    lists no post with a record, keeps none."""
    stored = job.records.load_all(job.docs) if job.listings else {}
    notes: list[Diagnostic] = []
    for listing in job.listings:
        listed = [stored[doc] for doc in listing.listed if doc in stored]
        made = _listing_record(job, listing, listed) if listed else None
        if made is None:
            view = job.outdir / output_path(listing.markdown_url, job.base_url)
            view.unlink(missing_ok=True)
            job.records.remove(listing.docname)
            continue
        record, diagnostics = made
        write_view(job.outdir, record, job.base_url, job.settings)
        job.records.save(listing.docname, record)
        notes.extend(diagnostics)
    return notes


def _listing_record(job: SiteJob, listing: ListingPage, listed: list[PageRecord],
                    ) -> tuple[PageRecord, tuple[Diagnostic, ...]] | None:
    """The record of a listing page made from the page as written, dated by the newest
    post it shows; None when the page can't be read or shows no content."""
    try:
        html = listing.page.read_text(job.encoding, errors="replace")
    except OSError:
        return None
    conversion = listing_conversion(html, page_url=listing.url, site_map=job.site_map,
                                    settings=job.settings)
    if conversion is None:
        return None
    newest = max(page.modified for page in listed)
    record = make_record(
        url=listing.url, markdown_url=listing.markdown_url, conversion=conversion,
        facts=PageFacts(), tool_title=listing.title, modified=lambda: newest,
        in_nav=False, lang=listing.lang, summary="")  # the first post's is not its own
    return with_listing(record, conversion, listed), conversion.diagnostics


def _decorate_written_pages(job: SiteJob, records: dict[str, PageRecord]) -> list[Diagnostic]:
    """What Sphinx's templates cannot put in the pages it wrote: the hint at the top of
    each body, and the head tags of pages whose theme left out ``metatags`` (the Pallets
    themes of Flask, Click and Jinja redefine the block), added before ``</head>``."""
    headless: list[str] = []
    for docname, page in job.written:
        record = records.get(docname)
        if record is None or not page.is_file():
            continue
        change = partial(_decorated, record=record, job=job, headless=headless, docname=docname)
        try:
            update_in_place(page, change)
        except AgentproseError as error:
            return [Diagnostic("head", f"The page's <head> tags were not added: {error}",
                               docname)]
    if not headless:
        return []
    return [Diagnostic(
        "head", f"The theme '{job.theme}' writes {len(headless)} page(s) without a </head> "
        f"(e.g. {headless[0]}): they have no discovery links nor JSON-LD. Use a theme that "
        "writes a <head>, or add the tags to its layout template.")]


def _decorated(document: bytes, *, record: PageRecord, job: SiteJob, headless: list[str],
               docname: str) -> bytes | None:
    if _HEAD_END not in document and _HEAD_END not in document.lower():
        headless.append(docname)
    return decorate_page(document, record, job.site, job.settings)


_HEAD_END = b"</head"


def _drop_stale(job: SiteJob) -> None:
    """Remove the views and records of documents that are gone or now left out."""
    keep = set(job.docs)
    for docname in job.records.docnames():
        if docname in keep:
            continue
        record = job.records.load(docname)
        (job.outdir / output_path(record.markdown_url, job.base_url)).unlink(missing_ok=True)
        job.records.remove(docname)


def _drop_stale_site_files(job: SiteJob, written: list[str]) -> None:
    """Remove the site files an earlier build wrote and this one did not (the
    ``llms.txt`` of a section that lost pages), and remember this build's."""
    for relative in set(job.records.last_site_files()) - set(written):
        with contextlib.suppress(AgentproseError, OSError):
            safe_target(job.outdir, relative).unlink(missing_ok=True)
    job.records.keep_site_files(written)


def _records(job: SiteJob, stored: StoredRecords) -> dict[str, PageRecord]:
    """Every page's record by docname, in reading order, with prev/next and sections as
    they are in this build (``stored`` is brought up to date)."""
    records = {}
    for docname in job.docs:
        if docname not in stored.records:
            continue
        record = _current(job, stored.records[docname], docname)
        if record != stored.records[docname]:  # a neighbour moved in the toctree
            write_view(job.outdir, record, job.base_url, job.settings)
            stored.replace(docname, record, job.records.save(docname, record))
        records[docname] = record
    return records


def _kept_parts(stored: StoredRecords) -> dict[str, PageParts]:
    """The parts of the site files the last build made from the records still current,
    by page URL."""
    return {stored.records[docname].url: parts for docname, parts in stored.kept.items()
            if isinstance(parts, PageParts)}


def _current(job: SiteJob, record: PageRecord, docname: str) -> PageRecord:
    """A stored record with the site-wide fields as they are in this build."""
    prev, next_ = job.neighbours.get(docname, (None, None))
    return dataclasses.replace(
        record, prev=prev, next=next_, section=job.sections.get(docname, ()),
        in_nav=docname in job.in_toctree,
    )
