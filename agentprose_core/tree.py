"""Small helpers on lxml trees shared by the normalize passes."""

from __future__ import annotations

from functools import lru_cache

from lxml import html
from lxml.cssselect import CSSSelector

__all__ = [
    "BLOCK_TAGS",
    "as_blocks",
    "classes", "new_element", "replace", "select", "text_of", "unwrap"]


@lru_cache(maxsize=512)
def _compiled(selector: str) -> CSSSelector:
    return CSSSelector(selector)


def select(root: html.HtmlElement, selector: str) -> list[html.HtmlElement]:
    """Elements under (and including) ``root`` matching a CSS selector, compiled once."""
    found: list[html.HtmlElement] = _compiled(selector)(root)
    return found


def classes(element: html.HtmlElement) -> list[str]:
    """The element's classes."""
    return (element.get("class") or "").split()


def text_of(element: html.HtmlElement) -> str:
    """All text inside ``element``, whitespace folded."""
    return " ".join("".join(element.itertext()).split())


def new_element(tag: str, text: str | None = None) -> html.HtmlElement:
    """A fresh element of the page's kind."""
    element: html.HtmlElement = html.Element(tag)
    element.text = text
    return element


def replace(old: html.HtmlElement, new: html.HtmlElement) -> None:
    """Put ``new`` where ``old`` is, keeping the text that followed ``old``."""
    parent = old.getparent()
    if parent is None:
        return
    new.tail = old.tail
    parent.replace(old, new)


def unwrap(element: html.HtmlElement, text: str | None = None) -> None:
    """Remove ``element`` but keep ``text`` (default: its own text) and its tail."""
    parent = element.getparent()
    if parent is None:
        return
    if text is None:
        element.drop_tag()
        return
    joined = text + (element.tail or "")
    previous = element.getprevious()
    if previous is not None:
        previous.tail = (previous.tail or "") + joined
    else:
        parent.text = (parent.text or "") + joined
    parent.remove(element)


BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "ul",
})


def as_blocks(element: html.HtmlElement) -> list[html.HtmlElement]:
    """The content of ``element`` as block elements, loose inline content in a ``<p>``."""
    if not any(child.tag in BLOCK_TAGS for child in element):
        paragraph = new_element("p", element.text)
        paragraph.extend(list(element))
        return [paragraph] if paragraph.text or len(paragraph) else []
    blocks: list[html.HtmlElement] = []
    if element.text and element.text.strip():
        blocks.append(new_element("p", element.text.strip()))
    for child in list(element):
        blocks.append(child)
        if child.tail and child.tail.strip():
            blocks.append(new_element("p", child.tail.strip()))
            child.tail = None
    return blocks
