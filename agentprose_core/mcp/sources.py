"""Where a site's index and views come from: a built folder, or a deployed site's origin.

A :class:`UrlSource` fetches only URLs on the origin it was given (same-origin
redirects are followed, up to five; any other URL is refused, so the server is never
a proxy), each within a whole-request deadline and a size cap
(:data:`~agentprose_core.reading.fetch.MAX_BODY`), and each tool call within
:data:`CALL_REQUESTS` requests and :data:`CALL_SECONDS` seconds
(:meth:`UrlSource.begin_call`). A
:class:`FolderSource` reads only files inside its folder.
"""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Protocol
from urllib.parse import unquote, urljoin, urlsplit

from agentprose_core.mcp.site import IndexProblem, LoadedSite, Post, parts_of, site_from_index
from agentprose_core.model import INDEX_NAME
from agentprose_core.reading.fetch import HttpRequest, HttpResponse, urllib_fetch
from agentprose_core.reading.html import head_links
from agentprose_core.render.searchfile import SEARCH_NAME

__all__ = ["CallLimit", "FolderSource", "Loaded", "Source", "UrlSource", "source_for"]

TIMEOUT = 10.0  # seconds per request, all of it
CALL_REQUESTS = 50  # requests one tool call may make of a deployed site
CALL_SECONDS = 30.0  # and the time it may take


class CallLimit(Exception):
    """A tool call needed more of a deployed site than one call may take."""


_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_MAX_REDIRECTS = 5


@dataclass(frozen=True)
class Loaded:
    """A loaded index, and when it was written."""
    site: LoadedSite
    built: str
    """When the index file was written (UTC ISO 8601), when the source says."""
    search: object = None
    """The decoded ``agentprose-search.json`` beside the index, when there is one."""


class Source(Protocol):
    """Where a site's index and views are read from: a folder or a deployed site."""
    name: str
    local: bool
    """Whether reading every view costs no request (a folder)."""

    def load(self) -> Loaded:
        """Read the site's index; an IndexProblem that says what is wrong otherwise."""

    def version(self) -> object:
        """Something that changes when the index does (checked before each tool call),
        or None when checking would cost a request."""
        ...

    def view(self, post: Post) -> str:
        """The text of ``post``'s agent view, front matter included."""
        ...

    def begin_call(self) -> None:
        """A tool call starts: its own budget of requests and time, if reading costs any."""
        ...


def source_for(target: str) -> Source:
    """A :class:`UrlSource` for an http(s) URL, else a :class:`FolderSource`."""
    if urlsplit(target).scheme in ("http", "https"):
        return UrlSource(target)
    return FolderSource(Path(target))


def _decode(data: bytes, where: str) -> object:
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise IndexProblem(f"{where} is not UTF-8") from None
    except json.JSONDecodeError as error:
        raise IndexProblem(f"{where} is not JSON ({error.msg} at line {error.lineno}, "
                           f"column {error.colno}): rebuild the site") from None


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class FolderSource:
    """A built site on this machine."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.name = str(folder)
        self.local = True
        self._base = ""

    def load(self) -> Loaded:
        """Read the folder's index and the parts it names."""
        index = self.folder / INDEX_NAME
        if not index.is_file():
            what = "is not a folder" if not self.folder.is_dir() else f"has no {INDEX_NAME}"
            raise IndexProblem(f"{self.folder} {what}: build the site with the agentprose "
                               "plugin (or run `agentprose build`) and point the server at "
                               "the built site's folder")
        data = _decode(index.read_bytes(), str(index))
        self._base = _base_of(data)
        parts = [_decode(self._file(url).read_bytes(), url)
                 for url in parts_of(data, urljoin(self._base, INDEX_NAME))] if isinstance(
                     data, dict) else []
        site = site_from_index(data, parts)
        built = _stamp(datetime.fromtimestamp(index.stat().st_mtime, UTC))
        return Loaded(site, built, self._search())

    def _search(self) -> object:
        """The folder's ``agentprose-search.json``, or None where it has none (or an
        unreadable one: search is then built from the index)."""
        stored = self.folder / SEARCH_NAME
        try:
            return _decode(stored.read_bytes(), str(stored))
        except (OSError, IndexProblem):
            return None

    def version(self) -> object:
        """The index file's time and size, or None without one."""
        try:
            found = (self.folder / INDEX_NAME).stat()
        except OSError:
            return None
        return found.st_mtime_ns, found.st_size, found.st_ino

    def _file(self, url: str) -> Path:
        """The file of the site ``url`` names, refused when outside the folder."""
        if not self._base:
            self.load()
        if not url.startswith(self._base):
            raise IndexProblem(f"{url} is not under the site's URL {self._base}")
        relative = unquote(urlsplit(url).path[len(urlsplit(self._base).path):])
        root = self.folder.resolve()
        path = (root / relative).resolve()
        if not path.is_relative_to(root) or not path.is_file():
            raise IndexProblem(f"{url} has no file in {self.folder}: rebuild the site")
        return path

    def begin_call(self) -> None:
        """Reading a folder costs no request."""

    def view(self, post: Post) -> str:
        """The page's view, read from the folder."""
        try:
            return self._file(post.markdown_url).read_text("utf-8")
        except UnicodeDecodeError:
            raise IndexProblem(f"{post.markdown_url} is not UTF-8") from None


