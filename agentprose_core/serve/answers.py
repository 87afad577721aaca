"""What ``agentprose serve`` answers a request: the HTTP semantics, apart from the socket
server (:mod:`.server`).

A page's URL is answered with its HTML or its agent view, chosen by ``Accept``
(:mod:`agentprose_core.serve.negotiate`), with ``Vary``, validators and ``304``
revalidation. :func:`respond` maps a :class:`Request` to a :class:`Response` and can be
tested without a network.

- Request paths are decoded one segment at a time. A segment that decodes to ``.`` or
  ``..``, or holds ``/``, ``\\``, NUL or a control character, is a ``400``; a path that
  resolves (symlinks included) outside the site directory is a ``404``. The query is
  ignored.
- Hidden files (:func:`~agentprose_core.sitepaths.hidden`: ``.git/``, ``.env``) are
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
"""

from __future__ import annotations

import email.utils
import functools
import mimetypes
import os
import time
from dataclasses import dataclass
from datetime import UTC
from http import HTTPStatus
from pathlib import Path
from urllib.parse import quote

from agentprose_core.agents import VARY_AGENTS, is_agent, link_header, not_found_markdown
from agentprose_core.model import INDEX_NAME, LLMS_NAME
from agentprose_core.serve.negotiate import choose
from agentprose_core.serve.validators import (
    INLINE_LIMIT,
    etag_matches,
    http_date,
    validated,
)
from agentprose_core.sitepaths import (
    SAFE,
    Target,
    hidden,
    map_target,
    url_path,
    view_candidates,
)
from agentprose_core.urls import INDEX_NAMES
from agentprose_core.viewsize import view_size

__all__ = [
    "Request",
    "Response",
    "Site",
    "content_type_for",
    "not_modified",
    "respond",
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
_LOOKUP_SECONDS = 2
"""How long a folder's ``llms.txt`` and the index, once looked up, are taken as they were."""


@dataclass(frozen=True)
class Site:
    """A built site on disk and the URL path it is served under (``/`` or ``/docs/``)."""

    root: Path
    base_path: str = "/"
    detect_agents: bool = False
    """Answer the view to known agent fetchers whatever their ``Accept``."""

    @property
    def base_segments(self) -> tuple[str, ...]:
        """The base path's segments."""
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
        """The request header's value (names in any case), or None."""
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)


def content_type_for(name: str) -> str:
    """``Content-Type`` of a file by its name; text is taken to be UTF-8."""
    suffix = Path(name).suffix.lower()
    if suffix in _TYPES:
        return _TYPES[suffix]
    guessed = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return guessed + "; charset=utf-8" if guessed.startswith("text/") else guessed


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
            status, etag, data = validated(file, path, content_type)
            validators = (("ETag", etag), ("Last-Modified", http_date(status.st_mtime)),
                          _CACHE_CONTROL, *vary)
            if not_modified(request, etag, status.st_mtime):
                return Response(HTTPStatus.NOT_MODIFIED, validators)
            if status.st_size > INLINE_LIMIT:
                headers = (("Content-Type", content_type),
                           ("Content-Length", str(status.st_size)), *validators, *extra)
                return Response(HTTPStatus.OK, headers, file=path, length=status.st_size)
            body = data if data is not None else file.read(status.st_size)
    except OSError:
        return _not_found(site)
    headers = (("Content-Type", content_type), ("Content-Length", str(len(body))),
               *validators, *_tokens(content_type, body), *extra)
    return Response(HTTPStatus.OK, headers, body)


def _tokens(content_type: str, body: bytes) -> tuple[tuple[str, str], ...]:
    """``x-markdown-tokens`` for Markdown, as Cloudflare and Read the Docs send it: the
    estimate ``agentprose.json`` gives the view (:mod:`agentprose_core.viewsize`)."""
    if content_type != _TYPES[".md"]:
        return ()
    return (("x-markdown-tokens", str(view_size(body.decode("utf-8", "replace")).tokens)),)


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
