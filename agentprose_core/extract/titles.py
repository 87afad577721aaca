"""A page's own title and its site's name, from ``<title>``, JSON-LD, OpenGraph, ``<meta>``.

Tools write the two into ``<title>`` with a separator between them (Sphinx ``Page —
Project``, MkDocs ``Page - Site``); :func:`split_title` takes them apart, and
:func:`title_and_site_name` picks each from the page's sources in the order the table
in :mod:`.headmeta` gives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentprose_core.convert.tree import text_of
from agentprose_core.extract.metasources import ld_text

if TYPE_CHECKING:
    from collections.abc import Iterable

    from lxml import html

    from agentprose_core.extract.metasources import MetaSources

__all__ = ["split_title", "title_and_site_name"]

_TITLE_SEPARATORS = (" — ", " – ", " | ", " - ", " · ", " :: ", " » ")


def title_and_site_name(page: MetaSources, h1: str | None) -> tuple[str | None, str | None]:
    """The page's title and its site's name; ``h1`` is the text of the content's first
    ``<h1>``, the title when no metadata gives one."""
    raw_title = _head_title(page.root)
    site_names = _site_names(page)
    stripped, site_in_title = split_title(raw_title, site_names=site_names, h1=h1)
    title = _title(page, raw_title, h1, stripped)
    return title, site_names[0] if site_names else site_in_title


def _head_title(root: html.HtmlElement) -> str | None:
    for title in root.xpath("/html/head/title | /html/title"):
        text = text_of(title)
        if text:
            return text
    return None


def _title(
    page: MetaSources, raw_title: str | None, h1: str | None, stripped: str | None
) -> str | None:
    og_title = page.tag("og:title")
    if og_title == raw_title:
        og_title = None  # a copy of the tool's <title>, with the site name in it
    elif og_title:
        og_title = _without_site(og_title, _site_names(page))[0]
    return ld_text(page, "headline") or ld_text(page, "name") or og_title or (
        page.tag("dc.title", "dcterms.title") or h1 or stripped
    )


def _without_site(title: str, site_names: Iterable[str]) -> tuple[str, str | None]:
    """``title`` without a known site name before or after a separator."""
    for name in site_names:
        for sep in _TITLE_SEPARATORS:
            if title.endswith(sep + name) and title[: -len(sep + name)].strip():
                return title[: -len(sep + name)].strip(), name
            if title.startswith(name + sep) and title[len(name + sep) :].strip():
                return title[len(name + sep) :].strip(), name
    return title, None


def split_title(
    title: str | None, *, site_names: Iterable[str] = (), h1: str | None = None
) -> tuple[str | None, str | None]:
    """A tool's ``<title>`` split into the page's own title and the site name.

    Tries the known site names, then the page's ``<h1>``, then the separators that
    themes put between the two (Sphinx ``Page — Project``, MkDocs ``Page - Site``,
    Docusaurus and Hugo ``Page | Site``).

    >>> split_title("Install — Proj 1.0 documentation")
    ('Install', 'Proj 1.0 documentation')
    """
    if not title:
        return None, None
    page_title, site = _without_site(title, site_names)
    if site:
        return page_title, site
    if h1:
        for sep in _TITLE_SEPARATORS:
            if title.startswith(h1 + sep):
                return h1, title[len(h1 + sep) :].strip() or None
    for sep in _TITLE_SEPARATORS:
        head, found, tail = title.rpartition(sep)
        if found and head.strip() and tail.strip():
            return head.strip(), tail.strip()
    return title, None


def _site_names(page: MetaSources) -> tuple[str, ...]:
    name = page.site_ld.get("name")
    ld_name = " ".join(name.split()) if isinstance(name, str) else None
    found = (page.tag("og:site_name"), ld_name, page.tag("application-name"))
    return tuple(dict.fromkeys(n for n in found if n))
