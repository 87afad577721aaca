"""How many worker processes a build starts: one policy for every front-end."""

from __future__ import annotations

import os

__all__ = ["MIN_PAGES", "MIN_REBUILT_PAGES", "worker_count"]

MIN_PAGES = 16
"""``agentprose build`` converts a site of up to this many pages in its own process: it
waits for its workers, so a worker there only adds its start-up (~0.1 s of CPU, the
conversion of some 20 pages)."""

MIN_REBUILT_PAGES = 4
"""An incremental Sphinx build that writes up to this many pages (the rebuild after an
edit) converts them in Sphinx's own process: there a worker's start (~0.1 s of CPU) is
most of what the rebuild adds. Measured on Requests' one-page rebuild (1.4 s): ×1.07
wall, ×1.08 CPU in-process against ×1.08 and ×1.20 with a worker. A first build, in
either tool, sends its pages to a worker however few they are: the worker converts
while the tool renders, and the tool's process never loads lxml and the engine (about
10 MiB). On sphinx-tabs' two pages: ×1.04 peak memory with a worker against ×1.22
in-process, the same wall (+0.1 s either way), more CPU (the worker's start on the
other core; December 2026). A ``mkdocs serve`` reload sends its pages to the workers of
the first build, which outlive it."""


def worker_count(pages: int, *, enabled: bool, tool_busy: bool = True, rebuild: bool = False,
                 most: int = 4, cpus: int | None = None) -> int:
    """Workers to start for a build of ``pages`` pages (0: convert in-process).

    ``tool_busy``: the build tool keeps a CPU busy meanwhile (MkDocs and Sphinx render
    pages while the workers convert), so the workers get every CPU but that one;
    ``agentprose build`` mostly waits for its workers, which then get every CPU, and
    starts them only when there are two at least (one would just move the work).
    ``rebuild``: Sphinx rebuilds a site it built before (see :data:`MIN_REBUILT_PAGES`).
    ``most`` caps the count (Sphinx's writer hands pages to one worker, in order), and
    so do the pages: a worker per page at most.
    """
    found = cpus if cpus is not None else (os.cpu_count() or 1)
    floor = MIN_PAGES if not tool_busy else MIN_REBUILT_PAGES if rebuild else 0
    if not enabled or pages <= floor:
        return 0
    workers = min(found - 1 if tool_busy else found, most, 4, pages)
    return workers if workers >= (1 if tool_busy else 2) else 0
