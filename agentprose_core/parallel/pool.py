"""Worker processes of our own: ``python -m agentprose_core.parallel.worker``, fed over pipes.

Not a ``multiprocessing`` pool: its "spawn" start runs the caller's main script again
in every worker, and a build script without an ``if __name__ == "__main__"`` guard
would then build the whole site once more in each. Ours import only agentprose (and
what the user's settings name, such as a ``preprocess`` hook).

Each worker first runs ``setup(*setup_args)`` once (a :class:`WorkerState` unless the
caller says otherwise) and keeps what it returns; every task is
``function(that_value, *args)``, with module-level functions (pickled by reference).
Two threads per worker keep the caller from ever waiting on a full pipe.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = ["Failed", "WorkerPool", "WorkerState", "remember", "run_all", "run_all_while"]

T = TypeVar("T")


class Failed:
    """What a task answers when its function raised: the caller redoes it in-process."""

    def __init__(self, error: str) -> None:
        self.error = error

    def __repr__(self) -> str:
        return f"Failed({self.error!r})"


_GONE = -1  # the ticket a worker's reader posts when its process has ended


class _Worker:
    def __init__(self, number: int, setup: tuple[Callable[..., Any], tuple[Any, ...]],
                 answers: queue.Queue[tuple[int, int, Any]]) -> None:
        self.number = number
        self.outstanding: set[int] = set()
        self.stopping = False
        package_parent = str(Path(__file__).resolve().parent.parent)
        path = os.pathsep.join(filter(None, [package_parent, os.environ.get("PYTHONPATH")]))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "agentprose_core.parallel.worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": path},
        )
        self._outbox: queue.Queue[object] = queue.Queue()
        self._outbox.put(list(sys.path))  # the user's hook modules import as they do here
        self._outbox.put(setup)
        threading.Thread(target=self._write, daemon=True).start()
        threading.Thread(target=self._read, args=(answers,), daemon=True).start()

    def send(self, message: object) -> None:
        self._outbox.put(message)

    def _write(self) -> None:
        pipe = self.process.stdin
        assert pipe is not None
        try:
            while True:
                message = self._outbox.get()
                pickler = pickle.Pickler(pipe, protocol=pickle.HIGHEST_PROTOCOL)
                # Without a memo, what a message's objects make as they are pickled
                # (wired texts' bytes: see wire) goes as soon as it is written, not when
                # the whole message is: a build's every record is one message.
                pickler.fast = True
                pickler.dump(message)
                pipe.flush()
                if message is None:
                    break
                del message, pickler  # not kept alive until the next one comes
        except (OSError, ValueError, pickle.PicklingError):
            pass  # the worker is gone: its reader reports it
        finally:
            _close(pipe)

    def _read(self, answers: queue.Queue[tuple[int, int, Any]]) -> None:
        pipe = self.process.stdout
        assert pipe is not None
        try:
            while True:
                ticket, value = pickle.load(pipe)
                answers.put((self.number, ticket, value))
        except (EOFError, OSError, ValueError, pickle.UnpicklingError, AttributeError):
            pass
        finally:
            _close(pipe)
            answers.put((self.number, _GONE, None))

    def ask_to_stop(self) -> None:
        """Send the stop message, once: the worker ends after the tasks sent before it."""
        if not self.stopping:
            self.stopping = True
            self.send(None)

    def stop(self) -> None:
        self.ask_to_stop()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _close(pipe: IO[bytes]) -> None:
    with contextlib.suppress(OSError):
        pipe.close()


class WorkerState:
    """What a worker keeps between tasks: one value of each type, such as the build's
    shared settings, put there by :func:`remember` and looked up by its type."""

    def __init__(self, *values: object) -> None:
        self._values: dict[type, object] = {}
        for value in values:
            self.put(value)

    def put(self, value: object) -> None:
        """Keep ``value``, in place of the one of its type kept before."""
        self._values[type(value)] = value

    def get(self, kind: type[T]) -> T:
        """The value of type ``kind``; KeyError if none was kept."""
        value = self._values[kind]
        assert isinstance(value, kind)
        return value


def remember(state: WorkerState, value: object) -> None:
    """A task that keeps ``value`` in a worker's state for the tasks after it (with
    :meth:`WorkerPool.broadcast`)."""
    state.put(value)


class WorkerPool:
    """``workers`` processes; tasks go round-robin, answers come back by ticket.

    Processes start on the first :meth:`submit` and serve until :meth:`close`.
    :meth:`gather` waits for the answers to every task submitted so far; a task whose
    function raised, or whose worker died, answers :class:`Failed`.
    """

    def __init__(self, workers: int, setup: Callable[..., Any] = WorkerState,
                 *setup_args: Any) -> None:
        self.size = max(1, workers)
        self._setup = (setup, setup_args)
        self._answers: queue.Queue[tuple[int, int, Any]] = queue.Queue()
        self._workers: list[_Worker] = []
        self._alive: set[int] = set()
        self._tickets = 0

    def _start(self) -> None:
        self._workers = [_Worker(n, self._setup, self._answers) for n in range(self.size)]
        self._alive = set(range(self.size))

    def submit(self, function: Callable[..., Any], *args: Any) -> int:
        """Queue ``function(setup value, *args)`` on the next worker; returns its ticket."""
        return self._send(self._tickets % self.size, function, args)

    def broadcast(self, function: Callable[..., Any], *args: Any) -> list[int]:
        """Queue ``function(setup value, *args)`` once on every worker, ahead of the tasks
        submitted after it (each worker runs its tasks in order)."""
        return [self._send(number, function, args) for number in range(self.size)]

    def _send(self, number: int, function: Callable[..., Any], args: tuple[Any, ...]) -> int:
        if not self._workers:
            self._start()
        ticket = self._tickets
        self._tickets += 1
        worker = self._workers[number]
        if number in self._alive:
            worker.outstanding.add(ticket)
            worker.send((ticket, function, args))
        return ticket

    @property
    def alive(self) -> bool:
        """False once every worker that was started has ended (none started: True)."""
        return not self._workers or bool(self._alive)

    def gather(self, *, each: Callable[[int, Any], None] | None = None) -> dict[int, Any]:
        """The answers that came in since the last call, by ticket, once every task
        submitted so far has one; ``each(ticket, answer)`` is called as each comes in."""
        found: dict[int, Any] = {}
        while any(self._workers[n].outstanding for n in self._alive):
            for ticket in self._take(self._answers.get(), found):
                if each is not None:
                    each(ticket, found[ticket])
        return found

    def answered(self, *, wait: bool = False) -> dict[int, Any]:
        """The answers that came in since the last call, by ticket, without waiting
        for the others; with ``wait``, at least one if any task is unanswered."""
        found: dict[int, Any] = {}
        if wait and any(self._workers[n].outstanding for n in self._alive):
            self._take(self._answers.get(), found)
        while True:
            try:
                answer = self._answers.get_nowait()
            except queue.Empty:
                return found
            self._take(answer, found)

    def _take(self, answer: tuple[int, int, Any], found: dict[int, Any]) -> list[int]:
        """Put ``answer`` in ``found``; returns the tickets it answered."""
        number, ticket, value = answer
        worker = self._workers[number]
        if ticket == _GONE:
            self._alive.discard(number)
            lost = sorted(worker.outstanding)
            for each in lost:
                found[each] = Failed("the worker process ended")
            worker.outstanding.clear()
            return lost
        worker.outstanding.discard(ticket)
        found[ticket] = value
        return [ticket]

    def release(self) -> None:
        """Ask every worker to stop once its tasks are done, without waiting for it: a
        caller with other work to do lets the processes end meanwhile, and
        :meth:`close` then finds them gone. Submit nothing after this."""
        for worker in self._workers:
            worker.ask_to_stop()

    def close(self) -> None:
        """Stop the workers, answered or not (all are told before any is waited for)."""
        self.release()
        for worker in self._workers:
            worker.stop()
        self._workers.clear()
        self._alive.clear()


def run_all(
    pool: WorkerPool | None, function: Callable[..., Any], calls: Sequence[tuple[Any, ...]],
    *, state: WorkerState | None = None, done: Callable[[int], None] | None = None,
) -> list[Any]:
    """``function(state, *args)`` for each args of ``calls``, in order: on ``pool``'s
    workers if there is one (tasks that fail there run again here), else here.

    ``done(count)`` is called each time one more call has finished, in whatever order
    they finish (``count`` goes 1, 2, … ``len(calls)``).
    """
    if pool is None:
        return _here(function, calls, state, done)
    tickets = [pool.submit(function, *args) for args in calls]
    return _answers(pool, function, calls, tickets, state, done=done)


def run_all_while(
    pool: WorkerPool | None, function: Callable[..., Any], calls: Sequence[tuple[Any, ...]],
    meanwhile: Callable[[], T], *, state: WorkerState | None = None,
    done: Callable[[int], None] | None = None,
) -> tuple[list[Any], T]:
    """:func:`run_all`, and ``meanwhile()`` run here while the workers work (before the
    tasks, without workers)."""
    if pool is None:
        finished = meanwhile()
        return _here(function, calls, state, done), finished
    tickets = [pool.submit(function, *args) for args in calls]
    finished = meanwhile()
    return _answers(pool, function, calls, tickets, state, done=done), finished


def _here(function: Callable[..., Any], calls: Sequence[tuple[Any, ...]], state: Any,
          done: Callable[[int], None] | None) -> list[Any]:
    if done is None:
        return [function(state, *args) for args in calls]
    results = []
    for args in calls:
        results.append(function(state, *args))
        done(len(results))
    return results


class _Count:
    """The calls of one :func:`run_all` finished so far, told to ``done`` as they finish:
    a worker's answer counts when it comes in, a failed task once it is redone here."""

    def __init__(self, tickets: Sequence[int], done: Callable[[int], None] | None) -> None:
        self.tickets = frozenset(tickets)
        self.done = done
        self.count = 0

    def answered(self, ticket: int, answer: Any) -> None:
        if ticket in self.tickets and not isinstance(answer, Failed):
            self.finished()

    def finished(self) -> None:
        self.count += 1
        if self.done is not None:
            self.done(self.count)


def _answers(pool: WorkerPool, function: Callable[..., Any],
             calls: Sequence[tuple[Any, ...]], tickets: Sequence[int],
             state: WorkerState | None, *, done: Callable[[int], None] | None) -> list[Any]:
    count = _Count(tickets, done)
    answers = pool.gather(each=count.answered if done is not None else None)
    failed = Failed("not sent: the worker process had ended")
    results = []
    for ticket, args in zip(tickets, calls, strict=True):
        answer = answers.get(ticket, failed)
        if isinstance(answer, Failed):
            answer = function(state, *args)
            count.finished()
        results.append(answer)
    return results
