"""A cold ``mkdocs build`` and a ``mkdocs serve`` reload, in one process, measured.

    python mkdocs_driver.py CONFIG_FILE SITE_DIR EDITED_PAGE

MkDocs has no incremental build outside ``serve``, and ``serve`` on a change does
what this does: load the config again (plugin instances are kept, as MkDocs'
plugin cache does for plugins with ``on_startup``) and call ``build()`` again, all
pages, in the same warm process. So:

1. cold: from the top of this script (imports of MkDocs and the plugins included)
   to the end of the first ``build()``, ``on_startup(command="serve")`` first;
2. reload: one source page edited, then ``load_config()`` + ``build()`` again.

The livereload server is left out (it only watches files and serves them). Prints
``{"cold": {...}, "reload": {...}}`` on its last line: wall (``perf_counter``),
CPU (``getrusage`` of this process and its children: git; and, from ``/proc``, of the
children still running: agentprose's workers), peak RSS (``ru_maxrss``,
the high-water mark of this process, so the reload's is at least the cold one's),
and, when agentprose is in the build, ``hooks``: the wall seconds spent inside its
hooks (with ``workers: false`` that is all the work agentprose adds; with workers it
leaves out what the worker processes do meanwhile).
"""

from __future__ import annotations

import time

START = time.perf_counter()

import functools  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TYPE_CHECKING, Any  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Callable


def _usage() -> tuple[float, int]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    return cpu + _live_children_cpu(), max(own.ru_maxrss, children.ru_maxrss)


def _live_children_cpu() -> float:
    """CPU seconds of the child processes still running (agentprose's workers outlive a
    build in a ``serve`` session): getrusage counts only children that have ended."""
    total, me = 0, str(os.getpid())
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == me:  # ppid; utime and stime follow at 11 and 12
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


HOOKS = [0.0]  # seconds inside agentprose's hooks, this build


def _timed(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            HOOKS[0] += time.perf_counter() - start
    return timed


def _time_agentprose_hooks(config: Any) -> bool:
    """Wrap agentprose's hooks as MkDocs registered them for this config (each load of
    the config registers them again). Not by patching the plugin's class before MkDocs
    loads it: importing the plugin ahead of the config moved it before the other
    plugins' and Markdown extensions' imports, where its objects kept glibc from giving
    back the memory those free once loaded (Material's emoji index): pymdown-extensions'
    serve session peaked at 84.8 MiB that way, 74.6 MiB as ``mkdocs serve`` loads the
    plugin (bare 71.1 MiB)."""
    found = False
    for methods in config.plugins.events.values():
        for index, method in enumerate(methods):
            owner = getattr(method, "__self__", None)
            if type(owner).__module__.startswith("mkdocs_agentprose"):
                methods[index], found = _timed(method), True
    return found


def main(config_file: str, site_dir: str, edited: str) -> None:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(config_file=config_file, site_dir=site_dir)
    timing = _time_agentprose_hooks(config)
    config.plugins.on_startup(command="serve", dirty=False)
    build(config)
    cpu, rss = _usage()
    cold = {"wall": time.perf_counter() - START, "cpu": cpu, "rss": rss}
    if timing:
        cold["hooks"], HOOKS[0] = HOOKS[0], 0.0

    page = Path(edited)
    original = page.read_text(encoding="utf-8")
    page.write_text(original + "\nA paragraph added for the reload.\n", encoding="utf-8")
    try:
        start, (cpu_before, _) = time.perf_counter(), _usage()
        config = load_config(config_file=config_file, site_dir=site_dir)
        if timing:
            _time_agentprose_hooks(config)
        build(config)
        cpu, rss = _usage()
        reload = {"wall": time.perf_counter() - start, "cpu": cpu - cpu_before, "rss": rss}
        if timing:
            reload["hooks"] = HOOKS[0]
    finally:
        page.write_text(original, encoding="utf-8")
    config.plugins.on_shutdown()
    print(json.dumps({"cold": cold, "reload": reload}))


if __name__ == "__main__":
    main(*sys.argv[1:4])
