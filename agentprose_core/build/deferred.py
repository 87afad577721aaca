"""Pages handed to the worker while Sphinx goes on writing, and what comes back.

Sphinx's process keeps a page's job only until the worker answers for it, at most
:data:`BACKLOG` pages at a time. A page the worker could not do (it raised, or the
process ended) is done here instead, and its head filled in here: by the time its
answer is read, the tool has written it.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

from agentprose_core.build.pagewise import (
    HeadFill,
    PageJob,
    PageOutputs,
    SitePages,
    fill_head,
    fill_written,
    start_pages,
    write_page,
    write_page_in_worker,
)
from agentprose_core.parallel.policy import worker_count
from agentprose_core.parallel.pool import WorkerPool
from agentprose_core.parallel.speculative import conversion_pool, warm_up

if TYPE_CHECKING:
    from pathlib import Path

    from agentprose_core.build.sitejob import SiteJob
    from agentprose_core.diagnostics import Diagnostic
    from agentprose_core.settings import Settings

__all__ = ["BACKLOG", "DeferredPages", "Note", "WorkerPool", "start_worker"]

BACKLOG = 64
"""Pages sent and not yet answered before Sphinx's process waits for the worker: a
worker slower than Sphinx (a slow ``preprocess`` hook) must not make the build hold
every page's HTML."""

Note = tuple[str | None, "Diagnostic"]  # a docname, and what to tell the user about it


def start_worker(settings: Settings, pages: int) -> WorkerPool | None:
    """The one worker of a build that writes ``pages`` pages, if there is a CPU for it
    (:func:`~.policy.worker_count`; the tool writes the pages in order, ``-j N`` writes
    in forked processes, which convert themselves), warming up while the tool reads."""
    pool = conversion_pool(worker_count(pages, enabled=settings.workers, most=1))
    if pool is not None:
        pool.broadcast(warm_up, settings.converter)
        pool.broadcast(import_site_files)
    return pool


def import_site_files(_state: object) -> None:
    """A worker's task as it starts: import what writing the site files needs while the
    tool reads, not when they are due. (The tool's process does not: it writes them
    only without a worker.)"""
    importlib.import_module("agentprose_core.build.sitefiles")


def finish_site_in_worker(state: object, job: SiteJob) -> list[Diagnostic]:
    """A worker's task: :func:`~agentprose_core.build.sitefiles.finish_site`."""
    from agentprose_core.build.sitefiles import finish_site  # the worker's import

    return finish_site(state, job)


