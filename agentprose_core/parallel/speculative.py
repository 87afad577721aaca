"""Pages converted in worker processes while the build tool renders the rest.

MkDocs renders every page on one CPU before it calls ``on_env``; the other CPUs are
idle meanwhile. :class:`BackgroundConversions` hands each page's content to a worker
as soon as the tool has it, so that by ``on_env`` the pages are converted already and
the build waits for almost none of it.

Workers convert with the site map as it stands when the pages are handed over: every
page the tool will render. A page's front matter can still leave it out
(``agentprose: false``, ``draft: true``), which is only known once that page is
rendered. So each result records which page keys its links looked up, and
:meth:`BackgroundConversions.results` keeps only the results that no difference
between that site map and the final one can touch; the caller converts the rest.
Results are the same bytes an in-process conversion gives.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentprose_core.convert.fences import fences_of
from agentprose_core.parallel.cache import cache_key, site_digest
from agentprose_core.parallel.pool import WorkerPool, WorkerState, remember
from agentprose_core.parallel.wire import WiredTexts

if TYPE_CHECKING:
    from agentprose_core.model import Conversion
    from agentprose_core.parallel.cache import ConversionCache
    from agentprose_core.settings import Settings

__all__ = [
    "BackgroundConversions",
    "Build",
    "RecordingMap",
    "Speculative",
    "Task",
    "changed_keys",
    "conversion_pool",
    "convert_speculatively",
    "warm_up",
]

def conversion_pool(workers: int) -> WorkerPool | None:
    """``workers`` processes to convert pages, for one build or for every build of a
    ``serve`` session; None for none. They start when the first page is sent and end
    at :meth:`~.pool.WorkerPool.close`."""
    return WorkerPool(workers) if workers > 0 else None


class RecordingMap(Mapping[str, str]):
    """A site map that remembers every key asked of it."""

    def __init__(self, site_map: Mapping[str, str]) -> None:
        self._map = site_map
        self.asked: set[str] = set()

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        return self._map[key]

    def get(self, key: str, default: str | None = None) -> str | None:  # type: ignore[override]
        """The view URL of ``key``, remembering that it was asked."""
        self.asked.add(key)
        return self._map.get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._map)

    def __len__(self) -> int:
        return len(self._map)


@dataclass(frozen=True)
class Speculative:
    """A conversion made with a site map that may still change, and the keys it used.

    ``asked`` is None when they are not known (a cache hit): such a result holds only
    if the site map did not change at all.
    """

    conversion: Conversion
    asked: frozenset[str] | None

    def holds(self, changed: set[str]) -> bool:
        """True when the site map's ``changed`` keys leave this conversion as it is."""
        return not changed or (self.asked is not None and not self.asked & changed)


def changed_keys(old: Mapping[str, str], new: Mapping[str, str]) -> set[str]:
    """The page keys whose view URL differs between two site maps (or is in one only)."""
    return {key for key in set(old) | set(new) if old.get(key) != new.get(key)}


@dataclass(frozen=True)
class Build:
    """What every conversion of one build shares; sent once to each worker."""

    site_map: Mapping[str, str]
    settings: Settings
    cache: ConversionCache | None


@dataclass(frozen=True)
class Task(WiredTexts):
    """One page to convert; ``key`` is its cache key, if there is a cache."""

    wired = ("fragment", "source_markdown")  # pickled as str, the tool's copies would grow

    fragment: str
    page_url: str
    source_markdown: str
    key: str | None


def warm_up(_state: WorkerState, converter: str) -> None:
    """A worker's first task, sent before any page: load lxml and the engine now, so
    that the first page does not wait for them."""
    from agentprose_core.convert.fragment import available_engine

    available_engine(converter)


def convert_speculatively(state: WorkerState, task: Task) -> Speculative:
    """One conversion as a worker makes it for the build it was last sent, stored in
    the cache, its lookups noted."""
    from agentprose_core.convert.fragment import (
        convert_fragment,  # in a worker: the only place that needs it
    )

    build = state.get(Build)
    recorder = RecordingMap(build.site_map)
    conversion = convert_fragment(task.fragment, page_url=task.page_url, site_map=recorder,
                                  settings=build.settings,
                                  source_fences=fences_of(task.source_markdown))
    if task.key is not None and build.cache is not None:
        build.cache.put(task.key, conversion)
    return Speculative(conversion, frozenset(recorder.asked))


