"""Collect-then-assemble: the pages a build tool collected (MkDocs hands over every
page before it writes any) made into the site's records, in reading order.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from agentprose_core.parallel.cache import ConversionCache, convert_cached, site_digest
from agentprose_core.records.includes import (
    documented_modules,
    included_files,
    module_dirs,
    search_dirs,
)
from agentprose_core.records.metadata import PageFacts, read_metadata
from agentprose_core.records.page import make_record, neighbours
from agentprose_core.records.site import (
    exclusion,
    is_redirect_stub,
    left_out_note,
    site_views,
)
from agentprose_core.urls import page_key

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
    from pathlib import Path

    from agentprose_core.diagnostics import Diagnostic
    from agentprose_core.location import SiteLocation
    from agentprose_core.model import Conversion, PageRecord
    from agentprose_core.records.dates import LastChanged
    from agentprose_core.settings import Settings

__all__ = [
    "Assembled", "CollectedPage", "SiteSources", "build_records", "reading_order",
    "site_sources", "with_listed",
]


@dataclass(frozen=True)
class CollectedPage:
    """One page as the build tool rendered it, in reading order.

    ``url`` is the page's absolute URL; ``source`` its source path relative to the docs
    folder (for ``exclude`` globs and messages); ``source_file`` the file on disk (for
    git dates), if there is one, and ``included`` the files it pulls in (snippets,
    includes): its ``modified`` is the newest of them all. ``source_markdown`` is the
    page's Markdown source, if it has one, for the languages of its code blocks.
    ``lists`` are the URLs of the pages a generated page lists (a blog's index,
    archive or category lists its posts, newest first).
    """

    url: str
    source: str
    content_html: str
    metadata: Mapping[str, Any] = field(default_factory=dict)
    tool_title: str | None = None
    source_file: Path | None = None
    included: tuple[Path, ...] = ()
    lists: tuple[str, ...] = ()
    section: tuple[str, ...] = ()
    in_nav: bool = True
    source_markdown: str = ""
    lang: str | None = None  # the language of its text, when not the site's (a fallback)
    translations: tuple[tuple[str, str], ...] = ()  # (lang, page URL) in other languages


@dataclass(frozen=True)
class SiteSources:
    """Where a site's pages find what they pull in: ``include_dirs`` the folders of
    snippets and includes, ``module_dirs`` those of the code mkdocstrings documents."""

    docs_dir: Path
    include_dirs: tuple[Path, ...] = ()
    module_dirs: tuple[Path, ...] = ()

    def included(self, written: str, source: Path | None) -> tuple[Path, ...]:
        """The files a page whose source reads ``written`` pulls in, and the code it
        documents."""
        return included_files(written, page_file=source, docs_dir=self.docs_dir,
                              search=self.include_dirs) \
            + documented_modules(written, folders=self.module_dirs)

    def pulled_in(self, sources: Iterable[Path]) -> Iterator[Path]:
        """What the pages whose source files are ``sources`` pull in and document, read
        from the files (what :meth:`included` is asked for each page later), so that
        git's history covers it in one pass. A source that cannot be read gives none."""
        for source in sources:
            try:
                written = source.read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError):
                continue
            yield from self.included(written, source)


def site_sources(docs_dir: Path, *, config_dir: Path, snippets_base: object,
                 documents_code: bool, module_paths: object) -> SiteSources:
    """Where a site's pages find what they pull in, from the options as the user wrote
    them: the snippets' ``base_path`` and, on a site that documents code
    (mkdocstrings), its ``paths``, relative to the folder of the tool's configuration."""
    modules = module_dirs(module_paths, config_dir=config_dir) if documents_code else ()
    return SiteSources(docs_dir, search_dirs(snippets_base, config_dir=config_dir), modules)


@dataclass
class Assembled:
    """The site's records in reading order, the llms.txt sections asked for, notes, and
    the site map the pages were converted with (page key -> view URL)."""

    records: list[PageRecord]
    llms_sections: list[tuple[str, list[str]]]
    diagnostics: list[Diagnostic]
    site_map: Mapping[str, str] = field(default_factory=dict)


def _llms_sections(
    kept: Sequence[CollectedPage], settings: Settings
) -> list[tuple[str, list[str]]]:
    return [
        (title, [page.url for page in kept
                 if any(fnmatch.fnmatch(page.source, pattern) for pattern in patterns)])
        for title, patterns in settings.sections
    ]


