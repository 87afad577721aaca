"""``agentprose serve``: preview a built site the way agents will see it in production.

The server answers a page's URL with its HTML or its agent view, chosen by ``Accept``
(:mod:`agentprose_core.serve.negotiate`), with ``Vary``, validators and ``304`` revalidation.
Everything but the socket is in :func:`respond`, which maps a :class:`Request` to a
:class:`Response` and can be tested without a network.

- Request paths are decoded one segment at a time. A segment that decodes to ``.`` or
  ``..``, or holds ``/``, ``\\``, NUL or a control character, is a ``400``; a path that
  resolves (symlinks included) outside the site directory is a ``404``. The query is
  ignored.
- Hidden files (:func:`~agentprose_core.serve.paths.hidden`: ``.git/``, ``.env``) are
  never served, however they are reached: the URL, a page's view, a folder's index, or a
  symbolic link to them or named like them. They answer ``404``, as if absent.
- Validators: a strong ``ETag`` (a hash of the media type and the bytes, so a page's HTML
  and Markdown never share one) and ``Last-Modified`` (the file's time). ``If-None-Match``
  (weak comparison, ``*`` matches) decides alone when present; otherwise
  ``If-Modified-Since`` does. Both give ``304`` with the validators, ``Vary`` and
  ``Cache-Control``, and no body.
- ``Cache-Control: no-cache``: caches may store a page but revalidate it each time, which
  suits a preview whose files change under it.
- ``Link`` on both answers of a page URL: the ``llms.txt`` that covers the page (the
  nearest one in its folder or a parent folder, up to the site's base) and
  ``agentprose.json`` when the site has them, and on the HTML the page's view.
- With ``detect_agents`` (``--detect-agents``), a request from a known agent fetcher
  (:func:`agentprose_core.agents.is_agent`) gets the view whatever its ``Accept``, and
  both answers of a page URL say ``Vary: Accept, User-Agent, Signature-Agent``. A
  crawler's User-Agent never counts; a crawler that asks for ``text/markdown`` itself
  gets it, like anyone.
- A missing file asked for by a client that would get Markdown answers a short Markdown
  ``404`` that links the ``llms.txt`` and ``agentprose.json``; others get ``404.html``.
- A file is hashed for its ``ETag`` once while its inode, size and times stay the same;
  a body larger than 64 KiB is sent from the file (``sendfile``), so memory does not
  grow with the files served.
- Connections are served by a fixed pool of worker threads, which only ever get a
  request whose head is complete: one thread watches the connections still sending
  theirs (:mod:`.heads`), so slow or silent clients hold no worker. A head must come
  whole within 5 seconds (or ``timeout``, when shorter); between two requests a
  connection stays open up to 15 seconds (``Keep-Alive: timeout=15`` tells clients, so
  they drop it first), waiting in that thread too. A response is sent within
  ``timeout`` seconds of silence from the client.
"""

from __future__ import annotations

import email.utils
import functools
import hashlib
import io
import mimetypes
import os
import re
import socket
import sys
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from io import BufferedReader
from pathlib import Path
from typing import Any
from urllib.parse import quote

from agentprose_core import __version__
from agentprose_core.agents import VARY_AGENTS, is_agent, link_header, not_found_markdown
from agentprose_core.errors import InputError
from agentprose_core.model import INDEX_NAME, LLMS_NAME
from agentprose_core.serve.heads import HeadGate
from agentprose_core.serve.negotiate import choose
from agentprose_core.serve.paths import (
    SAFE,
    Target,
    hidden,
    map_target,
    normalize_base_path,
    url_path,
    view_candidates,
)
from agentprose_core.urls import INDEX_NAMES

__all__ = [
    "PreviewServer",
    "Request",
    "Response",
    "Site",
    "content_type_for",
    "entity_tag",
    "etag_matches",
    "http_date",
    "make_server",
    "not_modified",
    "respond",
    "run_server",
    "serve_forever",
]

