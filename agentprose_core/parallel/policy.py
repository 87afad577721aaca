"""How many worker processes a build starts: one policy for every front-end."""

from __future__ import annotations

import os

__all__ = ["MIN_PAGES", "worker_count"]

MIN_PAGES = 16
"""``agentprose build`` converts a site of up to this many pages in its own process: it
waits for its workers, so a worker there only adds its start-up (~0.1 s of CPU, the
conversion of some 20 pages)."""

# MkDocs and Sphinx send their pages to a worker however few they are, a rebuild's
# too: the worker converts while the tool renders, writes the site files while the tool
# finishes (Sphinx's indices, search index and inventory), and the tool's process never
# loads lxml and the engine (about 10 MiB). A Sphinx rebuild of one page used to convert
# in Sphinx's process: its site files then waited at the end, a cost that grows with the
# site (0.13 s on a 300-page one). December 2026, a one-page rebuild against a bare one,
# in-process / worker: 30 synthetic pages ×1.09 / ×1.08 wall, ×1.09 / ×1.20 CPU, ×1.11 /
# ×1.03 peak; 300 pages ×1.26 / ×1.06 wall, ×1.29 / ×1.18 CPU, ×1.14 / ×1.04 peak; the
# harness's Sphinx sites' peaks ×1.08–1.26 / ×1.02–1.04, their wall within the noise.
# A ``mkdocs serve`` reload sends its pages to the workers of the first build, which
# outlive it.


def worker_count(pages: int, *, enabled: bool, tool_busy: bool = True, most: int = 4,
                 cpus: int | None = None) -> int:
    """Workers to start for a build of ``pages`` pages (0: convert in-process).

    ``tool_busy``: the build tool keeps a CPU busy meanwhile (MkDocs and Sphinx render
    pages while the workers convert), so the workers get every CPU but that one;
    ``agentprose build`` mostly waits for its workers, which then get every CPU, and
    starts them only when there are two at least (one would just move the work).
    ``most`` caps the count (Sphinx's writer hands pages to one worker, in order), and
    so do the pages: a worker per page at most.
    """
    found = cpus if cpus is not None else (os.cpu_count() or 1)
    floor = 0 if tool_busy else MIN_PAGES
    if not enabled or pages <= floor:
        return 0
    workers = min(found - 1 if tool_busy else found, most, 4, pages)
    return workers if workers >= (1 if tool_busy else 2) else 0
