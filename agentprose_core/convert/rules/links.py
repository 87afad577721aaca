"""Links and images: absolute, links between pages pointed at the other page's agent
view with the ``#fragment`` kept, links to pages without a view made plain text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentprose_core import urls
from agentprose_core.convert.tree import (
    Element,
    ElementIndex,
    all_text,
    drop_tag,
    drop_tree,
    text_of,
    unwrap,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["rewrite_images", "rewrite_links"]

_FRAGMENT_ONLY = re.compile(r"#[^#\\\s]*\Z")


def _link_target(href: str, page_url: str, site_map: Mapping[str, str]) -> str:
    """An href of the page at ``page_url``, absolute, pointed at the agent view of the
    page it links to when that page has one (its ``#fragment`` kept); ``NO_VIEW`` for
    a page left out of every output."""
    absolute = urls.resolve(href, page_url)
    target, _, fragment = absolute.partition("#")
    key = urls.page_key(target)
    view = site_map.get(key)
    if view is None and not key.endswith("/") and "." not in key.rpartition("/")[2]:
        # ``../color`` for the page ``color/``: servers redirect it, so authors write it
        view = site_map.get(key + "/")
    if view == urls.NO_VIEW:
        return view
    return absolute if view is None else view + ("#" + fragment if fragment else "")


def _unlink(link: Element) -> None:
    """A link to a page left out of the outputs: plain text, or, as the whole of a list
    item (a toctree or nav entry, which names the page), nothing."""
    item = link.getparent()
    while item is not None and item.tag in ("p", "span", "em", "strong"):
        item = item.getparent()
    if item is not None and item.tag == "li" and _own_text(item) == text_of(link):
        drop_tree(item)
    else:
        drop_tag(link)


def _own_text(item: Element) -> str:
    """The text of a list item without its nested lists, whitespace folded."""
    nested = "".join(all_text(sub) for sub in item if sub.tag in ("ul", "ol"))
    return " ".join(all_text(item).replace(nested, "", 1).split()) if nested else text_of(item)


def _bare_in_page_anchor(link: Element, href: str) -> bool:
    """For a link without text: True when it has nothing to show, no label, and points
    into its own page (a code line's own anchor). :func:`rewrite_links` would drop it
    whatever it found (its target is never ``NO_VIEW``), so it skips the checks."""
    if len(link) or link.get("title") or link.get("aria-label"):
        return False
    bare = href.strip()
    return len(bare) > 1 and _FRAGMENT_ONLY.match(bare) is not None


def rewrite_links(index: ElementIndex, page_url: str, site_map: Mapping[str, str]) -> None:
    """Every link absolute and pointed at the agent view of the page it names (or
    plain text when that page has none); links with nothing to show dropped."""
    # Most links of a docs page point into it (headings, code lines): a "#…" link goes
    # where the page itself does, with its fragment, looked up once (when first needed:
    # a worker's site map notes what a conversion looked up).
    here: str | None = None
    in_page = "#" not in page_url
    # The links inside another link as this rule starts: none gains an outer link here,
    # so only these are asked again (most pages have none).
    inner = {found for link in index.root.iter("a") for found in link.iterdescendants("a")}
    for link in index.tags("a"):
        href = link.get("href")
        if link.text is None and in_page and href is not None and _bare_in_page_anchor(link, href):
            drop_tag(link)  # a code line's own anchor: half the links of a Material page
            continue
        # A link inside a link (invalid, but parsers keep it) cannot be Markdown.
        nested = link in inner and next(link.iterancestors("a"), None) is not None
        if href is None or (":" in href and urls.unsafe_scheme(href)) or nested:
            drop_tag(link)
            continue
        bare = href.strip()
        if in_page and _FRAGMENT_ONLY.match(bare):
            if here is None:
                here = _link_target("", page_url, site_map)
            target = here + bare if len(bare) > 1 else here
        else:
            target = _link_target(href, page_url, site_map)
        if target == urls.NO_VIEW:
            _unlink(link)
            continue
        label = link.get("title") or link.get("aria-label") or ""
        link.attrib.clear()
        empty = link.text is None and not len(link)
        if empty or (not all_text(link).strip() and next(link.iter("img"), None) is None):
            if not label.strip():
                drop_tag(link)  # nothing to show, nothing to click
                continue
            link.text = " ".join(label.split())  # an icon-only link says what it is
        link.set("href", target)


def rewrite_images(index: ElementIndex, page_url: str) -> None:
    """Every image absolute, with its alt text and nothing else; emoji images and
    images without a safe source become their alt text."""
    for image in index.tags("img"):
        classes = (image.get("class") or "").split()
        if {"twemoji", "emojione", "emoji", "gemoji"} & set(classes):
            unwrap(image, image.get("alt") or "")
            continue
        src = image.get("src") or image.get("data-src")
        if not src or urls.unsafe_scheme(src):
            unwrap(image, image.get("alt") or "")
            continue
        alt = image.get("alt") or ""
        image.attrib.clear()
        image.set("src", urls.resolve(src, page_url))
        image.set("alt", alt)
