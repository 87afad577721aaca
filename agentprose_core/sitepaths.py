"""Request paths mapped into a built site: what the preview server and the host
configurations agree on (base paths, unsafe segments, hidden files, where a page's view
may be)."""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote, unquote_to_bytes, urlsplit

from agentprose_core.errors import InputError
from agentprose_core.settings import VIEW_LAYOUTS
from agentprose_core.urls import INDEX_NAMES, view_url

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "SAFE",
    "WELL_KNOWN",
    "Target",
    "hidden",
    "map_target",
    "normalize_base_path",
    "url_path",
    "view_candidates",
]

_ORIGIN = "http://preview.invalid"
# Characters left as they are when a path is quoted.
SAFE = "/:@!$&'()*+,;=-._~"
# RFC 8615's folder of site-wide metadata (security.txt, ...): public by definition, so a
# site that has one at its top wants it served.
WELL_KNOWN = ".well-known"


@dataclass(frozen=True)
class Target:
    """A request path mapped into the site: ``status`` 200 means look ``segments`` up."""

    status: int
    segments: tuple[str, ...] = ()
    directory: bool = False
    """The URL ends with ``/`` (or is the site's root)."""
    location: str = ""
    """For a 301: where to."""


def normalize_base_path(base_path: str) -> str:
    """``docs``, ``/docs`` or ``https://x.org/docs`` -> ``/docs/``; dot segments are refused."""
    path = urlsplit(base_path).path if "://" in base_path else base_path
    segments = [unquote(s) for s in path.strip().split("/") if s]
    if any(s in (".", "..") or _forbidden(s) for s in segments):
        raise InputError(f"The base path must be a plain URL path like /docs/ (got {base_path!r}).")
    return "/" + "".join(s + "/" for s in segments)


def _forbidden(segment: str) -> bool:
    return any(c in "/\\?#" or ord(c) < 0x20 or ord(c) == 0x7F for c in segment)


def hidden(segments: Sequence[str]) -> bool:
    """True when a site-relative path is a dotfile or inside a dot-directory.

    A build copies ``.git``, ``.env`` or an editor's ``.swp`` along with the pages more
    often than anyone means to publish them. A top-level ``.well-known`` is the exception
    (files in it that start with a dot are still hidden).

    >>> hidden(("sub", ".git", "config")), hidden((".well-known", "security.txt"))
    (True, False)
    """
    return any(s.startswith(".") and (i > 0 or s != WELL_KNOWN) for i, s in enumerate(segments))


def url_path(segments: tuple[str, ...] | list[str], *, directory: bool) -> str:
    """The URL path of ``segments``, percent-encoded, with a trailing slash for a folder."""
    path = "/" + "/".join(quote(s, safe=SAFE.replace("/", "")) for s in segments)
    return path + "/" if directory and segments else path


def _decode_segments(path: str) -> list[str] | None:
    """The decoded, non-empty segments of a path; None when one is unsafe or not UTF-8."""
    try:
        raw = path.encode("latin-1")
        segments = [unquote_to_bytes(s).decode("utf-8") for s in raw.split(b"/") if s]
    except UnicodeError:
        return None
    if any(s in (".", "..") or _forbidden(s) for s in segments):
        return None
    return segments


def map_target(target: str, base_path: str = "/") -> Target:
    """Map a request target (``/docs/a/?q=1``) to segments inside the site, or an error.

    A path to a hidden file (:func:`hidden`, after decoding, so ``/%2egit/`` too) is a 404,
    the answer a file that is not there gets: nothing tells a client it exists.

    >>> map_target("/docs/tide-pools/?utm=x", "/docs/").segments
    ('tide-pools',)
    >>> map_target("/%2e%2e/etc/passwd").status == 400
    True
    """
    if target.lower().startswith(("http://", "https://")):  # absolute-form
        path = urlsplit(target).path or "/"
    else:
        path = target.split("?", 1)[0].split("#", 1)[0]
    segments = _decode_segments(path) if path.startswith("/") else None
    if segments is None:
        return Target(HTTPStatus.BAD_REQUEST)
    base = tuple(s for s in base_path.split("/") if s)
    if tuple(segments[: len(base)]) != base:
        return Target(HTTPStatus.NOT_FOUND)
    directory = path.endswith("/")
    if base and len(segments) == len(base) and not directory:
        return Target(HTTPStatus.MOVED_PERMANENTLY, location=url_path(base, directory=True))
    rest = tuple(segments[len(base) :])
    if hidden(rest):
        return Target(HTTPStatus.NOT_FOUND)
    return Target(HTTPStatus.OK, rest, directory=directory or not rest)


def view_candidates(relative: str, base_path: str = "/") -> list[str]:
    """Where a page's agent view may be, relative to the site, the first that exists wins.

    A folder's page (``guide/index.html``, served at ``/guide/`` too) cannot tell which
    URL its build used: ``guide/index.html`` gives ``guide/index.md`` in the sibling
    layout (Sphinx's html builder), ``guide/`` gives ``guide.md`` (MkDocs). The named
    form comes first, as a build moves a folder's view there when ``guide.md`` is another
    page's (``/guide.html``).

    >>> view_candidates("tide-pools/index.html")
    ['tide-pools/index.md', 'tide-pools.md', 'tide-pools/index.html.md']
    >>> view_candidates("guide/install.html")
    ['guide/install.md', 'guide/install.html.md']
    """
    base = _ORIGIN + quote(base_path)
    pages = [base + quote(relative)]
    folder = _folder_of(relative)
    if folder is not None:
        pages.append(base + quote(folder))
    found: list[str] = []
    for layout in VIEW_LAYOUTS:
        for page in pages:
            path = unquote(urlsplit(view_url(page, base, layout)).path)[len(base_path) :]
            if path not in found:
                found.append(path)
    return found


def _folder_of(relative: str) -> str | None:
    """``guide/`` for a folder's page ``guide/index.html``; None for any other file."""
    folder, _, name = relative.rpartition("/")
    if name not in INDEX_NAMES:
        return None
    return folder + "/" if folder else ""
