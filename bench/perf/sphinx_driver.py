"""``sphinx-build`` in this process, and the time spent inside agentprose's handlers.

    python sphinx_driver.py SPHINX-BUILD-ARGUMENTS...

Runs ``sphinx.cmd.build.build_main`` as ``python -m sphinx`` would, with every event
handler that a ``sphinx_agentprose`` module connects wrapped in a timer. Prints
``{"hooks": seconds, "child_cpu": seconds, "own_cpu": seconds}`` on its last line: the
wall seconds inside those handlers (null when there were none: a bare build), the CPU
seconds of this process's children: agentprose's worker, which converts the pages of
a serial build of more than 16 pages while Sphinx writes, and git, and the CPU
seconds of this process itself. The first two are null for a build with ``-j N``:
readers and writers are forked then, their handlers' time stays in the forks, and the
forks are children too. The handlers' time is what Sphinx's process waits for
agentprose; the children's CPU is the rest of our work, done meanwhile on another CPU
(with ``agentprose_workers = False`` all of it is in the handlers).
"""

from __future__ import annotations

import functools
import json
import resource
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

HOOKS: list[float] = []  # seconds inside agentprose's handlers, one entry per call


def _timed(handler: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(handler)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return handler(*args, **kwargs)
        finally:
            HOOKS.append(time.perf_counter() - start)
    return timed


def _time_agentprose_handlers() -> None:
    """Wrap the handlers agentprose's ``setup()`` connects, as it connects them."""
    from sphinx.application import Sphinx

    connect = Sphinx.connect

    def timed_connect(self: Sphinx, event: str, callback: Callable[..., Any],
                      priority: int = 500) -> int:
        if getattr(callback, "__module__", "").startswith("sphinx_agentprose"):
            callback = _timed(callback)
        return connect(self, event, callback, priority)

    Sphinx.connect = timed_connect  # type: ignore[method-assign]


def _parallel(arguments: list[str]) -> bool:
    for number, argument in enumerate(arguments):
        value = argument[2:] if argument.startswith("-j") and len(argument) > 2 else (
            arguments[number + 1] if argument in ("-j", "--jobs") and
            number + 1 < len(arguments) else None)
        if value is not None and value not in ("1", "0"):
            return True
    return False


def main(arguments: list[str]) -> int:
    from sphinx.cmd.build import build_main

    _time_agentprose_handlers()
    code = build_main(arguments)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    serial = not _parallel(arguments)
    hooks = sum(HOOKS) if serial and HOOKS else None
    child_cpu = children.ru_utime + children.ru_stime if serial else None
    own = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"hooks": hooks, "child_cpu": child_cpu,
                      "own_cpu": own.ru_utime + own.ru_stime}))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
