"""The one way ``agentprose check`` and ``agentprose mcp`` reach the network: a request
sent with urllib, redirects not followed (the caller decides, so that none leaves the
origin), each answer at most :data:`MAX_BODY` bytes and due whole within its timeout:
a server that drips one byte a second is cut off, as is one that never answers.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["MAX_BODY", "Fetch", "HttpRequest", "HttpResponse", "urllib_fetch"]

MAX_BODY = 64 * 1024 * 1024
_USER_AGENT = "agentprose-check"


@dataclass(frozen=True)
class HttpRequest:
    """One request to an absolute URL: a GET or HEAD, or a POST with its ``body``."""

    method: str
    url: str
    headers: Mapping[str, str]
    timeout: float
    body: bytes | None = None


@dataclass(frozen=True)
class HttpResponse:
    """One response, redirects not followed; header names in lower case."""

    status: int
    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""

    def header(self, name: str) -> str:
        """The header's value (names in any case), or an empty string."""
        return self.headers.get(name.lower(), "")

    @property
    def media_type(self) -> str:
        """The response's media type, lower case, without parameters."""
        return self.header("content-type").split(";")[0].strip().lower()

    @property
    def charset(self) -> str:
        """The charset the ``Content-Type`` names, or an empty string."""
        for param in self.header("content-type").split(";")[1:]:
            name, _, value = param.partition("=")
            if name.strip().lower() == "charset":
                return value.strip().strip('"').lower()
        return ""

    def validator(self) -> tuple[str, str] | None:
        """The conditional header that revalidates this response, if it allows one."""
        if self.header("etag"):
            return "If-None-Match", self.header("etag")
        if self.header("last-modified"):
            return "If-Modified-Since", self.header("last-modified")
        return None

    def varies_on_accept(self) -> bool:
        """True when the response says it varies on ``Accept``."""
        tokens = {token.strip().lower() for token in self.header("vary").split(",")}
        return "accept" in tokens or "*" in tokens


Fetch: TypeAlias = Callable[[HttpRequest], HttpResponse]
"""Sends one request and returns its answer without following redirects."""


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # the Client decides, so that no redirect leaves the origin


class _Watch:
    """The socket of the request this thread sends, so that its deadline can cut it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sock: socket.socket | None = None
        self.expired = False

    def connected(self, sock: socket.socket) -> None:
        with self.lock:
            self.sock = sock
            expired = self.expired
        if expired:
            _cut(sock)

    def expire(self) -> None:
        with self.lock:
            self.expired = True
            sock = self.sock
        if sock is not None:
            _cut(sock)


def _cut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)  # a read blocked on it returns at once


_WATCHES = threading.local()


class _Watched(http.client.HTTPConnection):
    def connect(self) -> None:
        super().connect()
        watch: _Watch | None = getattr(_WATCHES, "watch", None)
        if watch is not None and self.sock is not None:
            watch.connected(self.sock)


class _WatchedHTTPS(_Watched, http.client.HTTPSConnection):
    pass


class _HTTP(urllib.request.HTTPHandler):
    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_Watched, req)


class _HTTPS(urllib.request.HTTPSHandler):
    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_WatchedHTTPS, req)


_OPENER = urllib.request.build_opener(_NoRedirects, _HTTP, _HTTPS)


def urllib_fetch(request: HttpRequest) -> HttpResponse:
    """Send ``request`` with urllib; a 3xx, 4xx or 5xx is returned, not raised. The
    whole exchange (connecting, the headers, the body) must end within its timeout.

    Raises :class:`OSError` (timeouts, refused connections, bodies over 64 MiB) and
    :class:`http.client.HTTPException` for what never became a response.
    """
    watch = _Watch()
    _WATCHES.watch = watch
    timer = threading.Timer(request.timeout, watch.expire)
    timer.daemon = True
    timer.start()
    try:
        answer = _fetch(request)
    except (OSError, http.client.HTTPException, ValueError):
        if watch.expired:
            raise TimeoutError(f"{request.url}: no whole answer within {request.timeout:g} s") \
                from None
        raise
    finally:
        timer.cancel()
        _WATCHES.watch = None
    if watch.expired:  # cut mid-body: what came is not the answer
        raise TimeoutError(f"{request.url}: no whole answer within {request.timeout:g} s")
    return answer


def _fetch(request: HttpRequest) -> HttpResponse:
    # urllib opens file:, ftp: and data: URLs too: a URL a site wrote must not read
    # this machine's files.
    if urllib.parse.urlsplit(request.url).scheme.lower() not in ("http", "https"):
        raise OSError(f"{request.url}: only http and https URLs are fetched")
    headers = {"User-Agent": _USER_AGENT, **request.headers}
    prepared = urllib.request.Request(request.url, data=request.body, headers=headers,  # noqa: S310
                                      method=request.method)
    try:
        response = _OPENER.open(prepared, timeout=request.timeout)
    except urllib.error.HTTPError as error:
        response = error
    with response:
        body = response.read(MAX_BODY + 1)
        if len(body) > MAX_BODY:
            raise OSError(f"{request.url}: the answer is larger than {MAX_BODY} bytes")
        names = {name.lower() for name in response.headers}
        found = {name: ", ".join(response.headers.get_all(name) or ()) for name in names}
        return HttpResponse(response.status or 0, request.url, found, body)
