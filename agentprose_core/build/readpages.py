"""The first pass of ``agentprose build``: each built page read, its content and
metadata extracted and converted with the run's site map (in the workers, when there
are some), its navigation read from the first page.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentprose_core.convert.fences import fences_of
from agentprose_core.convert.fragment import convert_element, convert_fragment
from agentprose_core.convert.tree import detached
from agentprose_core.extract.builtsite import MARKDOWN_SUFFIXES, page_url_for, source_of
from agentprose_core.extract.navorder import rendered_nav
from agentprose_core.extract.page import decode, has_view, parse_page, without_large_navs
from agentprose_core.parallel.pool import WorkerPool, WorkerState, remember, run_all
from agentprose_core.parallel.speculative import RecordingMap, Speculative
from agentprose_core.records.sources import Source, read_source
from agentprose_core.records.summaries import summarize
from agentprose_core.render.decorate import without_injected

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from pathlib import Path

    from agentprose_core.convert.fences import SourceFence
    from agentprose_core.convert.tree import Element
    from agentprose_core.extract.navorder import NavEntry
    from agentprose_core.extract.page import ExtractedPage
    from agentprose_core.model import Conversion, SiteRecord
    from agentprose_core.settings import Settings

__all__ = ["Found", "Run", "read_pages"]


@dataclass(frozen=True)
class Run:
    """What every page's task of one run shares: kept by each worker, and by this
    process for the tasks it does itself. ``views`` is the site map conversions use;
    ``site`` is known once every page is read."""

    site_dir: Path
    base: str
    settings: Settings
    source_dir: Path | None
    views: Mapping[str, str]
    site: SiteRecord | None = None


@dataclass(frozen=True)
class Found:
    """One built page after the first pass: its location, content and metadata."""

    relative: str
    url: str
    extracted: ExtractedPage
    converted: Speculative | None  # None for a page without a view
    nav: tuple[NavEntry, ...] = ()
    summary: str = ""  # of the conversion's Markdown, made in the worker that converted it
    source_meta: dict[str, Any] | None = None  # its source's front matter (--source)


def _read_page(state: WorkerState, relative: str, with_nav: bool) -> Found:
    """One built page, extracted and converted; a worker's task.

    Only the page asked for its nav (the first) is parsed whole: the others' large
    navigations are left out unparsed. The conversion uses the run's site map, which
    may still lose the pages found to have no view: the keys it looked up say whether
    it holds for the final map.
    """
    run = state.get(Run)
    settings = run.settings
    url = page_url_for(relative, run.base)
    source = _source(run.source_dir, relative)
    text = decode(without_injected((run.site_dir / relative).read_bytes()))
    parsed = text if with_nav else without_large_navs(text)
    extracted = parse_page(parsed, url=url, content_selector=settings.content_selector)
    nav: tuple[NavEntry, ...] = ()
    if with_nav and extracted.content is not None:
        nav = tuple(rendered_nav(extracted.content.getroottree().getroot(), url))
    converted, summary = None, ""
    if has_view(extracted):
        views = RecordingMap(run.views)
        conversion = _convert(extracted.content, url, views, settings,
                              fences_of(source.markdown) if source else ())
        converted = Speculative(conversion, frozenset(views.asked))
        summary = summarize(conversion.markdown)
    if source is not None and source.diagnostics:
        extracted = dataclasses.replace(
            extracted, diagnostics=extracted.diagnostics + source.diagnostics)
    return Found(relative, url, dataclasses.replace(extracted, content=None), converted, nav,
                  summary, source.meta if source else None)


def _source(source_dir: Path | None, relative: str) -> Source | None:
    """The Markdown source of a page, with ``--source``: what the MkDocs plugin reads
    (a reStructuredText source only dates the page)."""
    path = source_of(relative, source_dir) if source_dir else None
    return read_source(path, relative) if path and path.suffix in MARKDOWN_SUFFIXES else None


def _convert(content: Element | None, url: str, views: Mapping[str, str],
             settings: Settings, fences: Sequence[SourceFence] = ()) -> Conversion:
    """The page's content converted as the tree it already is (parsed from cleaned
    markup, as a plugin's fragment is)."""
    if content is None:
        return convert_fragment("", page_url=url, site_map=views, settings=settings)
    return convert_element(detached(content), page_url=url, site_map=views, settings=settings,
                           source_fences=fences)


def read_pages(relatives: Sequence[str], run: Run, pool: WorkerPool | None,
          *, first_nav: bool = True, done: Callable[[int], None] | None = None) -> list[Found]:
    """Each page read and converted with the run's site map; the first one's
    navigation read whole when ``first_nav`` (it gives the reading order). ``done(count)``
    is called as each page is."""
    if pool is not None:
        pool.broadcast(remember, run)
    calls = [(relative, first_nav and number == 0) for number, relative in enumerate(relatives)]
    return run_all(pool, _read_page, calls, state=WorkerState(run), done=done)
