"""Connections waiting for a request's head, watched by one thread.

A client that sends its head one byte at a time, or opens a connection and says
nothing, holds a file descriptor here and never a worker: the workers only ever get a
connection whose head (request line and headers, up to the blank line) is complete.
A head must be complete within a deadline counted from when the connection was
accepted (or from the first byte of the next request on a kept-alive connection, which
may first stay idle for the keep-alive time); a head larger than :data:`MAX_HEAD`
bytes is refused. Either way the connection is closed.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["MAX_HEAD", "HeadGate"]

MAX_HEAD = 64 * 1024
"""Bytes a request's head may have: http.server refuses lines longer than 64 KiB too."""
_END = b"\r\n\r\n"
_BARE_END = b"\n\n"  # a client that ends its lines with LF alone (http.server takes them)
_READ = 16 * 1024


@dataclass
class _Waiting:
    address: Any
    deadline: float  # the head must be complete by then
    head_seconds: float
    started: bool  # a byte of this request came: the head deadline runs
    buffered: bytearray = field(default_factory=bytearray)


def _head_end(data: bytes | bytearray) -> int:
    """Where the head in ``data`` ends (after its blank line), or -1."""
    found = [at + len(mark) for mark in (_END, _BARE_END) if (at := data.find(mark)) >= 0]
    return min(found) if found else -1


class HeadGate:
    """Reads request heads for a server; ``ready(connection, address, head, rest)`` gets
    each complete head, with what came after it (a pipelined request), in the gate's
    thread; ``dropped()`` is told of each connection the gate closes instead. ``most``
    connections wait at the most: beyond, the one waiting longest is closed for the new
    one."""

    def __init__(self, ready: Callable[[socket.socket, Any, bytes, bytes], None], *,
                 dropped: Callable[[], None], most: int) -> None:
        self._ready = ready
        self._dropped = dropped  # told of each connection the gate closes
        self._most = most
        self._selector = selectors.DefaultSelector()
        self._waiting: dict[socket.socket, _Waiting] = {}
        self._incoming: list[tuple[socket.socket, _Waiting]] = []
        self._lock = threading.Lock()
        self._wake_read, self._wake_write = socket.socketpair()
        self._wake_read.setblocking(False)
        self._selector.register(self._wake_read, selectors.EVENT_READ)
        self._closing = False
        self._thread = threading.Thread(target=self._run, name="agentprose-heads", daemon=True)
        self._thread.start()

    def add(self, connection: socket.socket, address: Any, *, head_seconds: float,
            idle_seconds: float | None = None, buffered: bytes = b"") -> None:
        """Wait for the next head on ``connection``: within ``head_seconds``, or, given
        ``idle_seconds`` (a kept-alive connection), its first byte within those and the
        rest within ``head_seconds`` after it. ``buffered``: what came already."""
        now = time.monotonic()
        waiting = _Waiting(address, now + (idle_seconds if idle_seconds is not None
                                            and not buffered else head_seconds),
                           head_seconds, started=idle_seconds is None or bool(buffered),
                           buffered=bytearray(buffered))
        with self._lock:
            if self._closing:
                self._close(connection)
                return
            self._incoming.append((connection, waiting))
        with contextlib.suppress(OSError):
            self._wake_write.send(b"\0")

    @property
    def waiting(self) -> int:
        """Connections waiting for their head now."""
        return len(self._waiting) + len(self._incoming)

    def close(self) -> None:
        """Stop, and close every connection still waiting for its head."""
        with self._lock:
            self._closing = True
        with contextlib.suppress(OSError):
            self._wake_write.send(b"\0")
        self._thread.join(timeout=10)
        for connection, _ in self._incoming:
            self._close(connection)
        self._incoming.clear()
        for connection in list(self._waiting):
            self._drop(connection)
        self._selector.close()
        self._wake_read.close()
        self._wake_write.close()

    def _run(self) -> None:
        while True:
            with self._lock:
                if self._closing:
                    return
                incoming, self._incoming = self._incoming, []
            for connection, waiting in incoming:
                self._watch(connection, waiting)
            timeout = min((w.deadline for w in self._waiting.values()), default=None)
            left = None if timeout is None else max(0.0, timeout - time.monotonic())
            for key, _ in self._selector.select(left):
                if key.fileobj is self._wake_read:
                    with contextlib.suppress(OSError):
                        self._wake_read.recv(4096)
                else:
                    self._read(key.fileobj)  # type: ignore[arg-type]
            self._expire(time.monotonic())

    def _watch(self, connection: socket.socket, waiting: _Waiting) -> None:
        if self._complete(connection, waiting):
            return
        if len(self._waiting) >= self._most:  # the one that has waited longest makes room
            oldest = min(self._waiting, key=lambda c: self._waiting[c].deadline)
            self._drop(oldest)
        try:
            connection.setblocking(False)
            self._selector.register(connection, selectors.EVENT_READ)
        except (OSError, ValueError):
            self._close(connection)
            return
        self._waiting[connection] = waiting

    def _read(self, connection: socket.socket) -> None:
        waiting = self._waiting.get(connection)
        if waiting is None:
            return
        try:
            data = connection.recv(_READ)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the client hung up
            self._drop(connection)
            return
        if not waiting.started:  # the first byte of a kept-alive connection's next request
            waiting.started = True
            waiting.deadline = time.monotonic() + waiting.head_seconds
        waiting.buffered += data
        self._selector.unregister(connection)
        del self._waiting[connection]
        if not self._complete(connection, waiting):
            self._selector.register(connection, selectors.EVENT_READ)
            self._waiting[connection] = waiting

    def _complete(self, connection: socket.socket, waiting: _Waiting) -> bool:
        """Hand the connection over when its head is complete (True); close it when the
        head is too large (True); False while it is still coming."""
        end = _head_end(waiting.buffered)
        if end < 0:
            if len(waiting.buffered) > MAX_HEAD:
                self._close(connection)
                return True
            return False
        data = bytes(waiting.buffered)
        try:
            connection.setblocking(True)
            self._ready(connection, waiting.address, data[:end], data[end:])
        except Exception:  # a server that cannot take it: the client is let go
            self._close(connection)
        return True

    def _expire(self, now: float) -> None:
        for connection in [c for c, w in self._waiting.items() if w.deadline <= now]:
            self._drop(connection)

    def _drop(self, connection: socket.socket) -> None:
        self._waiting.pop(connection, None)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(connection)
        self._close(connection)

    def _close(self, connection: socket.socket) -> None:
        with contextlib.suppress(OSError):
            connection.shutdown(socket.SHUT_RDWR)
        with contextlib.suppress(OSError):
            connection.close()
        self._dropped()
