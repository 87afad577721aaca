"""The reading order a built page's navigation shows (Material for MkDocs, Zensical).

``agentprose build`` has no nav configuration to read; the rendered primary navigation
holds the same order and sections, so llms.txt sections and prev/next follow it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentprose_core import urls
from agentprose_core.convert.tree import text_of

if TYPE_CHECKING:
    from collections.abc import Sequence

    from lxml import html

__all__ = ["NavEntry", "linked_order", "rendered_nav"]

NavEntry = tuple[str, tuple[str, ...]]
"""A page's URL (as :func:`urls.page_key`) and its section titles, top down."""


def _classes(element: html.HtmlElement) -> set[str]:
    return set((element.get("class") or "").split())


def _own(item: html.HtmlElement, tag: str) -> html.HtmlElement | None:
    return next((child for child in item if child.tag == tag
                 and "md-nav__link" in _classes(child)), None)


def _walk(listing: html.HtmlElement, section: tuple[str, ...], page_url: str,
          found: list[NavEntry]) -> None:
    for item in listing:
        if item.tag != "li" or "md-nav__item" not in _classes(item):
            continue
        link = _own(item, "a")
        if "md-nav__item--nested" in _classes(item):
            label = _own(item, "label") if _own(item, "label") is not None else link
            title = text_of(label) if label is not None else ""
            if link is not None and link.get("href") is not None:  # the section's index page
                found.append((urls.page_key(urls.resolve(link.get("href", ""), page_url)),
                              (*section, title)))
            for child_nav in item.iter("nav"):
                if "md-nav--secondary" in _classes(child_nav):
                    continue
                inner = child_nav.find("ul")
                if inner is not None:
                    _walk(inner, (*section, title), page_url, found)
                break
        elif link is not None and link.get("href") is not None and not (
            link.get("href", "").startswith("#")
        ):  # an empty href is the page the navigation was rendered on
            found.append((urls.page_key(urls.resolve(link.get("href", ""), page_url)), section))


def rendered_nav(document: html.HtmlElement, page_url: str) -> list[NavEntry]:
    """The pages of the primary navigation in order, each with its sections."""
    for nav in document.iter("nav"):
        if "md-nav--primary" in _classes(nav):
            listing = nav.find("ul")
            if listing is None:
                return []
            found: list[NavEntry] = []
            _walk(listing, (), page_url, found)
            return list(dict.fromkeys(found))
    return []


def linked_order(pages: Sequence[tuple[str, str | None, str | None]]) -> list[str]:
    """The pages' URLs in the reading order their ``<link rel="prev|next">`` give, for
    ``(url, prev, next)`` of each page (all page keys): the chain from the first page
    that no other page names as its next one, then the pages outside the chain in the
    order given. Nothing chained (no links, or links in a circle): the order given."""
    known = {url for url, _, _ in pages}
    # A page's next link, else the page that names it as its prev one.
    following = {before: url for url, before, _ in pages if before in known and before != url}
    following.update((url, after) for url, _, after in pages if after in known and after != url)
    named_next = set(following.values())
    starts = [url for url, _, _ in pages if url in following and url not in named_next]
    ordered: list[str] = []
    seen: set[str] = set()
    for start in starts:
        url: str | None = start
        while url is not None and url not in seen:
            seen.add(url)
            ordered.append(url)
            url = following.get(url)
    return ordered + [url for url, _, _ in pages if url not in seen]
