"""The site's sections for llms.txt: how pages are grouped, and which sections get an
``llms.txt`` of their own (llms.txt v2 sub-path scoping).

A page's group is its top-level nav section (:func:`group_of`): the pages at the top of
the nav form :data:`ROOT_SECTION`, the pages outside it :data:`OPTIONAL_SECTION`. The
``sections`` setting replaces that grouping with titles and their pages' URLs.

A group gets a *scope*, a folder with an ``llms.txt`` of its own (``guide/llms.txt``),
when it has at least :data:`MIN_SCOPE_PAGES` pages and they share a folder below the
site's base: the deepest folder that holds every one of them. The root group and
Optional never do, and a folder two groups share goes to the first. A scope's file
covers every page under its folder, as llms.txt v2 says a file covers the pages under
its path; a page's ``describedby`` link names the most specific file that covers it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple, Protocol, TypeVar

from agentprose_core.model import LLMS_NAME
from agentprose_core.records.summaries import one_line
from agentprose_core.urls import page_key

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from agentprose_core.settings import Settings

__all__ = [
    "MIN_SCOPE_PAGES",
    "OPTIONAL_SECTION",
    "ROOT_SECTION",
    "Placed",
    "PlacedPage",
    "covering_scope",
    "describedby_url",
    "folder_of",
    "group_of",
    "groups",
    "pages_in_scopes",
    "pages_under",
    "section_scopes",
    "site_scopes",
]

ROOT_SECTION = "Docs"
"""The group of pages at the top of the nav (the name the llmstxt.org examples use)."""
OPTIONAL_SECTION = "Optional"
"""The group of pages outside the nav, which llms.txt readers may skip."""
MIN_SCOPE_PAGES = 2
"""The fewest pages a section needs for an llms.txt of its own."""


class Placed(Protocol):
    """What grouping needs of a page: its URL and its place in the nav."""

    @property
    def url(self) -> str:
        """The page's absolute URL."""

    @property
    def section(self) -> tuple[str, ...]:
        """The titles of the sections the page is in, outermost first."""

    @property
    def in_nav(self) -> bool:
        """True when the site's navigation lists the page."""


class PlacedPage(NamedTuple):
    """A page's place, for a tool that knows it before the page's record exists."""

    url: str
    section: tuple[str, ...]
    in_nav: bool


P = TypeVar("P", bound=Placed)


def group_of(page: Placed) -> str:
    """The llms.txt group of a page by the nav: its top-level section's title."""
    if not page.in_nav:
        return OPTIONAL_SECTION
    top = one_line(page.section[0]) if page.section else ""
    return top or ROOT_SECTION


def groups(
    pages: Sequence[P], given: Sequence[tuple[str, Sequence[str]]] = ()
) -> list[tuple[str, list[P]]]:
    """The pages grouped as ``llms.txt`` lists them, in reading order: the root group,
    the nav's sections (or the ``given`` titles with their pages' URLs), Optional last.
    Empty groups are left out."""
    if given:
        return _given(pages, given)
    grouped: dict[str, list[P]] = {ROOT_SECTION: []}
    for page in pages:
        grouped.setdefault(group_of(page), []).append(page)
    optional = grouped.pop(OPTIONAL_SECTION, [])
    ordered = [*grouped.items(), (OPTIONAL_SECTION, optional)]
    return [(name, members) for name, members in ordered if members]


def _given(
    pages: Sequence[P], given: Sequence[tuple[str, Sequence[str]]]
) -> list[tuple[str, list[P]]]:
    by_url = {page_key(page.url): page for page in pages}
    placed: set[str] = set()
    result: list[tuple[str, list[P]]] = []
    for title, urls in given:
        keys = [key for key in map(page_key, urls) if key in by_url and key not in placed]
        members = [by_url[key] for key in keys]
        placed.update(page_key(page.url) for page in members)
        result.append((one_line(title) or ROOT_SECTION, members))
    rest = [page for page in pages if page_key(page.url) not in placed]
    result.append((OPTIONAL_SECTION, rest))
    return [(name, members) for name, members in result if members]