class BackgroundConversions:
    """Conversions started while a build goes on, by page URL.

    ``site_map`` is every page the build will render (page key -> view URL). Pages
    found in ``cache`` are taken from it; ``pool`` (see :func:`conversion_pool`)
    converts the others; without a pool (see :func:`~.policy.worker_count`), the caller
    converts them. The pool is the caller's: it may serve the next build too.
    """

    def __init__(
        self, *, site_map: Mapping[str, str], settings: Settings,
        cache: ConversionCache | None, pool: WorkerPool | None,
    ) -> None:
        self.build = Build(dict(site_map), settings, cache)
        self.digest = site_digest(self.build.site_map)
        self._pool = pool
        self._sent_build = False
        # The ticket of each page sent and not answered yet, by page URL: asked once per
        # page handed over, while every page of the site may be outstanding.
        self._tickets: dict[str, int] = {}
        self.converted_in_background = 0
        self.kept = 0  # of those, how many held for the final site map
        self._ready: dict[str, Speculative] = {}
        self._tasks: dict[str, Task] = {}

    def submit(self, fragment: str, *, page_url: str, source_markdown: str = "") -> bool:
        """Hand over one page's content (and its Markdown source, if it has one): True
        when it is converted (or found in the cache) here, False when the caller
        converts it. A page handed over again replaces what it was before."""
        self._ready.pop(page_url, None)
        self._tickets.pop(page_url, None)  # its answer, when it comes, is not taken
        task = self._task(fragment, page_url, source_markdown)
        self._tasks[page_url] = task  # for a conversion the final site map undoes
        found = self.build.cache.get(task.key) if self.build.cache and task.key else None
        if found is not None:
            self._ready[page_url] = Speculative(found, None)
            return True
        if self._pool is None:
            return False
        if not self._sent_build:  # the workers' tasks of this build use this build
            self._pool.broadcast(remember, self.build)
            self._sent_build = True
        self._tickets[page_url] = self._pool.submit(convert_speculatively, task)
        return True

    def _task(self, fragment: str, page_url: str, source_markdown: str) -> Task:
        key = None if self.build.cache is None else cache_key(
            fragment, page_url=page_url, site=self.digest, settings=self.build.settings,
            source_markdown=source_markdown)
        return Task(fragment, page_url, source_markdown, key)

    @property
    def pooled(self) -> bool:
        """Whether this build converts in the worker processes."""
        return self._pool is not None

    def _collect(self) -> None:
        if not self._tickets:
            return
        answers = self._pool.gather() if self._pool is not None else {}
        pages = {ticket: url for url, ticket in self._tickets.items()}
        for ticket, found in answers.items():
            if isinstance(found, Speculative) and ticket in pages:
                self._ready[pages[ticket]] = found
                self.converted_in_background += 1
        self._tickets.clear()

    def results(self, site_map: Mapping[str, str]) -> dict[str, Conversion]:
        """The conversions that hold for the final ``site_map``, by page URL, once the
        workers are done. Pages missing from the answer are the caller's to convert."""
        self._collect()
        changed = changed_keys(self.build.site_map, site_map)
        kept = {url: found.conversion for url, found in self._ready.items()
                if found.holds(changed)}
        self.kept = sum(1 for url in kept if self._ready[url].asked is not None)
        if changed and self.build.cache is not None:
            kept.update(self._under_final_keys(site_map, kept))
        stale = [url for url in self._ready if url not in kept]
        if stale and self._pool is not None:
            kept.update(self._convert_again(stale, site_map))
        return kept

    def _under_final_keys(self, site_map: Mapping[str, str],
                          kept: Mapping[str, Conversion]) -> dict[str, Conversion]:
        """Conversions kept for the final ``site_map`` stored under its key too, and the
        cache's under that key for the pages whose own entry (a cache hit) cannot say
        whether it holds: the next build (a dirty one, a ``serve`` reload) then finds
        every page whatever the map its conversion was made with."""
        cache, digest, found = self.build.cache, site_digest(site_map), {}
        assert cache is not None
        for url, task in self._tasks.items():
            if url not in self._ready:
                continue
            key = cache_key(task.fragment, page_url=url, site=digest,
                            settings=self.build.settings, source_markdown=task.source_markdown)
            if url in kept:
                if not cache.has(key):
                    cache.put(key, kept[url])
            else:
                stored = cache.get(key)
                if stored is not None:
                    found[url] = stored
        return found

    def _convert_again(self, urls: list[str], site_map: Mapping[str, str]) -> dict[str, Conversion]:
        """The pages whose links the final site map changes (a page a draft or
        ``agentprose: false`` left out is linked from them), converted again in the
        workers with it: the build tool's process never loads the converter."""
        assert self._pool is not None
        self.build = Build(dict(site_map), self.build.settings, self.build.cache)
        self.digest = site_digest(self.build.site_map)
        self._pool.broadcast(remember, self.build)
        tickets = {}
        for url in urls:
            old = self._tasks[url]
            task = self._task(old.fragment, url, old.source_markdown)
            tickets[self._pool.submit(convert_speculatively, task)] = url
        answers = self._pool.gather()
        return {tickets[ticket]: found.conversion for ticket, found in answers.items()
                if ticket in tickets and isinstance(found, Speculative)}
