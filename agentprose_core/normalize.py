"""The docs rules on an lxml tree: theme markup in, plain semantic HTML out.

Both Markdown engines get the same normalized tree, so every rule here holds for
both: chrome and hidden content dropped, widgets rewritten, code and math kept
byte-exact through placeholders, links absolute and pointed at agent views.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from lxml import etree

from . import urls
from .codeblocks import SourceFence, replace_code_blocks, replace_math
from .diagnostics import Diagnostic
from .model import Heading
from .placeholders import Placeholders
from .tables import rewrite_tables
from .tree import Element, all_text, drop_tag, drop_tree, find, select, text_of, unwrap
from .widgets import (
    rewrite_admonitions,
    rewrite_definition_lists,
    rewrite_figures,
    rewrite_footnotes,
    rewrite_tabs,
    rewrite_task_lists,
    separate_blockquotes,
)

__all__ = ["DROP_SELECTORS", "Normalized", "normalize"]

# Never content, wherever it appears inside the main content.
DROP_TAGS = frozenset({
    "script", "style", "noscript", "template", "link", "meta", "button", "svg", "form", "nav",
    "select", "textarea",
})
DROP_CLASSES = frozenset({
    "agentprose-ignore", "md-source-file", "md-clipboard", "copybutton", "edit-this-page",
    "view-this-page", "back-to-top", "md-content__button",
})
DROP_LINK_CLASSES = frozenset({"headerlink", "anchor", "hash-link"})
DROP_SELECTORS = (
    *sorted(DROP_TAGS), *(f".{c}" for c in sorted(DROP_CLASSES)),
    *(f"a.{c}" for c in sorted(DROP_LINK_CLASSES)),
    "[data-ignore]", "[aria-hidden=true]", "input:not([type=checkbox])",
)
"""What :func:`drop_chrome` removes, as CSS selectors (for the docs and the tests)."""


def _is_chrome(element: Element) -> bool:
    tag = element.tag
    if tag in DROP_TAGS:
        return True
    if tag == "input":
        return element.get("type") != "checkbox"
    attrib = element.attrib
    if "data-ignore" in attrib or attrib.get("aria-hidden") == "true":
        return True
    names = attrib.get("class")
    if not names:
        return False
    found = set(names.split())
    return bool(found & DROP_CLASSES or (tag == "a" and found & DROP_LINK_CLASSES))


_PERMALINK_MARKS = frozenset({"¶", "#", "§", "🔗", ""})
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


@dataclass
class Normalized:
    """A normalized tree, the placeholders it holds, and what we learned on the way."""

    root: Element
    placeholders: Placeholders
    headings: tuple[Heading, ...] = ()
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _is_tab_panel(element: Element) -> bool:
    return element.get("role") == "tabpanel" or bool(
        element.xpath("ancestor-or-self::*[contains(concat(' ', @class, ' '), ' tabbed-')]")
    )


def _drop_hidden(root: Element) -> None:
    # Tab panels and collapsed <details> are content a reader reaches with a click.
    for element in select(root, "[hidden]"):
        if element.getparent() is None or _is_tab_panel(element):
            continue
        if element.xpath("ancestor::details"):
            continue
        drop_tree(element)


def drop_chrome(root: Element) -> None:
    """Remove comments, scripts, buttons, permalinks, hidden and ignored parts."""
    for comment in list(root.iter(etree.Comment, etree.ProcessingInstruction)):
        drop_tree(comment)
    _drop_hidden(root)
    for element in find(root, _is_chrome):
        if element is not root and element.getparent() is not None:
            drop_tree(element)


def _rewrite_links(
    root: Element, page_url: str, site_map: Mapping[str, str]
) -> None:
    for link in list(root.iter("a")):
        href = link.get("href")
        if href is None:
            drop_tag(link)
            continue
        if urls.unsafe_scheme(href):
            drop_tag(link)
            continue
        absolute = urls.resolve(href, page_url)
        target, _, fragment = absolute.partition("#")
        view = site_map.get(urls.page_key(target))
        if view is not None:
            absolute = view + ("#" + fragment if fragment else "")
        link.attrib.clear()
        link.set("href", absolute)


def _rewrite_images(root: Element, page_url: str) -> None:
    for image in list(root.iter("img")):
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


def _heading_id(heading: Element) -> str:
    own = heading.get("id")
    if own:
        return own
    for anchor in heading.iter("a"):
        href = anchor.get("href") or ""
        if href.startswith("#") and len(href) > 1:
            return href[1:]
    parent = heading.getparent()
    if parent is not None and parent.tag in ("section", "div") and parent.get("id"):
        return str(parent.get("id"))
    return ""


def _outline(root: Element) -> tuple[Heading, ...]:
    found = []
    for heading in root.iter(*_HEADINGS):
        ident = _heading_id(heading)
        for anchor in select(heading, "a.headerlink, a.anchor, a.hash-link"):
            drop_tree(anchor)
        title = text_of(heading).strip("¶ ").strip()
        if title:
            found.append(Heading(level=int(str(heading.tag)[1]), id=ident, title=title))
    return tuple(found)


def _drop_permalink_marks(root: Element) -> None:
    for heading in root.iter(*_HEADINGS):
        for anchor in list(heading.iter("a")):
            is_mark = text_of(anchor) in _PERMALINK_MARKS
            if is_mark and (anchor.get("href") or "").startswith("#"):
                drop_tree(anchor)


def _visible_text(root: Element) -> str:
    """The text and the URLs of a page: what could reach the Markdown."""
    urls_ = (el.get("href") or el.get("src") or "" for el in root.iter("a", "img"))
    return all_text(root) + " ".join(urls_)


def normalize(
    root: Element,
    *,
    page_url: str,
    site_map: Mapping[str, str],
    source_fences: Sequence[SourceFence] = (),
) -> Normalized:
    """Apply every docs rule to ``root`` in place.

    ``site_map`` maps :func:`urls.page_key` of each page to its agent-view URL;
    ``source_fences`` are the fenced blocks of the page's Markdown source, when the
    build tool has it: they restore code languages that the theme left out.
    """
    placeholders = Placeholders.avoiding(_visible_text(root))
    rewrite_tabs(root)  # before the chrome goes: sphinx-tabs labels are <button>s
    drop_chrome(root)
    _drop_permalink_marks(root)
    headings = _outline(root)
    rewrite_admonitions(root)
    replace_math(root, placeholders)
    rewrite_footnotes(root, placeholders)
    _rewrite_links(root, page_url, site_map)
    _rewrite_images(root, page_url)
    rewrite_task_lists(root)
    rewrite_figures(root)
    rewrite_tables(root, placeholders)
    replace_code_blocks(root, placeholders, source_fences=source_fences)
    rewrite_definition_lists(root)
    separate_blockquotes(root, placeholders)
    return Normalized(root=root, placeholders=placeholders, headings=headings)