class DeferredPages:
    """The pages of one build sent to ``pool`` (one worker), by ticket."""

    def __init__(self, pool: WorkerPool, site: SitePages, fill: HeadFill) -> None:
        self.site = site
        self.fill = fill
        self._pool = pool
        self._owner = os.getpid()  # a forked writer (-j N) has no worker of its own
        self._started = False
        self._all_written = False
        self._pages: dict[int, tuple[PageJob, Path]] = {}
        self._fills: set[int] = set()
        self._unfilled: list[tuple[int, str, Path, str]] = []  # answered, head not yet
        self._answers: dict[int, Any] = {}  # the worker's, not yet used
        self._site_files: int | None = None  # the ticket of the site files
        self.redone = 0  # pages done here after the worker failed them

    def hand_over(self, job: PageJob, page: Path) -> tuple[str | None, list[Note]]:
        """Send a page that the tool writes to ``page`` once this returns, if the worker
        can take it: the marker its head holds until the worker fills it in (None: do
        the page in this process), and the notes of pages answered meanwhile."""
        if not self.here:
            return None, []
        notes = self._take_answers(self._pool.answered(wait=self.backlogged))
        if not self.accepts():  # known only once the answers are taken
            return None, notes
        self.submit(job, page)
        return self.fill.marker, notes

    def write_site_files(self, job: SiteJob) -> None:
        """Every page is written: the worker fills in the last heads, then writes the
        site files while the tool finishes its own."""
        self.all_written()
        self._site_files = self._pool.submit(finish_site_in_worker, job)

    def gather(self) -> list[Note]:
        """Wait for the worker's last answers; the notes of the pages they were for, and
        of the heads filled in here that the worker did not."""
        return self._take_answers(self._pool.gather()) + self.finish()

    def site_notes(self) -> list[Diagnostic] | None:
        """What the worker reported of writing the site files; None when it did not
        write them (it ended, or pages it failed were done again here after it had
        them): the caller writes them then."""
        if self._site_files is None or self.redone:
            return None
        notes = self._answers.get(self._site_files)
        return notes if isinstance(notes, list) else None

    def _take_answers(self, answers: dict[int, Any]) -> list[Note]:
        self._answers.update(answers)
        return self.take(self._answers)

    @property
    def here(self) -> bool:
        """True in the process that started the worker (not in a forked writer)."""
        return os.getpid() == self._owner

    def accepts(self) -> bool:
        """True while the worker lives, as far as the answers taken so far tell."""
        return self._pool.alive

    def submit(self, job: PageJob, page: Path) -> None:
        """Send one page that Sphinx writes to ``page`` once this returns."""
        if not self._started:
            self._pool.broadcast(start_pages, self.site, self.fill)
            self._started = True
        self._pages[self._pool.submit(write_page_in_worker, job, page)] = (job, page)

    def all_written(self) -> None:
        """Every page sent is written: the worker fills in the last heads now (once)."""
        if self._started and not self._all_written:
            self._fills.add(self._pool.submit(fill_written))
        self._all_written = True

    @property
    def backlogged(self) -> bool:
        """True when the worker has as many pages unanswered as the build lets it hold."""
        return len(self._pages) >= BACKLOG

    def take(self, answers: dict[int, Any]) -> list[Note]:
        """Handle the answers to this object's tasks (removed from ``answers``); the
        notes to log. Raises what :func:`write_page` raises for a page done here."""
        notes: list[Note] = []
        for ticket in sorted(set(answers) & (set(self._pages) | self._fills)):
            answer = answers.pop(ticket)
            done = isinstance(answer, list if ticket in self._fills else PageOutputs)
            # Each task first fills in the heads of the pages answered before it; one
            # that failed may not have: fill them here (a head is filled in only once).
            earlier = [entry for entry in self._unfilled if entry[0] < ticket]
            self._unfilled = [entry for entry in self._unfilled if entry[0] > ticket]
            if not done:
                notes += self._fill_here(earlier)
            if ticket in self._fills:
                self._fills.discard(ticket)
                if isinstance(answer, list):
                    notes += [(note.location, note) for note in answer]
                continue
            job, page = self._pages.pop(ticket)
            if not isinstance(answer, PageOutputs):
                answer = self._redo(job, page)
            else:
                self._unfilled.append((ticket, job.docname, page, answer.tags))
            notes += [(job.docname, note) for note in answer.diagnostics]
            notes += [(note.location, note) for note in answer.filled]
        return notes

    def finish(self) -> list[Note]:
        """After the last answer: fill in here whatever heads the worker did not
        confirm (none, unless it ended)."""
        entries, self._unfilled = self._unfilled, []
        return self._fill_here(entries)

    def _fill_here(self, entries: list[tuple[int, str, Path, str]]) -> list[Note]:
        notes: list[Note] = []
        for _, docname, page, tags in entries:
            filled = fill_head(self.fill, page, tags, docname)
            if filled is not None:
                notes.append((docname, filled))
        return notes

    def _redo(self, job: PageJob, page: Path) -> PageOutputs:
        self.redone += 1
        outputs = write_page(self.site, job)
        filled = fill_head(self.fill, page, outputs.tags, job.docname)
        return PageOutputs(outputs.tags, outputs.diagnostics + ((filled,) if filled else ()))