def _base_of(data: object) -> str:
    site = data.get("site") if isinstance(data, dict) else None
    url = site.get("url") if isinstance(site, dict) else None
    return url if isinstance(url, str) else ""


class UrlSource:
    """A deployed site, read over HTTP(S) from its own origin only."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.name = url
        self.local = False
        parts = urlsplit(url)
        self.origin = f"{parts.scheme}://{parts.netloc.lower()}"
        self._left = CALL_REQUESTS * 4  # loading the index (it may come in parts)
        self._until = time.monotonic() + CALL_SECONDS * 4

    def begin_call(self) -> None:
        """Start a tool call: its budget of requests and time starts again."""
        self._left = CALL_REQUESTS
        self._until = time.monotonic() + CALL_SECONDS

    def _timeout(self, url: str) -> float:
        """The time the next request may take, within the call's; CallLimit past it."""
        left = self._until - time.monotonic()
        if self._left <= 0 or left <= 0:
            raise CallLimit(f"this call needed more of {self.origin} than one call may take "
                            f"({CALL_REQUESTS} requests, {CALL_SECONDS:g} s) and stopped "
                            f"before {url}: ask for fewer results, or one page at a time")
        self._left -= 1
        return min(TIMEOUT, left)

    def get(self, url: str, accept: str = "*/*") -> HttpResponse:
        """The 200 answer for ``url``, following same-origin redirects; else IndexProblem
        (or CallLimit, when the call has used its requests or its time)."""
        for _ in range(_MAX_REDIRECTS + 1):
            if not self.on_origin(url):
                raise IndexProblem(f"{url} is not on {self.origin}: this server reads only "
                                   "the site it was started for")
            timeout = self._timeout(url)
            try:
                response = urllib_fetch(HttpRequest("GET", url, {"Accept": accept}, timeout))
            except (OSError, http.client.HTTPException, ValueError) as error:
                raise IndexProblem(f"could not fetch {url}: {error}") from None
            location = response.header("location")
            if response.status in _REDIRECTS and location:
                url = urljoin(url, location)
                continue
            if response.status != 200:
                raise IndexProblem(f"{url} answered HTTP {response.status}")
            return response
        raise IndexProblem(f"{url}: more than {_MAX_REDIRECTS} redirects")

    def version(self) -> object:
        """None: a deployed index is read once per server."""
        return None  # a deployed index is read once per server: restart for a new one

    def on_origin(self, url: str) -> bool:
        """True when ``url`` is on the site's own origin (the only one read)."""
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc.lower()}" == self.origin

    def load(self) -> Loaded:
        """Fetch the site's index and the parts it names."""
        response = self._index()
        data = _decode(response.body, response.url)
        parts = [_decode(self.get(url, "application/json").body, url)
                 for url in parts_of(data, response.url)] if isinstance(data, dict) else []
        site = site_from_index(data, parts)
        if not self.on_origin(site.url):
            raise IndexProblem(f"the index at {response.url} describes {site.url}, another "
                               "origin: start the server with that site's URL")
        built = response.header("last-modified")
        try:
            stamp = _stamp(parsedate_to_datetime(built)) if built else ""
        except (TypeError, ValueError):
            stamp = ""
        return Loaded(site, stamp, self._search(urljoin(response.url, SEARCH_NAME)))

    def _search(self, url: str) -> object:
        """The site's ``agentprose-search.json``, or None where it has none (or an
        unreadable one: search is then built from the index)."""
        try:
            return _decode(self.get(url, "application/json").body, url)
        except IndexProblem:
            return None

    def _index(self) -> HttpResponse:
        """``agentprose.json`` at the URL, next to it, or where its page links it."""
        path = urlsplit(self.url).path
        if path.endswith(".json"):
            return self.get(self.url, "application/json")
        if path.endswith("/") or not path:
            try:
                return self.get(urljoin(self.url, INDEX_NAME), "application/json")
            except IndexProblem:
                pass
        page = self.get(self.url, "text/html")
        try:
            text = page.body.decode("utf-8")
        except UnicodeDecodeError:
            text = ""
        for link in head_links(text):
            if "agentprose-index" in link.rel:
                return self.get(urljoin(page.url, link.href), "application/json")
        raise IndexProblem(f"{self.url} has no {INDEX_NAME} and its page has no "
                           "<link rel=\"agentprose-index\">: is agentprose installed on "
                           "the site?")

    def view(self, post: Post) -> str:
        """The page's view, fetched from the site."""
        response = self.get(post.markdown_url, "text/markdown")
        try:
            return response.body.decode("utf-8")
        except UnicodeDecodeError:
            raise IndexProblem(f"{post.markdown_url} is not UTF-8") from None
