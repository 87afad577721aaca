"""How many worker processes a build starts: one policy for every front-end."""

from __future__ import annotations

import os

__all__ = ["MIN_PAGES", "MIN_PAGES_BESIDE_TOOL", "worker_count"]

MIN_PAGES = 16
"""``agentprose build`` converts a site of up to this many pages in its own process: it
waits for its workers, so a worker there only adds its start-up (~0.1 s of CPU, the
conversion of some 20 pages)."""

MIN_PAGES_BESIDE_TOOL = 4
"""MkDocs and Sphinx convert a site of up to this many pages in their own process.
A worker converts while the tool renders, so it takes the conversions and the import of
lxml and the engine off the build's path and out of the tool's memory: measured on a
16-page Sphinx site (Requests), ×1.08 wall and ×1.04 peak memory against ×1.15 and
×1.20 in-process, for the same CPU (±1 %). Below this, those imports and conversions
cost less than the worker's start-up. Larger sites send every page not in the cache to
the workers, even the one page a ``serve`` reload changed: the workers outlive a
build, and the build tool's process then never loads lxml and the engine."""


def worker_count(pages: int, *, enabled: bool, tool_busy: bool = True, most: int = 4,
                 cpus: int | None = None) -> int:
    """Workers to start for a build of ``pages`` pages (0: convert in-process).

    ``tool_busy``: the build tool keeps a CPU busy meanwhile (MkDocs and Sphinx render
    pages while the workers convert), so the workers get every CPU but that one;
    ``agentprose build`` mostly waits for its workers, which then get every CPU, and
    starts them only when there are two at least (one would just move the work).
    ``most`` caps the count: Sphinx's writer hands pages to one worker, in order.
    """
    found = cpus if cpus is not None else (os.cpu_count() or 1)
    if not enabled or pages <= (MIN_PAGES_BESIDE_TOOL if tool_busy else MIN_PAGES):
        return 0
    workers = min(found - 1 if tool_busy else found, most, 4)
    return workers if workers >= (1 if tool_busy else 2) else 0
