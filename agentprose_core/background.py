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

import contextlib
import os
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from .cache import cache_key, site_digest
from .convert import Conversion, convert_fragment

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .cache import ConversionCache
    from .codeblocks import SourceFence
    from .settings import Settings

__all__ = [
    "MIN_PAGES",
    "BackgroundConversions",
    "Build",
    "Speculative",
    "Task",
    "convert_speculatively",
    "worker_count",
]

MIN_PAGES = 16
"""Up to this many pages to convert, a worker costs more to start than it saves: a
rebuild that changed a few pages converts them in-process."""


def worker_count(cpus: int | None = None) -> int:
    """Workers to start: every CPU but the one the build tool runs on, at most four."""
    found = cpus if cpus is not None else (os.cpu_count() or 1)
    return max(0, min(found - 1, 4))


class _Recorder(Mapping[str, str]):
    """A site map that remembers every key asked of it."""

    def __init__(self, site_map: Mapping[str, str]) -> None:
        self._map = site_map
        self.asked: set[str] = set()

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        return self._map[key]

    def get(self, key: str, default: str | None = None) -> str | None:  # type: ignore[override]
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


@dataclass(frozen=True)
class Build:
    """What every conversion of one build shares; sent once to each worker."""

    site_map: Mapping[str, str]
    settings: Settings
    cache: ConversionCache | None


@dataclass(frozen=True)
class Task:
    """One page to convert; ``key`` is its cache key, if there is a cache."""

    fragment: str
    page_url: str
    source_fences: tuple[SourceFence, ...]
    key: str | None


def convert_speculatively(build: Build, task: Task) -> Speculative:
    """One conversion as a worker makes it, stored in the cache, its lookups noted."""
    recorder = _Recorder(build.site_map)
    conversion = convert_fragment(task.fragment, page_url=task.page_url, site_map=recorder,
                                  settings=build.settings, source_fences=task.source_fences)
    if task.key is not None and build.cache is not None:
        build.cache.put(task.key, conversion)
    return Speculative(conversion, frozenset(recorder.asked))


Answer = tuple[str, "Speculative | None"]
_DONE = ("", None)


class _Worker:
    """One ``python -m agentprose_core.worker`` process, fed and read by two threads.

    A process of our own rather than a ``multiprocessing`` pool: a pool's "spawn" start
    runs the build's main script again in every worker, and a build script without an
    ``if __name__ == "__main__"`` guard would build the whole site once more in each.
    The threads keep the build from ever waiting on a full pipe.
    """

    def __init__(self, build: Build, answers: queue.Queue[Answer]) -> None:
        package_parent = str(Path(__file__).resolve().parent.parent)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "agentprose_core.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(
                [package_parent, *filter(None, [os.environ.get("PYTHONPATH")])])},
        )
        self._outbox: queue.Queue[object] = queue.Queue()
        self._outbox.put(list(sys.path))  # the user's hook modules import as they do here
        self._outbox.put(build)
        threading.Thread(target=self._write, daemon=True).start()
        threading.Thread(target=self._read, args=(answers,), daemon=True).start()

    def submit(self, task: Task) -> None:
        self._outbox.put(task)

    def finish(self) -> None:
        """No more tasks: the worker answers the ones it has, then exits."""
        self._outbox.put(None)

    def _write(self) -> None:
        pipe = self.process.stdin
        assert pipe is not None
        try:
            while True:
                message = self._outbox.get()
                pickle.dump(message, pipe, protocol=pickle.HIGHEST_PROTOCOL)
                pipe.flush()
                if message is None:
                    break
        except (OSError, ValueError):
            pass  # the worker is gone: its reader reports it done, the caller converts
        finally:
            _close(pipe)

    def _read(self, answers: queue.Queue[Answer]) -> None:
        pipe = self.process.stdout
        assert pipe is not None
        try:
            while True:
                answers.put(pickle.load(pipe))
        except (EOFError, OSError, ValueError, pickle.UnpicklingError):
            pass
        finally:
            _close(pipe)
            answers.put(_DONE)

    def stop(self) -> None:
        self.finish()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _close(pipe: IO[bytes]) -> None:
    with contextlib.suppress(OSError):
        pipe.close()


class BackgroundConversions:
    """Conversions started while a build goes on, by page URL.

    ``site_map`` is every page the build will render (page key -> view URL). Pages
    found in ``cache`` are taken from it. Once more than :data:`MIN_PAGES` pages are
    missing from it, ``workers`` processes convert them all; with fewer (a rebuild
    that changed a page) none starts and the caller converts them. With
    ``workers=0`` nothing runs in the background.
    """

    def __init__(
        self, *, site_map: Mapping[str, str], settings: Settings,
        cache: ConversionCache | None, workers: int,
    ) -> None:
        self.build = Build(dict(site_map), settings, cache)
        self.workers = workers
        self.digest = site_digest(self.build.site_map)
        self._answers: queue.Queue[Answer] = queue.Queue()
        self._pool: list[_Worker] = []
        self._waiting: list[Task] = []
        self._sent = 0
        self.converted_in_background = 0
        self._ready: dict[str, Speculative] = {}

    def submit(
        self, fragment: str, *, page_url: str, source_fences: Sequence[SourceFence] = ()
    ) -> None:
        """Hand over one page's content; it converts now, or the caller converts it."""
        key = None
        cache = self.build.cache
        if cache is not None:
            key = cache_key(fragment, page_url=page_url, site=self.digest,
                            settings=self.build.settings, source_fences=source_fences)
            found = cache.get(key)
            if found is not None:
                self._ready[page_url] = Speculative(found, None)
                return
        if self.workers < 1:
            return
        self._waiting.append(Task(fragment, page_url, tuple(source_fences), key))
        if not self._pool and len(self._waiting) <= MIN_PAGES:
            return
        if not self._pool:
            self._pool = [_Worker(self.build, self._answers) for _ in range(self.workers)]
        for task in self._waiting:
            self._pool[self._sent % len(self._pool)].submit(task)
            self._sent += 1
        self._waiting.clear()

    def results(self, site_map: Mapping[str, str]) -> dict[str, Conversion]:
        """The conversions that hold for the final ``site_map``, by page URL, once the
        workers are done. Pages missing from the answer are the caller's to convert."""
        for worker in self._pool:
            worker.finish()
        running = len(self._pool)
        while running:
            page_url, found = self._answers.get()
            if found is not None:
                self._ready[page_url] = found
                self.converted_in_background += 1
            elif not page_url:
                running -= 1
        self.close()
        old = self.build.site_map
        changed = {key for key in set(site_map) | set(old) if site_map.get(key) != old.get(key)}
        return {
            url: found.conversion for url, found in self._ready.items()
            if not changed or (found.asked is not None and not found.asked & changed)
        }

    def close(self) -> None:
        """Stop the workers and forget the pages handed over."""
        for worker in self._pool:
            worker.stop()
        self._pool.clear()
        self._waiting.clear()
