"""Page URLs, agent-view URLs and the site's origin.

All functions take and return strings; nothing here touches the file system.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote, urljoin, urlsplit, urlunsplit

from agentprose_core.errors import InputError
from agentprose_core.model import INDEX_NAME

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "INDEX_NAMES",
    "NO_VIEW",
    "base_url_of",
    "index_url",
    "is_on_site",
    "output_path",
    "page_key",
    "resolve",
    "same_origin",
    "site_map",
    "unsafe_scheme",
    "view_collisions",
    "view_url",
    "views_of",
]

INDEX_NAMES = ("index.html", "index.htm")
NO_VIEW = ""
"""A site map's value for a page left out of every output: links to it lose their link."""
_UNSAFE_SCHEMES = ("javascript", "data", "vbscript", "file")


def base_url_of(url: str) -> str:
    """Check a site's base URL and return it with exactly one trailing slash.

    Raises :class:`InputError` when it is not an absolute http(s) URL.
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InputError(
            f"The site URL must be absolute, like https://example.com/docs/ (got {url!r})."
        )
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return urlunsplit((parts.scheme, parts.netloc.lower(), path, "", ""))


def index_url(base_url: str) -> str:
    """The URL of ``agentprose.json`` for a site."""
    return base_url_of(base_url) + INDEX_NAME


def view_url(page_url: str, base_url: str, layout: str = "sibling") -> str:
    """The agent-view URL of a page URL under one of the three layouts.

    The site's root page keeps its view inside the site (``/docs/`` -> ``/docs/index.md``).

    >>> view_url("https://x.org/tide-pools/", "https://x.org/")
    'https://x.org/tide-pools.md'
    >>> view_url("https://x.org/guide/install.html", "https://x.org/")
    'https://x.org/guide/install.md'
    >>> view_url("https://x.org/guide/index.html", "https://x.org/")
    'https://x.org/guide/index.md'
    >>> view_url("https://x.org/docs/", "https://x.org/docs/")
    'https://x.org/docs/index.md'
    """
    root = page_key(page_url) == page_key(base_url)
    plain = _PLAIN_URL.match(page_url)
    if plain is not None:  # most page URLs: no need of urlsplit's general parsing
        new = _view_path(plain[3] or "/", root, layout)
        return f"{plain[1].lower()}://{plain[2]}{'' if new.startswith('/') else '/'}{new}"
    parts = urlsplit(page_url)
    new = _view_path(parts.path or "/", root, layout)
    return urlunsplit((parts.scheme, parts.netloc, new, "", ""))


def _view_path(path: str, root: bool, layout: str) -> str:
    """The path of the view of the page at ``path`` (``root``: the site's root page).

    A URL that names its file keeps the file's name with ``.md`` for its extension
    (``/guide/index.html`` -> ``/guide/index.md``, as llms.txt v2 has it); a folder's
    URL (``/guide/``) gets the sibling ``/guide.md``."""
    named = False
    if path.endswith("/"):
        directory = path
        stem = None
    else:
        directory, name = path.rsplit("/", 1)
        directory += "/"
        stem = name
        if name in INDEX_NAMES:
            stem, named = None, True
    if layout == "sibling":
        if stem is None:
            return directory + "index.md" if root or named else directory.rstrip("/") + ".md"
        return directory + posixpath.splitext(stem)[0] + ".md"
    if layout == "directory":
        return directory + ("index.md" if stem is None else posixpath.splitext(stem)[0] + ".md")
    # index-html: llmstxt.org's proposal, the page's file name plus ".md"
    return directory + ("index.html.md" if stem is None else stem + ".md")


def views_of(page_urls: Iterable[str], base_url: str, layout: str) -> dict[str, str]:
    """Each page URL -> its agent-view URL, every page a view of its own.

    In the sibling layout ``/changes.html`` and ``/changes/`` both come to
    ``/changes.md``: the directory page then takes ``/changes/index.md`` (as in the
    directory layout), whichever order the pages come in. :func:`view_collisions`
    says which pages moved."""
    views = {url: view_url(url, base_url, layout) for url in page_urls}
    if len(set(views.values())) == len(views):
        return views
    taken: dict[str, list[str]] = {}
    for url, view in views.items():
        taken.setdefault(view, []).append(url)
    for urls in taken.values():
        if len(urls) > 1:
            for url in urls:
                if _is_directory_page(url):
                    views[url] = view_url(url, base_url, "directory")
    return views


def _is_directory_page(url: str) -> bool:
    path = urlsplit(url).path
    return path.endswith("/") or path.rsplit("/", 1)[-1] in INDEX_NAMES


def site_map(page_urls: Iterable[str], base_url: str, layout: str) -> dict[str, str]:
    """Each page's :func:`page_key` -> its agent-view URL: what links are rewritten by.

    Every caller builds it here, so that the map a worker converts with and the map
    the build ends with agree for the same pages."""
    return {page_key(url): view for url, view in views_of(page_urls, base_url, layout).items()}


@lru_cache(maxsize=8192)  # every page links the same nav and sibling pages
def page_key(url: str) -> str:
    """A URL reduced to what identifies a page: no query, fragment or ``index.html``.

    Percent-encoding is normalized so that ``/caf%C3%A9/`` and ``/café/`` are one page.
    """
    plain = _PLAIN_URL.match(url)
    if plain is not None:
        return f"{plain[1].lower()}://{plain[2].lower()}{_without_index(plain[3] or '/')}"
    parts = urlsplit(url)
    path = quote(unquote(parts.path or "/"), safe="/:@!$&'()*+,;=-._~")
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), _without_index(path),
                       "", ""))


def _without_index(path: str) -> str:
    for name in INDEX_NAMES:
        if path.endswith("/" + name):
            return path[: -len(name)]
    return path


# What urlsplit makes of most page URLs, without its general parsing: an http(s)-like
# scheme, a plain host (no user, no brackets, ASCII), and a path that percent-encoding
# leaves as it is; a query or fragment after it is dropped by every caller.
_PLAIN_URL = re.compile(
    r"([A-Za-z][A-Za-z0-9+.\-]*)://([A-Za-z0-9.\-:]+)(/[A-Za-z0-9/:@!$&'()*+,;=\-._~]*)?"
    r"(?:[?#].*)?\Z", re.DOTALL)


@lru_cache(maxsize=8192)
def resolve(href: str, page_url: str) -> str:
    """An href as an absolute URL, relative to the page it appears on (``urljoin``)."""
    href = href.strip()
    plain = _resolve_plain(href, page_url)
    return plain if plain is not None else urljoin(page_url, href)


_PLAIN_BASE = re.compile(r"(https?://[^/?#;\\\s]+)(/[^?#;\\\s]*)\Z")
_PLAIN_HREF = re.compile(r"(?!//)[^:?;#\\\s]*(?:#[^#\\\s]*)?\Z")


@lru_cache(maxsize=1024)
def _base(page_url: str) -> tuple[str, list[str]] | None:
    """``page_url`` as its origin and its directory's path segments, if it is plain."""
    match = _PLAIN_BASE.match(page_url)
    if match is None:
        return None
    parts = match.group(2).split("/")
    return match.group(1), parts[:-1] if parts[-1] else parts  # as urljoin drops a file


def _resolve_plain(href: str, page_url: str) -> str | None:
    """What ``urljoin`` gives for a path-and-fragment href on a plain http(s) page URL,
    without parsing both URLs again for every link (most links of a docs page are
    like this). None for anything else: a scheme, a query, a network path."""
    base = _base(page_url)
    if base is None or _PLAIN_HREF.match(href) is None:
        return None
    origin, directory = base
    path, _, fragment = href.partition("#")
    tail = "#" + fragment if fragment else ""
    if not path:
        return page_url + tail
    if path.startswith("/"):
        segments = path.split("/")
    else:
        segments = [*directory, *path.split("/")]
        segments[1:-1] = [segment for segment in segments[1:-1] if segment]
    resolved: list[str] = []
    for segment in segments:
        if segment == "..":
            if resolved:
                resolved.pop()
        elif segment != ".":
            resolved.append(segment)
    if segments[-1] in (".", ".."):
        resolved.append("")
    joined = "/".join(resolved) or "/"
    return origin + ("" if joined.startswith("/") else "/") + joined + tail


def unsafe_scheme(href: str) -> bool:
    """True for ``javascript:``, ``data:`` and similar URLs that must never be links."""
    scheme = href.strip().split(":", 1)[0].lower() if ":" in href else ""
    scheme = "".join(scheme.split())
    return scheme in _UNSAFE_SCHEMES


def same_origin(url: str, base: str) -> bool:
    """True when ``url`` has the scheme and host of ``base``."""
    parts, site = urlsplit(url), urlsplit(base)
    return (parts.scheme, parts.netloc.lower()) == (site.scheme, site.netloc.lower())


def is_on_site(url: str, base_url: str) -> bool:
    """True when ``url`` is on the site's origin and under its base path."""
    if not same_origin(url, base_url):
        return False
    parts, base = urlsplit(url), urlsplit(base_url)
    path = posixpath.normpath(unquote(parts.path or "/"))
    if parts.path.endswith("/") and not path.endswith("/"):
        path += "/"
    return (path + "/").startswith(unquote(base.path)) or path + "/" == unquote(base.path)


def output_path(url: str, base_url: str) -> str:
    """The file path, relative to the site directory, that serves ``url``.

    Raises :class:`InputError` when the URL is not under the base URL or would
    escape the site directory.
    """
    if not is_on_site(url, base_url):
        raise InputError(f"{url} is not under the site URL {base_url}.")
    path = unquote(urlsplit(url).path)
    rel = path[len(unquote(urlsplit(base_url).path)) :]
    if rel == "" or rel.endswith("/"):
        rel += "index.html"
    normal = posixpath.normpath(rel)
    if normal.startswith(("../", "/")) or normal in ("..", "."):
        raise InputError(f"{url} would be written outside the site directory.")
    return normal


def view_collisions(page_urls: Iterable[str], base_url: str, layout: str) -> list[str]:
    """What to tell the user about pages :func:`views_of` gave a view other than their
    layout's, and pages that still share one (raises :class:`InputError` then)."""
    urls = list(page_urls)
    views = views_of(urls, base_url, layout)
    seen: dict[str, str] = {}
    for page, view in views.items():
        other = seen.setdefault(view, page)
        if other != page:
            raise InputError(
                f"Two pages would share the agent view {view}: {other} and {page}. Set "
                "view_layout to 'index-html' (views named after each page's file), or "
                "rename one of the pages."
            )
    planned = {url: view_url(url, base_url, layout) for url in urls}
    return [
        f"The pages {url} and {other} would share the agent view {planned[url]}: "
        f"{url} has {views[url]} instead. Rename one of them, or set view_layout to "
        "'directory' or 'index-html', to make the choice yours."
        for url in urls if views[url] != planned[url]
        for other in urls if other != url and planned[other] == planned[url]
    ]
