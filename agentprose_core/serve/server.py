"""``agentprose serve``: preview a built site the way agents will see it in production.

The socket server around :func:`~agentprose_core.serve.answers.respond`, which holds
every HTTP rule (paths, negotiation, validators, ``Link`` headers).

- Connections are served by a fixed pool of worker threads, which only ever get a
  request whose head is complete: one thread watches the connections still sending
  theirs (:mod:`.heads`), so slow or silent clients hold no worker. A head must come
  whole within 5 seconds (or ``timeout``, when shorter); between two requests a
  connection stays open up to 15 seconds (``Keep-Alive: timeout=15`` tells clients, so
  they drop it first), waiting in that thread too. A response is sent within
  ``timeout`` seconds of silence from the client.
"""

from __future__ import annotations

import functools
import io
import socket
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote, urlsplit

from agentprose_core.errors import InputError
from agentprose_core.serve.answers import Request, Response, Site, respond
from agentprose_core.serve.heads import HeadGate
from agentprose_core.sitepaths import SAFE, normalize_base_path
from agentprose_core.version import __version__

__all__ = ["ENDPOINT_MAX_BYTES", "TIMEOUT", "WORKERS", "BodyAnswer", "Endpoint",
           "PreviewServer", "make_server", "run_server", "serve_forever"]

WORKERS = 32  # connections served at once; more wait in the queue
TIMEOUT = 30.0  # seconds a client may stay silent before it is disconnected
# Seconds a kept-alive connection may wait for its next request. Clients are told
# (``Keep-Alive: timeout=15``) and close idle connections before that.
_KEEP_ALIVE = 15.0
_HEAD_SECONDS = 5.0  # for a request's head to come whole, from its connection or first byte
# Open connections (waiting for their head, for a worker, or served); beyond, new ones are
# closed at once rather than held without bound (each holds a file descriptor).
_MAX_CONNECTIONS = 512


class BodyAnswer(Protocol):
    """An endpoint's answer."""

    @property
    def status(self) -> int:
        """The HTTP status."""
        ...

    @property
    def headers(self) -> tuple[tuple[str, str], ...]:
        """The headers, but Content-Length and Connection."""
        ...

    @property
    def body(self) -> bytes:
        """The body."""
        ...


class Endpoint(Protocol):
    """What answers requests with a body at one path (``serve --mcp``'s MCP endpoint)."""

    def answer(self, method: str, body: bytes) -> BodyAnswer:
        """The answer to a request of ``method`` with ``body``."""
        ...

    def too_large(self) -> BodyAnswer:
        """The answer to a body over :data:`ENDPOINT_MAX_BYTES`."""
        ...

    def advertised(self, path: str, base_url: str) -> BodyAnswer | None:
        """A file that advertises the endpoint (``path`` under the site), if it has one."""
        ...


ENDPOINT_MAX_BYTES = 65_536
"""The largest request body an endpoint reads."""


@dataclass(frozen=True)
class _LengthRequired:
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