def with_listed(pages: Sequence[CollectedPage]) -> list[CollectedPage]:
    """Reading order with the pages outside the nav that a nav page lists (a blog's
    posts) right after the first such page, in its order, in its section: they are
    read there (llms.txt's blog section, newest first; prev/next from post to post)."""
    by_url = {page.url: page for page in pages}
    placed: set[str] = set()
    ordered: list[CollectedPage] = []
    for page in pages:
        if page.url in placed:
            continue
        ordered.append(page)
        placed.add(page.url)
        if not page.in_nav:
            continue
        for url in page.lists:
            listed = by_url.get(url)
            if listed is not None and not listed.in_nav and url not in placed:
                ordered.append(replace(listed, in_nav=True, section=page.section))
                placed.add(url)
    return ordered


def reading_order(pages: Mapping[str, CollectedPage], nav: Sequence[str],
                  in_nav: Collection[str]) -> list[CollectedPage]:
    """The pages (by source) in reading order: the nav's (``nav``, by source), then the
    others by source, outside the nav, with the pages a nav page lists placed after it
    (:func:`with_listed`)."""
    listed = [pages[source] for source in nav if source in pages]
    rest = [replace(page, in_nav=False) if page.in_nav else page
            for source, page in sorted(pages.items()) if source not in in_nav]
    return with_listed(listed + rest)


def build_records(
    pages: Sequence[CollectedPage],
    *,
    base_url: str,
    settings: Settings,
    lang: str | None,
    last_changed: LastChanged,
    cache: ConversionCache | None = None,
    converted: Callable[[Mapping[str, str]], Mapping[str, Conversion]] | None = None,
    location: SiteLocation | None = None,
) -> Assembled:
    """Convert every page that gets a view and make its record, in reading order.

    Links between pages point to agent views only among the pages kept here, so an
    excluded page is not linked from any output. prev/next follow the pages in the nav.
    ``converted``, given the final site map, returns the pages already converted for
    it (by page URL), as :class:`~agentprose_core.parallel.speculative.BackgroundConversions` does.
    ``location`` names the pages' canonical URLs and version, where the hosting does.
    """
    notes: list[Diagnostic] = []
    kept: list[tuple[CollectedPage, PageFacts]] = []
    left_out: list[str] = []
    reasons: dict[str, str] = {}
    for page in pages:
        facts = read_metadata(page.metadata, location=page.source)
        notes.extend(facts.diagnostics)
        why = exclusion(facts, page.source, settings.exclude) or (
            "a redirect" if is_redirect_stub(page.content_html) else None)
        if why is None:
            kept.append((page, facts))
        else:
            left_out.append(page.url)
            reasons[page.source] = why
    notes.extend(left_out_note(reasons))
    views, collisions = site_views([p.url for p, _ in kept], left_out, base_url,
                                   settings.view_layout)
    notes.extend(collisions)
    digest = site_digest(views)
    around = neighbours([p.url for p, _ in kept if p.in_nav])
    ready = converted(views) if converted is not None else {}
    records = []
    for page, facts in kept:
        conversion = ready.get(page.url) or convert_cached(
            page.content_html, page_url=page.url, site_map=views, settings=settings,
            source_markdown=page.source_markdown, cache=cache, site=digest,
        )
        notes.extend(conversion.diagnostics)
        prev, next_ = around.get(page.url, (None, None))
        records.append(make_record(
            url=page.url,
            markdown_url=views[page_key(page.url)],
            conversion=conversion,
            facts=facts,
            tool_title=page.tool_title,
            modified=_modified_of(page, last_changed),
            section=page.section,
            prev=prev,
            next=next_,
            lang=page.lang or lang,
            in_nav=page.in_nav,
            translations=page.translations,
            canonical=location.canonical_of(page.url) if location else None,
            version=location.version if location else None,
        ))
    sections = _llms_sections([page for page, _ in kept], settings)
    return Assembled(records=records, llms_sections=sections, diagnostics=notes,
                     site_map=views)


def _modified_of(page: CollectedPage, last_changed: LastChanged) -> Callable[[], str]:
    """When the page last changed: the newest of its source and the files it includes."""
    if page.source_file is None:
        return last_changed.latest
    files = (page.source_file, *page.included)
    return lambda: last_changed.newest(files)