def folder_of(url: str, base_url: str) -> str | None:
    """The folder of a page URL relative to ``base_url``, or None off the site: ``guide/``
    for ``…/guide/a.html`` and for ``…/guide/`` (a folder's own page is in it)."""
    if not url.startswith(base_url):
        return None
    path = url[len(base_url):].split("#", 1)[0].split("?", 1)[0]
    return path[: path.rfind("/") + 1]


def pages_under(pages: Sequence[P], base_url: str, folder: str) -> list[P]:
    """The pages whose URL is in ``folder`` or below it, in their order: what the
    folder's ``llms.txt`` covers."""
    return [page for page in pages if (folder_of(page.url, base_url) or "").startswith(folder)]


def pages_in_scopes(pages: Sequence[P], base_url: str,
                    folders: Iterable[str]) -> dict[str, list[P]]:
    """:func:`pages_under` of each of ``folders`` (each ending in ``/``, as scopes do),
    in one pass: each page is filed under the folders that hold its own, found by its
    folder's prefixes. A site of many sections would otherwise compare every page with
    every section's folder."""
    found: dict[str, list[P]] = {folder: [] for folder in folders}
    for page in pages:
        folder = folder_of(page.url, base_url) or ""
        end = folder.find("/")
        while end != -1:
            members = found.get(folder[: end + 1])
            if members is not None:
                members.append(page)
            end = folder.find("/", end + 1)
    return found


def _common_folder(folders: Iterable[str]) -> str:
    common: list[str] | None = None
    for folder in folders:
        parts = folder.split("/")[:-1]
        if common is None:
            common = parts
            continue
        size = 0
        while size < min(len(common), len(parts)) and common[size] == parts[size]:
            size += 1
        common = common[:size]
    return "".join(part + "/" for part in common or ())


def section_scopes(
    pages: Sequence[Placed], base_url: str, given: Sequence[tuple[str, Sequence[str]]] = ()
) -> tuple[tuple[str, str], ...]:
    """The sections with an ``llms.txt`` of their own: ``(folder, title)`` pairs, the
    folder relative to ``base_url`` with its trailing slash, in reading order."""
    scopes: dict[str, str] = {}
    for title, members in groups(pages, given):
        if title in (ROOT_SECTION, OPTIONAL_SECTION) or len(members) < MIN_SCOPE_PAGES:
            continue
        folders = [folder_of(page.url, base_url) for page in members]
        if None in folders:
            continue
        folder = _common_folder(f for f in folders if f is not None)
        if folder and folder not in scopes:
            scopes[folder] = title
    return tuple(scopes.items())


def site_scopes(
    pages: Sequence[Placed], base_url: str, settings: Settings,
    given: Sequence[tuple[str, Sequence[str]]] = (),
) -> tuple[tuple[str, str], ...]:
    """:func:`section_scopes` when the settings write section files, else none."""
    if not (settings.llms_txt and settings.section_llms_txt):
        return ()
    return section_scopes(pages, base_url, given)


def covering_scope(url: str, base_url: str, folders: Iterable[str]) -> str:
    """The most specific of ``folders`` that holds ``url`` (``""``: the site root)."""
    folder = folder_of(url, base_url)
    if folder is None:
        return ""
    return max((f for f in folders if folder.startswith(f)), key=len, default="")


def describedby_url(url: str, base_url: str, scopes: Sequence[tuple[str, str]]) -> str:
    """The URL of the most specific ``llms.txt`` that covers the page at ``url``: found
    by the page's folder's prefixes, not by comparing it with every section's folder
    (asked once per page: on a site of many sections that grew as pages × sections)."""
    folder = folder_of(url, base_url)
    deepest = "" if folder is None else _deepest(folder, _scope_folders(tuple(scopes)))
    return base_url + deepest + LLMS_NAME


@lru_cache(maxsize=8)  # a build asks with its site's scopes, page after page
def _scope_folders(scopes: tuple[tuple[str, str], ...]) -> frozenset[str]:
    return frozenset(folder for folder, _ in scopes)


def _deepest(folder: str, folders: frozenset[str]) -> str:
    """The longest of ``folders`` (each ending in ``/``, as scopes do) that holds
    ``folder``, or ``""``."""
    end = len(folder)
    while end:
        if folder[:end] in folders:
            return folder[:end]
        end = folder.rfind("/", 0, end - 1) + 1
    return ""