_TYPES = {
    ".md": "text/markdown; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}
_PAGE_SUFFIXES = (".html", ".htm")
_CACHE_CONTROL = ("Cache-Control", "no-cache")
_ENTITY_TAG = re.compile(r'(?:W/)?("[^"]*")')
_LOOKUP_SECONDS = 2
"""How long a folder's ``llms.txt`` and the index, once looked up, are taken as they were."""
# Bodies up to this size are read into memory (one read, and what tests of respond() look
# at); larger ones are streamed from the file by the handler.
_INLINE_LIMIT = 64 * 1024
_ETAG_ENTRIES = 4096  # about 1 MB at most; a site larger than that rehashes cold files
WORKERS = 32  # connections served at once; more wait in the queue
TIMEOUT = 30.0  # seconds a client may stay silent before it is disconnected
# Seconds a kept-alive connection may wait for its next request. Clients are told
# (``Keep-Alive: timeout=15``) and close idle connections before that.
_KEEP_ALIVE = 15.0
_HEAD_SECONDS = 5.0  # for a request's head to come whole, from its connection or first byte
# Open connections (waiting for their head, for a worker, or served); beyond, new ones are
# closed at once rather than held without bound (each holds a file descriptor).
_MAX_CONNECTIONS = 512


@dataclass(frozen=True)
class Site:
    """A built site on disk and the URL path it is served under (``/`` or ``/docs/``)."""

    root: Path
    base_path: str = "/"
    detect_agents: bool = False
    """Answer the view to known agent fetchers whatever their ``Accept``."""

    @property
    def base_segments(self) -> tuple[str, ...]:
        return tuple(s for s in self.base_path.split("/") if s)


@dataclass(frozen=True)
class Request:
    """What :func:`respond` needs from an HTTP request; ``target`` as sent (latin-1 text)."""

    method: str = "GET"
    target: str = "/"
    accept: str | None = None
    if_none_match: str | None = None
    if_modified_since: str | None = None
    user_agent: str | None = None
    signature_agent: str | None = None


@dataclass(frozen=True)
class Response:
    """Status, headers and the body a ``GET`` would get (the handler drops it for ``HEAD``).

    The body is ``body``, or, when ``file`` is set, that file's first ``length`` bytes,
    which the handler sends from the file rather than from memory.
    """

    status: int
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    file: Path | None = None
    length: int = 0

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)


def content_type_for(name: str) -> str:
    """``Content-Type`` of a file by its name; text is taken to be UTF-8."""
    suffix = Path(name).suffix.lower()
    if suffix in _TYPES:
        return _TYPES[suffix]
    guessed = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return guessed + "; charset=utf-8" if guessed.startswith("text/") else guessed


def entity_tag(data: bytes, content_type: str) -> str:
    """A strong ``ETag``: differs whenever the bytes or the media type differ."""
    return _tag(hashlib.sha256(_tag_prefix(content_type) + data).hexdigest())


def _tag_prefix(content_type: str) -> bytes:
    return content_type.encode() + b"\0"


def _tag(hexdigest: str) -> str:
    return f'"{hexdigest[:32]}"'


def _hash_file(file: BufferedReader, size: int, content_type: str) -> tuple[str, bytes | None]:
    """The file's :func:`entity_tag`, and its bytes when small enough to keep for the body."""
    if size <= _INLINE_LIMIT:
        data = file.read(size)
        return entity_tag(data, content_type), data
    # file_digest reads in fixed-size chunks: memory stays flat whatever the file's size.
    start = functools.partial(hashlib.sha256, _tag_prefix(content_type))
    digest = hashlib.file_digest(file, start)
    return _tag(digest.hexdigest()), None


_Stamp = tuple[int, int, int, int]


class _ETagCache:
    """ETags by file and media type, valid while the file's inode, size and times stay.

    Shared by the worker threads (hence the lock) and bounded: the least recently used
    file goes first. One entry per file, replaced when the file changes. A rewrite in
    place to the same size within one tick of the file system's clock would keep the old
    tag; nginx's ETag (time and size) has the same blind spot.
    """

    def __init__(self, entries: int = _ETAG_ENTRIES) -> None:
        self._entries = entries
        self._tags: OrderedDict[tuple[str, str], tuple[_Stamp, str]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._tags)

    def get(self, key: tuple[str, str], stamp: _Stamp) -> str | None:
        with self._lock:
            found = self._tags.get(key)
            if found is None or found[0] != stamp:
                return None
            self._tags.move_to_end(key)
            return found[1]

    def put(self, key: tuple[str, str], stamp: _Stamp, etag: str) -> None:
        with self._lock:
            self._tags[key] = (stamp, etag)
            self._tags.move_to_end(key)
            while len(self._tags) > self._entries:
                self._tags.popitem(last=False)


