"""``python -m agentprose_core.worker``: converts pages for :mod:`.background`.

Reads pickled messages on stdin (the parent's ``sys.path``, a ``Build``, then
``Task`` after ``Task`` until None) and answers each task on stdout with
``(page_url, Speculative)``, or ``(page_url, None)`` when the conversion failed (the
build then converts that page itself and reports what went wrong). Whatever user code
prints goes to stderr: stdout carries only answers.
"""

from __future__ import annotations

import os
import pickle
import sys

__all__ = ["main"]


def main() -> int:
    """Serve one build's tasks, then exit."""
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # prints of preprocess hooks
    tasks = sys.stdin.buffer
    sys.path[:] = pickle.load(tasks)  # our parent process writes every message

    from .background import convert_speculatively

    build = pickle.load(tasks)
    while (task := pickle.load(tasks)) is not None:
        try:
            answer = convert_speculatively(build, task)
        except Exception:
            answer = None  # the parent converts this page again and reports the error
        pickle.dump((task.page_url, answer), answers, protocol=pickle.HIGHEST_PROTOCOL)
        answers.flush()
    answers.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
