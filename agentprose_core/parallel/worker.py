"""``python -m agentprose_core.parallel.worker``: one process of a :class:`.pool.WorkerPool`.

Reads pickled messages on stdin: the parent's ``sys.path``, then ``(setup, args)``,
then ``(ticket, function, args)`` tasks until None. Answers each task on stdout with
``(ticket, function(setup value, *args))``, or ``(ticket, Failed(...))`` when it
raised. Whatever user code prints goes to stderr: stdout carries only answers.
"""

from __future__ import annotations

import os
import pickle
import sys
from typing import Any, BinaryIO

__all__ = ["main"]


def main() -> int:
    """Serve tasks until the parent says there are no more."""
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # prints of preprocess hooks
    tasks = sys.stdin.buffer
    sys.path[:] = pickle.load(tasks)  # our own parent process writes every message

    from agentprose_core.parallel.pool import Failed

    setup, setup_args = pickle.load(tasks)
    state = setup(*setup_args)
    while (message := _next(tasks)) is not None:
        ticket, function, args = message
        try:
            answer = function(state, *args)
        except Exception as error:  # the parent does this task again, in-process
            answer = Failed(f"{type(error).__name__}: {error}")
        try:
            pickle.dump((ticket, answer), answers, protocol=pickle.HIGHEST_PROTOCOL)
            answers.flush()
        except BrokenPipeError:
            return 0  # the parent is gone: nobody waits for the answer
    answers.close()
    return 0


def _next(tasks: BinaryIO) -> Any:
    """The next message; None, as "no more", when the parent ended without saying so
    (``mkdocs serve`` stopped by a signal): the build is over, not broken."""
    try:
        return pickle.load(tasks)
    except EOFError:
        return None


if __name__ == "__main__":
    code = main()
    sys.stderr.flush()
    # Without the interpreter's teardown of lxml, the engine and whatever else the
    # tasks imported: the parent waits for this process to end.
    os._exit(code)
