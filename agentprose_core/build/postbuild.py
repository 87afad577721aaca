"""``agentprose build``: every agent output for a site some other tool already built.

Works on the files alone (Zensical, Hugo, Jekyll, Docusaurus, plain HTML): the main
content and the metadata come from each page, ``modified`` from the page's metadata,
else from git, else from the file's modification time (with a warning).
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from agentprose_core.build.conflicts import foreign_llms_files
from agentprose_core.build.readpages import Found, Run, read_pages
from agentprose_core.convert.fragment import Conversion
from agentprose_core.diagnostics import Diagnostic, unique
from agentprose_core.errors import InputError
from agentprose_core.extract.builtsite import (
    find_pages,
    page_url_for,
    source_of,
)
from agentprose_core.extract.content import fallbacks_together
from agentprose_core.extract.navorder import NavEntry, linked_order
from agentprose_core.extract.page import has_view
from agentprose_core.files import update_in_place
from agentprose_core.model import PageRecord, SiteRecord
from agentprose_core.output.publish import publish, write_view
from agentprose_core.parallel.policy import worker_count
from agentprose_core.parallel.pool import (
    WorkerPool,
    WorkerState,
    remember,
    run_all_while,
)
from agentprose_core.parallel.speculative import changed_keys
from agentprose_core.records.dates import LastChanged
from agentprose_core.records.metadata import PageFacts, head_facts, read_metadata
from agentprose_core.records.page import make_record, neighbours
from agentprose_core.records.scopes import site_scopes
from agentprose_core.records.site import exclusion, is_excluded, left_out_note
from agentprose_core.render.decorate import redecorate_page
from agentprose_core.render.index import check_pages
from agentprose_core.urls import (
    NO_VIEW,
    base_url_of,
    is_on_site,
    output_path,
    page_key,
    site_map,
    view_collisions,
)
from agentprose_core.version import __version__

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from pathlib import Path

    from agentprose_core.settings import Settings

__all__ = ["BuildResult", "build_site"]

@dataclass
class BuildResult:
    """What :func:`build_site` did: pages, bytes and files written, and what to say."""

    pages: int = 0
    bytes_written: int = 0
    files: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _check_inputs(site_dir: Path, base_url: str) -> str:
    if not site_dir.exists():
        raise InputError(f"No such directory: {site_dir}. Give the folder of the built site.")
    if not site_dir.is_dir():
        raise InputError(f"{site_dir} is not a directory. Give the folder of the built site.")
    return base_url_of(base_url)


def _stage(progress: Callable[[str, int, int], None] | None, stage: str,
           total: int) -> Callable[[int], None] | None:
    """``progress`` told of the pages done so far in ``stage``, out of ``total``."""
    if progress is None:
        return None
    return lambda count: progress(stage, count, total)


def _site_record(found: Sequence[Found], base: str, settings: Settings) -> SiteRecord:
    home = next((f for f in found if f.url == base), found[0] if found else None)
    meta = home.extracted.meta if home else None
    # Themes name the site on every page; the most common name wins over one odd page.
    names = Counter(f.extracted.meta.site_name for f in found if f.extracted.meta.site_name)
    name = (names.most_common(1)[0][0] if names else None) or (meta.title if meta else None)
    description = settings.site_description or (meta.description if meta else None)
    return SiteRecord(
        name=name or base.split("//", 1)[-1].rstrip("/"),
        url=base,
        description=description,
        lang=meta.lang if meta else None,
    )


def _sections(found: Sequence[Found], base: str) -> dict[str, tuple[str, ...]]:
    """Each page's section: its top-level folder, named by that folder's index page.

    Pages at the top of the site (the home page, ``about.html``) and folders of a single
    page (``about/``) have none.
    """
    titles = {f.url: f.extracted.meta.title for f in found}
    folders = Counter(f.url[len(base):].split("/")[0] for f in found if "/" in f.url[len(base):])
    sections: dict[str, tuple[str, ...]] = {}
    for page in found:
        parts = page.url[len(base):].split("/")
        if len(parts) < 2 or folders[parts[0]] < 2:
            sections[page.url] = ()
            continue
        top = base + parts[0] + "/"
        sections[page.url] = (titles.get(top) or parts[0].replace("-", " ").title(),)
    return sections


def build_site(
    site_dir: Path,
    *,
    base_url: str,
    settings: Settings,
    dry_run: bool = False,
    source_dir: Path | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    version: str | None = None,
) -> BuildResult:
    """Write every agent output for the built site in ``site_dir``.

    ``source_dir`` is the docs folder the site was built from (MkDocs layout): pages take
    ``modified`` from the git history of their source file there. ``progress(stage, done,
    total)`` is called as each page is ``"read"`` (and converted), then ``"written"``.
    ``version``: the site is that version of a versioned site (mike's folder), which
    every view names.
    """
    base = _check_inputs(site_dir, base_url)
    relatives = find_pages(site_dir, settings.exclude)
    if not relatives:
        raise InputError(f"No HTML pages in {site_dir}: is it the folder of the built site?")
    # Pages an exclude glob leaves out: links to them lose their link.
    left_out = sorted(set(find_pages(site_dir)) - set(relatives)) if settings.exclude else []
    result = BuildResult(diagnostics=foreign_llms_files(site_dir, settings))
    pool = _pool(len(relatives), settings)
    try:
        return _build(site_dir, relatives, base, settings, result, pool=pool,
                      dry_run=dry_run, source_dir=source_dir, progress=progress, version=version,
                      left_out={page_key(page_url_for(r, base)): NO_VIEW for r in left_out})
    finally:
        if pool is not None:
            pool.close()


def _pool(pages: int, settings: Settings) -> WorkerPool | None:
    """Worker processes for a site worth them: all CPUs (this process mostly waits)."""
    workers = worker_count(pages, enabled=settings.workers, tool_busy=False)
    return WorkerPool(workers) if workers else None


def _build(site_dir: Path, relatives: Sequence[str], base: str, settings: Settings,
           result: BuildResult, *, pool: WorkerPool | None, dry_run: bool,
           source_dir: Path | None, progress: Callable[[str, int, int], None] | None,
           left_out: Mapping[str, str], version: str | None) -> BuildResult:
    # Every page's view URL, as if each had a view: the conversions start with it, and
    # the few that looked up a page found to have none are made again.
    every_view = {**left_out, **site_map((page_url_for(r, base) for r in relatives), base,
                                         settings.view_layout)}
    run = Run(site_dir, base, settings, source_dir, every_view)
    read = read_pages(relatives, run, pool, done=_stage(progress, "read", len(relatives)))
    paths = {f.url: f.relative for f in read}
    facts = _facts(read)
    opted_out = {page_key(f.url): NO_VIEW for f in read
                 if f.url in facts and is_excluded(facts[f.url], f.relative, ())}
    found, nav_sections = _in_nav_order(
        [f for f in read if has_view(f.extracted) and page_key(f.url) not in opted_out],
        read[0].nav)
    result.diagnostics.extend(left_out_note(_no_view_reasons(read, facts)))
    result.diagnostics.extend(fallbacks_together(
        [d for page in found for d in page.extracted.diagnostics], len(found)))
    urls = [f.url for f in found]
    views = {**left_out, **opted_out, **site_map(urls, base, settings.view_layout)}
    result.diagnostics.extend(Diagnostic("view-collision", message)
                              for message in view_collisions(urls, base, settings.view_layout))
    site = _site_record(found, base, settings)
    conversions = _conversions(found, run, views, pool)
    records = _records(site_dir, found, conversions, base=base, views=views, site=site,
                       result=result, source_dir=source_dir, nav_sections=nav_sections,
                       facts=facts)
    site = dataclasses.replace(site, scopes=site_scopes(records, base, settings))
    if version:  # one version of a versioned site: every view says which
        records = [dataclasses.replace(record, version=version) for record in records]
    generator = f"agentprose {__version__} (cli)"
    if dry_run:
        published = publish(site_dir, site, records, settings=settings, generator=generator,
                            dry_run=True)
    else:
        # The workers write each page's view and update its head while this process
        # writes the site files.
        kept, _ = check_pages(site, records)
        run = dataclasses.replace(run, site=site)
        if pool is not None:
            pool.broadcast(remember, run)
        result.files.extend(output_path(record.markdown_url, base) for record in kept)
        written, published = run_all_while(
            pool, _write_page, [(paths[record.url], record) for record in kept],
            lambda: publish(site_dir, site, records, settings=settings, generator=generator,
                            views=False),
            state=WorkerState(run), done=_stage(progress, "written", len(kept)),
        )
        result.bytes_written += sum(written)
    result.diagnostics.extend(published.diagnostics)
    result.files.extend(published.files)
    result.bytes_written += published.bytes_written
    result.pages = len(published.pages)
    result.diagnostics = unique(result.diagnostics)
    return result


def _facts(read: Sequence[Found]) -> dict[str, PageFacts]:
    """What each page's source front matter says (``--source``), by page URL."""
    return {f.url: read_metadata(f.source_meta, location=f.relative)
            for f in read if f.source_meta is not None}


def _modified(dates: LastChanged, dated: Path, revision_date: str | None) -> str:
    """A page's ``modified`` when its metadata has none: the last commit of its file,
    else what the git-revision-date plugin wrote into the page (its reading of a history
    we do not have), else :meth:`LastChanged.of` (the newest commit, or the file's time)."""
    return dates.committed(dated) or revision_date or dates.of(dated)


def _dated_file(site_dir: Path, relative: str, source_dir: Path | None) -> Path:
    """The file whose history dates a page: its source when known, else the built file."""
    source = source_of(relative, source_dir) if source_dir else None
    return source or site_dir / relative


def _in_nav_order(
    found: list[Found], nav: Sequence[NavEntry]
) -> tuple[list[Found], dict[str, tuple[str, ...]] | None]:
    """Pages in the order of the site's rendered navigation, when it has one.

    Returns the pages (those in the nav first) and each nav page's sections by page key,
    or the pages as they were and None for sites whose navigation we cannot read.
    """
    if not nav:  # the pages' own prev/next links, where they have them
        return _linked(found), None
    by_key = {page_key(f.url): f for f in found}
    ordered = [by_key[key] for key, _ in nav if key in by_key]
    listed = {id(f) for f in ordered}
    rest = [f for f in found if id(f) not in listed]
    sections = {key: section for key, section in nav if key in by_key}
    return ordered + rest, sections


_NO_VIEW_WORDS = {"redirect": "a redirect", "noindex": "noindex", "not-found": "404 page",
                  "search": "search page", "index": "an index", "template": "a template"}


def _no_view_reasons(read: Sequence[Found], facts: Mapping[str, PageFacts]) -> dict[str, str]:
    """Why each page that gets no view gets none (pages without content are warned of
    already)."""
    reasons = {}
    for page in read:
        why = _NO_VIEW_WORDS.get(page.extracted.no_view or "") if not has_view(
            page.extracted) else (exclusion(facts[page.url], page.relative, ())
                                  if page.url in facts else None)
        if why:
            reasons[page.relative] = why
    return reasons


def _key_of(url: str | None) -> str | None:
    return page_key(url) if url else None


def _linked(found: list[Found]) -> list[Found]:
    """The pages in the order of their ``<link rel="prev|next">`` (as given without)."""
    if not any(f.extracted.meta.prev or f.extracted.meta.next for f in found):
        return found
    by_key: dict[str, list[Found]] = {}
    for f in found:
        by_key.setdefault(page_key(f.url), []).append(f)
    order = linked_order([(key, _key_of(pages[0].extracted.meta.prev),
                           _key_of(pages[0].extracted.meta.next))
                          for key, pages in by_key.items()])
    return [f for key in order for f in by_key[key]]


def _conversions(found: Sequence[Found], run: Run, views: dict[str, str],
                 pool: WorkerPool | None) -> list[tuple[Conversion, str]]:
    """Each page's conversion and summary: the ones made while reading when the final
    site map agrees on every page the conversion looked up, else made again with it."""
    changed = changed_keys(run.views, views)
    kept = {f.url: (f.converted.conversion, f.summary) for f in found
            if f.converted is not None and f.converted.holds(changed)}
    redo = [f.relative for f in found if f.url not in kept]
    if redo:
        for page in read_pages(redo, dataclasses.replace(run, views=views), pool, first_nav=False):
            kept[page.url] = (page.converted.conversion if page.converted
                              else Conversion("", ()), page.summary)
    return [kept[f.url] for f in found]


def _records(
    site_dir: Path,
    found: Sequence[Found],
    conversions: Sequence[tuple[Conversion, str]],
    *,
    base: str,
    views: dict[str, str],
    site: SiteRecord,
    result: BuildResult,
    source_dir: Path | None,
    nav_sections: dict[str, tuple[str, ...]] | None,
    facts: Mapping[str, PageFacts],
) -> list[PageRecord]:
    modified = LastChanged(source_dir or site_dir)
    sections = nav_sections if nav_sections is not None else _sections(found, base)
    around = neighbours([f.url for f in found
                         if nav_sections is None or page_key(f.url) in nav_sections])
    records = []
    for page, (conversion, summary) in zip(found, conversions, strict=True):
        result.diagnostics.extend(conversion.diagnostics)
        meta = page.extracted.meta
        if meta.canonical and not is_on_site(meta.canonical, base):
            result.diagnostics.append(Diagnostic(
                "foreign-canonical",
                f"the page names {meta.canonical} as canonical, off this site: its agent "
                f"view cites {page.url} instead.", page.relative,
            ))
        prev, next_ = around.get(page.url, (None, None))
        dated = _dated_file(site_dir, page.relative, source_dir)
        records.append(make_record(
            url=page.url, markdown_url=views[page_key(page.url)], conversion=conversion,
            facts=head_facts(meta, facts.get(page.url), site), tool_title=meta.title,
            untitled=page.relative, summary=summary,
            modified=partial(_modified, modified, dated, meta.revision_date),
            section=sections.get(page_key(page.url) if nav_sections else page.url, ()),
            prev=prev, next=next_, lang=meta.lang, in_nav=page.url in around,
        ))
    result.diagnostics.extend(modified.notes())
    return records


def _write_page(state: WorkerState, relative: str, record: PageRecord) -> int:
    """Write the page's agent view and add its head tags; a worker's task."""
    run = state.get(Run)
    written = write_view(run.site_dir, record, run.base, run.settings)
    site, settings = run.site, run.settings
    assert site is not None  # the run is sent again with it before the pages are written
    page = run.site_dir / relative
    before = page.stat()
    changed = update_in_place(page, lambda document: redecorate_page(document, record, site,
                                                                     settings))
    if changed:  # the page's time stays the build's: without sources, it dates the page
        os.utime(page, ns=(before.st_atime_ns, before.st_mtime_ns))
    return written + changed