_ETAGS = _ETagCache()


def _stamp(status: os.stat_result) -> _Stamp:
    # ctime too: it moves on every write even when a tool restores the mtime (rsync -t).
    return (status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def http_date(timestamp: float) -> str:
    """An IMF-fixdate: ``Sun, 06 Nov 1994 08:49:37 GMT``."""
    return email.utils.formatdate(timestamp, usegmt=True)


def etag_matches(if_none_match: str, etag: str) -> bool:
    """Weak comparison of ``etag`` against an ``If-None-Match`` list (``*`` matches all)."""
    if if_none_match.strip() == "*":
        return True
    return etag.removeprefix("W/") in _ENTITY_TAG.findall(if_none_match)


def not_modified(request: Request, etag: str, mtime: float) -> bool:
    """True when a ``GET``/``HEAD`` may be answered ``304`` (RFC 9110, section 13.2.2)."""
    if request.method not in ("GET", "HEAD"):
        return False
    if request.if_none_match is not None:
        return etag_matches(request.if_none_match, etag)
    if request.if_modified_since is None:
        return False
    try:  # a date no calendar holds (year 99999999999) is no date: answered in full
        since = email.utils.parsedate_to_datetime(request.if_modified_since)
        if since.tzinfo is None:  # "-0000": the RFC's dates are all UTC
            since = since.replace(tzinfo=UTC)
        return int(mtime) <= since.timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return False


def _servable(site: Site, path: Path) -> bool:
    """``path`` (under the root) is in the site once symlinks are resolved, and neither
    its name nor what it resolves to is hidden (a link ``env.txt`` to ``.env`` included)."""
    # Strings, not PurePath.relative_to(): this runs for every candidate of every request.
    root = str(site.root)
    resolved = os.path.realpath(path)
    if resolved != root and not resolved.startswith(root.rstrip(os.sep) + os.sep):
        return False
    return not (hidden(_parts_under(root, str(path))) or hidden(_parts_under(root, resolved)))


def _parts_under(root: str, path: str) -> list[str]:
    return [part for part in path[len(root):].split(os.sep) if part]  # noqa: PTH206


def _simple(status: int, text: str, *extra: tuple[str, str]) -> Response:
    body = text.encode()
    headers = (("Content-Type", "text/plain; charset=utf-8"),
               ("Content-Length", str(len(body))), _CACHE_CONTROL, *extra)
    return Response(status, headers, body)


def _not_found(site: Site) -> Response:
    page = site.root / "404.html"
    if page.is_file() and _servable(site, page):
        body = page.read_bytes()
        headers = (("Content-Type", _TYPES[".html"]), ("Content-Length", str(len(body))),
                   _CACHE_CONTROL)
        return Response(HTTPStatus.NOT_FOUND, headers, body)
    return _simple(HTTPStatus.NOT_FOUND, "Not found\n")


def _locate(site: Site, target: Target) -> tuple[str, Response | None]:
    """The site-relative file a mapped target serves, or the response that answers instead."""
    candidate = site.root.joinpath(*target.segments)
    if not _servable(site, candidate):
        return "", _not_found(site)
    relative = "/".join(target.segments)
    if candidate.is_dir():
        if not target.directory:
            location = url_path([*site.base_segments, *target.segments], directory=True)
            return "", _simple(HTTPStatus.MOVED_PERMANENTLY, "Moved\n", ("Location", location))
        for name in INDEX_NAMES:
            index = candidate / name
            if index.is_file() and _servable(site, index):
                return f"{relative}/{name}".lstrip("/"), None
        return "", _not_found(site)
    if candidate.is_file() and not target.directory:
        return relative, None
    return "", _not_found(site)


def _view_of(site: Site, relative: str) -> str | None:
    """The site-relative path of the page's agent view, when one was written: the first
    of :func:`view_candidates` that is a file (for a folder's page ``a/index.md`` before
    ``a.md``, so a MkDocs page costs one more ``stat`` than a Sphinx one)."""
    if not relative.lower().endswith(_PAGE_SUFFIXES):
        return None
    for view in view_candidates(relative, site.base_path):
        path = site.root / view
        if path.is_file() and _servable(site, path):
            return view
    return None


def _file_response(site: Site, relative: str, request: Request,
                   extra: tuple[tuple[str, str], ...] = (),
                   vary: tuple[tuple[str, str], ...] = ()) -> Response:
    """A file with its validators; ``vary`` headers are kept on a 304, ``extra`` are not.

    Stat, ETag and bytes all come from one open file, so they agree even when a build
    replaces the file meanwhile.
    """
    path = site.root / relative
    content_type = content_type_for(relative)
    try:
        with path.open("rb") as file:
            status, etag, data = _validated(file, path, content_type)
            validators = (("ETag", etag), ("Last-Modified", http_date(status.st_mtime)),
                          _CACHE_CONTROL, *vary)
            if not_modified(request, etag, status.st_mtime):
                return Response(HTTPStatus.NOT_MODIFIED, validators)
            if status.st_size > _INLINE_LIMIT:
                headers = (("Content-Type", content_type),
                           ("Content-Length", str(status.st_size)), *validators, *extra)
                return Response(HTTPStatus.OK, headers, file=path, length=status.st_size)
            body = data if data is not None else file.read(status.st_size)
    except OSError:
        return _not_found(site)
    headers = (("Content-Type", content_type), ("Content-Length", str(len(body))),
               *validators, *extra)
    return Response(HTTPStatus.OK, headers, body)


def _validated(file: BufferedReader, path: Path,
               content_type: str) -> tuple[os.stat_result, str, bytes | None]:
    """The open file's status and ETag (hashed only when not cached), and its bytes when
    hashing them read them."""
    status = os.fstat(file.fileno())
    key, stamp = (str(path), content_type), _stamp(status)
    etag = _ETAGS.get(key, stamp)
    if etag is not None:
        return status, etag, None
    etag, data = _hash_file(file, status.st_size, content_type)
    _ETAGS.put(key, stamp, etag)
    return status, etag, data


def respond(site: Site, request: Request) -> Response:
    """The whole answer to one request: mapping, negotiation, validators; a ``404`` in
    Markdown for a client that would get Markdown."""
    response = _respond(site, request)
    if response.status == HTTPStatus.NOT_FOUND and _wants_markdown(site, request):
        return _markdown_not_found(site, request)
    return response


def _respond(site: Site, request: Request) -> Response:
    if request.method not in ("GET", "HEAD"):
        return _simple(HTTPStatus.METHOD_NOT_ALLOWED, "Method not allowed\n",
                       ("Allow", "GET, HEAD"))
    target = map_target(request.target, site.base_path)
    if target.status == HTTPStatus.BAD_REQUEST:
        return _simple(HTTPStatus.BAD_REQUEST, "Bad request\n")
    if target.status == HTTPStatus.NOT_FOUND:
        return _not_found(site)
    if target.status == HTTPStatus.MOVED_PERMANENTLY:
        return _simple(target.status, "Moved\n", ("Location", target.location))
    relative, answer = _locate(site, target)
    if answer is not None:
        return answer
    view = _view_of(site, relative)
    if view is None:
        return _file_response(site, relative, request)
    return _negotiated(site, relative, view, request)


# --- negotiation: which representation, and the headers that describe the page ---------

def _wants_markdown(site: Site, request: Request) -> bool:
    """The agent view for this request: its ``Accept`` asks for it, or (with detection
    on) it comes from a known agent fetcher."""
    if request.method not in ("GET", "HEAD"):
        return False
    if choose(request.accept).markdown:
        return True
    return site.detect_agents and is_agent(request.user_agent, request.signature_agent)


def _lookup_tick() -> int:
    """Changes every ``_LOOKUP_SECONDS``: a cached look-up is redone after a rebuild."""
    return int(time.monotonic() // _LOOKUP_SECONDS)


@functools.lru_cache(maxsize=1024)
def _described_by(site: Site, folder: tuple[str, ...], tick: int) -> tuple[str | None, str | None]:
    """The URL paths of the ``llms.txt`` nearest to ``folder`` (walking up to the site's
    base) and of the index, each None when the site has none; cached a little while
    (``tick``), as every page of a folder asks the same."""
    del tick  # part of the cache key only
    llms = None
    for depth in range(len(folder), -1, -1):
        candidate = site.root.joinpath(*folder[:depth], LLMS_NAME)
        if candidate.is_file() and _servable(site, candidate):
            llms = url_path([*site.base_segments, *folder[:depth], LLMS_NAME], directory=False)
            break
    index_file = site.root / INDEX_NAME
    index = None
    if index_file.is_file() and _servable(site, index_file):
        index = url_path([*site.base_segments, INDEX_NAME], directory=False)
    return llms, index


def _links(site: Site, relative: str) -> tuple[str | None, str | None]:
    """The ``llms.txt`` and index of the page at ``relative`` (its folder's segments)."""
    return _described_by(site, tuple(relative.split("/")[:-1]), _lookup_tick())


def _negotiated(site: Site, relative: str, view: str, request: Request) -> Response:
    """A page URL with a view: the view or the HTML, each with ``Vary`` and ``Link``."""
    view_path = quote(site.base_path + view, safe=SAFE)
    vary = ("Vary", VARY_AGENTS if site.detect_agents else "Accept")
    llms, index = _links(site, relative)
    if _wants_markdown(site, request):
        link = link_header(describedby=llms, index=index)
        extra = (("Link", link),) if link else ()
        return _file_response(site, view, request, extra=extra,
                              vary=(vary, ("Content-Location", view_path)))
    link = link_header(view=view_path, describedby=llms, index=index)
    return _file_response(site, relative, request, extra=(("Link", link),), vary=(vary,))


def _markdown_not_found(site: Site, request: Request) -> Response:
    """A ``404`` in Markdown, linking the ``llms.txt`` that covers the path and the index."""
    target = map_target(request.target, site.base_path)
    folder = target.segments if target.directory else target.segments[:-1]
    llms, index = _described_by(site, folder, _lookup_tick())
    body = not_found_markdown(describedby=llms, index=index).encode()
    vary = VARY_AGENTS if site.detect_agents else "Accept"
    headers = (("Content-Type", _TYPES[".md"]), ("Content-Length", str(len(body))),
               _CACHE_CONTROL, ("Vary", vary))
    return Response(HTTPStatus.NOT_FOUND, headers, body)


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
                 workers: int = WORKERS, timeout: float = TIMEOUT) -> None:
        self.site = site
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
                timeout: float = TIMEOUT) -> PreviewServer:
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
        return PreviewServer((host, port), site, quiet=quiet, workers=workers, timeout=timeout)
    except OSError as error:
        raise InputError(f"Cannot listen on {host}:{port}: {error.strerror or error}.") from error


def serve_forever(server: PreviewServer, *, poll_interval: float = 0.5) -> None:
    """Serve until interrupted or :meth:`~PreviewServer.shutdown`, then close the socket."""
    try:
        server.serve_forever(poll_interval=poll_interval)
    finally:
        server.server_close()


def run_server(site_dir: Path | str, *, host: str = "127.0.0.1", port: int = 8000,
               base_path: str = "/", quiet: bool = False, detect_agents: bool = False) -> None:
    """``agentprose serve``: announce the URL on standard error and serve until Ctrl+C."""
    server = make_server(site_dir, host=host, port=port, base_path=base_path, quiet=quiet,
                         detect_agents=detect_agents)
    sys.stderr.write(f"agentprose: serving {site_dir} at {server.url} (Ctrl+C to stop)\n")
    sys.stderr.flush()
    serve_forever(server)