class PreviewServer(HTTPServer):
    """An HTTP server that knows its :class:`Site` and serves it from a pool of threads.

    ``workers`` threads serve one connection each; accepted connections wait for one in
    the pool's queue, up to :data:`_MAX_CONNECTIONS` in all. ``timeout``: seconds a client
    may stay silent before it is disconnected.
    """

    # The listen backlog: a burst of clients (a crawler, a test suite) waits to be accepted
    # rather than being refused. The kernel caps it at net.core.somaxconn.
    request_queue_size = 512

    def __init__(self, address: tuple[str, int], site: Site, *, quiet: bool = False,
                 workers: int = WORKERS, timeout: float = TIMEOUT,
                 endpoint: Endpoint | None = None) -> None:
        self.site = site
        self.endpoint = endpoint
        """Answers ``POST``s to ``<base path>mcp`` (``serve --mcp``)."""
        self.quiet = quiet
        self.idle_timeout = timeout
        self.workers = workers
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        # Set before binding: HTTPServer.__init__ calls server_close() when binding fails.
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="agentprose-serve")
        self._lock = threading.Lock()
        self._accepted = 0  # open connections: waiting for a head or a worker, or served
        self._open: set[socket.socket] = set()  # connections being served
        self._heads: dict[socket.socket, bytes] = {}  # the head each one's handler reads
        self._rests: dict[socket.socket, bytes] = {}  # what came after it: a body's start
        self._closing = False
        self._gate = HeadGate(self._head_came, dropped=self._dropped, most=_MAX_CONNECTIONS)
        super().__init__(address, _Handler)

    @property
    def url(self) -> str:
        """The site's URL on this server, e.g. ``http://127.0.0.1:8000/docs/``."""
        host, port = str(self.server_address[0]), int(self.server_address[1])
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{port}{quote(self.site.base_path, safe=SAFE)}"

    @property
    def crowded(self) -> bool:
        """True while connections with a complete head wait for a worker."""
        return self._accepted - self._gate.waiting > self.workers

    def _head_seconds(self) -> float:
        return min(_HEAD_SECONDS, self.idle_timeout)

    def process_request(self, request: Any, client_address: Any) -> None:
        """Hand the connection to the gate until its head is complete, or close it when
        the server is full."""
        with self._lock:
            admitted = not self._closing and self._accepted < _MAX_CONNECTIONS
            if admitted:
                self._accepted += 1
        if not admitted:
            self.shutdown_request(request)
            return
        self._gate.add(request, client_address, head_seconds=self._head_seconds())

    def _head_came(self, connection: socket.socket, address: Any, head: bytes,
                   rest: bytes) -> None:
        """The gate's: a complete head, for a worker."""
        connection.settimeout(self.idle_timeout)
        with self._lock:  # held while submitting, so that server_close() cannot race it
            if self._closing:
                raise ConnectionAbortedError
            self._heads[connection] = head
            self._rests[connection] = rest
            future = self._pool.submit(self._serve_connection, connection, address)
        # Outside the lock: a future already done runs its callback here and now.
        future.add_done_callback(functools.partial(self._connection_done, connection, address,
                                                   rest))

    def _dropped(self) -> None:
        with self._lock:
            self._accepted -= 1

    def take_head(self, connection: socket.socket) -> bytes:
        """The head the gate read for ``connection`` (once)."""
        with self._lock:
            return self._heads.pop(connection, b"")

    def take_rest(self, connection: socket.socket) -> bytes:
        """What the gate read for ``connection`` after the head (once)."""
        with self._lock:
            return self._rests.pop(connection, b"")

    def _serve_connection(self, request: socket.socket, client_address: Any) -> bool:
        """Answer one request; True when the connection stays open for the next."""
        with self._lock:
            if self._closing:
                return False
            self._open.add(request)
        try:
            handler = _Handler(request, client_address, self)
            return not handler.close_connection
        except Exception:
            self.handle_error(request, client_address)
            return False
        finally:
            with self._lock:
                self._open.discard(request)
                self._heads.pop(request, None)
                self._rests.pop(request, None)

    def _connection_done(self, request: socket.socket, address: Any, rest: bytes,
                         future: Future[bool]) -> None:
        """After a request is answered, or dropped when the server closes: the
        connection waits for its next head in the gate, or is closed."""
        kept = not future.cancelled() and future.exception() is None and future.result()
        if kept and not self._closing:
            self._gate.add(request, address, head_seconds=self._head_seconds(),
                           idle_seconds=min(_KEEP_ALIVE, self.idle_timeout), buffered=rest)
            return
        with self._lock:  # first: a client that sees the connection end may connect again
            self._accepted -= 1
        self.shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Log what went wrong with a request, unless the client just went away."""
        # A client that hangs up or stalls mid-response is routine, not a traceback.
        if not isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            super().handle_error(request, client_address)

    def server_close(self) -> None:
        """Stop listening, hang up on every open connection and wait for the workers."""
        super().server_close()
        with self._lock:
            self._closing = True
            serving = list(self._open)
        self._gate.close()
        for connection in serving:  # a worker blocked reading it wakes up at once
            with suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        self._pool.shutdown(wait=True, cancel_futures=True)


class _Handler(BaseHTTPRequestHandler):
    """Thin: turns the request into a :class:`Request` and writes the :class:`Response`."""

    server: PreviewServer
    protocol_version = "HTTP/1.1"
    server_version = f"agentprose/{__version__}"
    # Headers and body go out in two writes; without this, Nagle's algorithm holds the
    # second until the client's delayed ACK (up to 40 ms) on a kept-alive connection.
    disable_nagle_algorithm = True

    def setup(self) -> None:
        super().setup()
        # The head the gate read: the request is parsed from it, never from the socket.
        self.rfile.close()
        self.rfile = io.BytesIO(self.server.take_head(self.connection))

    def handle(self) -> None:
        """One request: the server hands the connection back to the gate for the next."""
        self.close_connection = True
        self.handle_one_request()

    def _keep_alive(self) -> float:
        return min(self.server.idle_timeout, _KEEP_ALIVE)

    def version_string(self) -> str:
        return self.server_version

    def _joined(self, name: str) -> str | None:
        values = self.headers.get_all(name)
        return ", ".join(values) if values else None

    def _answer(self) -> None:
        endpoint = self.server.endpoint
        path, base = urlsplit(self.path).path, self.server.site.base_path
        if endpoint is not None and path == base + "mcp":
            self._send(self._endpoint_answer(endpoint))
            return
        found = endpoint.advertised(path.removeprefix(base), self.server.url) \
            if endpoint is not None and self.command in ("GET", "HEAD") else None
        if found is not None:
            self._send(found)
            return
        if self.headers.get("Content-Length", "0").strip() != "0" or \
                self.headers.get("Transfer-Encoding"):
            self.close_connection = True  # a body is never read: no next request after it
        since = self.headers.get_all("If-Modified-Since") or []
        request = Request(
            method=self.command,
            target=self.path,
            accept=self._joined("Accept"),
            if_none_match=self._joined("If-None-Match"),
            if_modified_since=since[0] if len(since) == 1 else None,
            user_agent=self.headers.get("User-Agent"),
            signature_agent=self._joined("Signature-Agent"),
        )
        response = respond(self.server.site, request)
        self.send_response(response.status)
        for name, value in response.headers:
            self.send_header(name, value)
        if self.server.crowded:  # hand the worker to a waiting connection
            self.send_header("Connection", "close")
            self.close_connection = True
        elif not self.close_connection:
            # Said, so that clients drop an idle connection before we do: one we close
            # as a client reuses it fails that request (Node's fetch: "fetch failed").
            self.send_header("Keep-Alive", f"timeout={int(self._keep_alive())}")
        self.end_headers()
        if self.command != "HEAD":
            self._send_body(response)

    def _endpoint_answer(self, endpoint: Endpoint) -> BodyAnswer:
        """The endpoint's answer, its body read (the connection closes after it)."""
        self.close_connection = True
        length = self.headers.get("Content-Length", "0").strip()
        if self.headers.get("Transfer-Encoding") or not length.isdigit():
            return _LengthRequired(411, (("Content-Type", "text/plain; charset=utf-8"),),
                                   b"Send the request with a Content-Length.\n")
        if int(length) > ENDPOINT_MAX_BYTES:
            return endpoint.too_large()
        body = self.server.take_rest(self.connection)[:int(length)]
        while len(body) < int(length):
            chunk = self.connection.recv(int(length) - len(body))
            if not chunk:
                break
            body += chunk
        return endpoint.answer(self.command, body)

    def _send(self, answer: BodyAnswer) -> None:
        self.send_response(answer.status)
        for name, value in answer.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(answer.body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(answer.body)

    def _send_body(self, response: Response) -> None:
        if response.file is None:
            if response.body:
                self.wfile.write(response.body)
            return
        # The file may have gone or shrunk since respond() looked at it. Its headers are
        # sent: only closing the connection tells the client the body is incomplete.
        try:
            file = response.file.open("rb")
        except OSError:
            self.close_connection = True
            return
        with file:  # sendfile(): from the page cache to the socket, no copy through Python
            sent = self.connection.sendfile(file, 0, response.length)
        if sent < response.length:
            self.close_connection = True

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _answer

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")


def make_server(site_dir: Path | str, *, host: str = "127.0.0.1", port: int = 8000,
                base_path: str = "/", quiet: bool = False,
                detect_agents: bool = False, workers: int = WORKERS,
                timeout: float = TIMEOUT, endpoint: Endpoint | None = None) -> PreviewServer:
    """A server bound to ``host:port`` (``0``: any free port) for the site in ``site_dir``;
    ``detect_agents`` answers the view to known agent fetchers whatever their ``Accept``.

    ``workers``: connections served at once; ``timeout``: seconds a silent client keeps
    its connection. Raises :class:`InputError` when the directory is missing or the
    address is taken.
    """
    root = Path(site_dir)
    if not root.is_dir():
        raise InputError(f"No such directory: {root}. Give the folder of the built site.")
    site = Site(root.resolve(), normalize_base_path(base_path), detect_agents=detect_agents)
    try:
        return PreviewServer((host, port), site, quiet=quiet, workers=workers, timeout=timeout,
                             endpoint=endpoint)
    except OSError as error:
        raise InputError(f"Cannot listen on {host}:{port}: {error.strerror or error}.") from error


def serve_forever(server: PreviewServer, *, poll_interval: float = 0.5) -> None:
    """Serve until interrupted or :meth:`~PreviewServer.shutdown`, then close the socket."""
    try:
        server.serve_forever(poll_interval=poll_interval)
    finally:
        server.server_close()


def run_server(site_dir: Path | str, *, host: str = "127.0.0.1", port: int = 8000,
               base_path: str = "/", quiet: bool = False, detect_agents: bool = False,
               endpoint: Endpoint | None = None) -> None:
    """``agentprose serve``: announce the URL on standard error and serve until Ctrl+C."""
    server = make_server(site_dir, host=host, port=port, base_path=base_path, quiet=quiet,
                         detect_agents=detect_agents, endpoint=endpoint)
    sys.stderr.write(f"agentprose: serving {site_dir} at {server.url} (Ctrl+C to stop)\n")
    if endpoint is not None:
        sys.stderr.write(f"agentprose: MCP endpoint at {server.url}mcp\n")
    sys.stderr.flush()
    serve_forever(server)
