"""Small helpers on lxml trees shared by the normalize passes."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from lxml import etree

from agentprose_core.characters import clean_markup
from agentprose_core.convert.shallow import shallow_markup, too_deep

if TYPE_CHECKING:
    from collections.abc import Collection, Container, Iterable, Sequence

    from lxml.cssselect import CSSSelector

Element = etree._Element
"""A plain lxml element: the ``lxml.html`` classes cost twice as much per element."""

# huge_tree: without it libxml2 silently drops text nested deeper than 256 elements.
# collect_ids=False: no table of ids (nothing looks an element up by id, and code blocks
# give every line one), a quarter of the parse time of a page of highlighted code.
_PARSER = etree.HTMLParser(remove_blank_text=False, no_network=True, huge_tree=True,
                           collect_ids=False)
__all__ = [
    "BLOCK_TAGS",
    "Element",
    "ElementIndex",
    "PageText",
    "all_text",
    "as_blocks",
    "classes",
    "detached",
    "drop_tag",
    "drop_tree",
    "marks_line",
    "new_element",
    "parse_fragment",
    "put_before",
    "replace",
    "select",
    "select_in",
    "text_of",
    "to_html",
    "unwrap",
]


@lru_cache(maxsize=512)
def _compiled(selector: str) -> CSSSelector:
    from lxml.cssselect import CSSSelector  # imported on first use: most pages need none

    return CSSSelector(selector)


def select(root: Element, selector: str) -> list[Element]:
    """Elements under (and including) ``root`` matching a CSS selector, compiled once."""
    found = _compiled(selector)(root)
    return [el for el in found if isinstance(el, etree._Element)] if isinstance(found, list) else []


_NAMES_IN_PART = re.compile(
    r"""[.#]([\w-]+)|\[\s*([\w:-]+)\s*(?:[~|^$*]?=\s*["']?([^"'\]]*))?"""
)


def _balanced(part: str) -> bool:
    return part.count("(") == part.count(")") and part.count("[") == part.count("]")


@lru_cache(maxsize=512)
def _parts_needing(selector: str) -> tuple[tuple[str, tuple[str, ...] | None], ...] | None:
    """Each comma-separated part of ``selector`` with the class, id and attribute names
    and attribute values a match must carry (lowercased); None for a part that needs
    none we can check (a bare tag, a ``:not()``). None for the whole when a comma sits
    inside brackets, so the parts cannot be told apart."""
    found: list[tuple[str, tuple[str, ...] | None]] = []
    for part in selector.split(","):
        if not _balanced(part):
            return None
        names = tuple(name.lower() for match in _NAMES_IN_PART.findall(part)
                      for name in match if name)
        found.append((part, names if names and ":not(" not in part else None))
    return tuple(found)


class PageText:
    """A page's HTML, lowercased, for :func:`select_in`: each name is looked for in it
    once, however many selectors name it (theme rules repeat their prefixes)."""

    __slots__ = ("_found", "text")

    def __init__(self, html: str) -> None:
        self.text = html.lower()
        self._found: dict[str, bool] = {}

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        found = self._found.get(name)
        if found is None:
            found = self._found[name] = name in self.text
        return found


def select_in(root: Element, selector: str, source: Container[str] | None) -> list[Element]:
    """:func:`select` for the parts of ``selector`` that can match a page whose HTML,
    lowercased, is ``source`` (a string or a :class:`PageText`): a part naming a class,
    id, attribute or attribute value that the page does not contain is left out, with
    no part left there is no query at all; the answer is the same, in the same order.

    CSS class tests are slow in libxml2's XPath on pages of many elements (a Pygments
    token is one each), and most theme selectors name classes that a page lacks.
    """
    parts = _parts_needing(selector) if source is not None else None
    if parts is None or source is None:
        return select(root, selector)
    kept = [part for part, names in parts
            if names is None or all(name in source for name in names)]
    if not kept:
        return []
    return select(root, selector if len(kept) == len(parts) else ",".join(kept))


def classes(element: Element) -> list[str]:
    """The element's classes."""
    return (element.get("class") or "").split()


def all_text(element: Element) -> str:
    """All text inside ``element``, as it is."""
    return str(etree.tostring(element, method="text", encoding="unicode", with_tail=False))


def text_of(element: Element) -> str:
    """All text inside ``element``, whitespace folded."""
    return " ".join(all_text(element).split())


def new_element(tag: str, text: str | None = None) -> Element:
    """A fresh element."""
    element = etree.Element(tag)
    element.text = text
    return element


def parse_fragment(fragment: str) -> Element:
    """Content HTML as a ``<div>`` holding it, however broken the markup."""
    markup = f"<html><body><div>{clean_markup(fragment)}</div></body></html>"
    document = etree.fromstring(markup, _PARSER)
    if too_deep(_PARSER.error_log):
        document = etree.fromstring(shallow_markup(markup), _PARSER)
    if document is None:
        return new_element("div")
    body = document.find("body")
    found = body[0] if body is not None and len(body) else None
    return found if found is not None else new_element("div")


def detached(element: Element) -> Element:
    """``element`` moved out of its document into a ``<div>`` of its own: what
    :func:`parse_fragment` gives for ``to_html(element)``, without writing and parsing
    it again, when the element was parsed from text
    :func:`~.characters.clean_markup` leaves as is."""
    wrapper = new_element("div")
    element.tail = None
    wrapper.append(element)
    return wrapper


def to_html(element: Element) -> str:
    """``element`` serialized as HTML."""
    return str(etree.tostring(element, encoding="unicode", method="html", with_tail=False))


def put_before(element: Element, text: str) -> None:
    """Append ``text`` where ``element`` stands: to its previous sibling or its parent."""
    if not text:
        return
    parent = element.getparent()
    if parent is None:
        return
    previous = element.getprevious()
    if previous is not None:
        previous.tail = (previous.tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def drop_tree(element: Element) -> None:
    """Remove ``element`` and everything in it, keeping the text that followed it."""
    parent = element.getparent()
    if parent is None:
        return
    put_before(element, element.tail or "")
    parent.remove(element)


def drop_tag(element: Element) -> None:
    """Remove ``element`` but keep its text and children in its place."""
    parent = element.getparent()
    if parent is None:
        return
    if not len(element):
        # Its text then its tail, in one: no search for its place among its siblings
        # (a code line's anchor has thousands of them on a page of highlighted code).
        put_before(element, (element.text or "") + (element.tail or ""))
        parent.remove(element)
        return
    put_before(element, element.text or "")
    children = list(element)
    last = children[-1]
    last.tail = (last.tail or "") + (element.tail or "")
    for child in children:  # moved one by one: no search for its place (parent.index)
        element.addprevious(child)
    parent.remove(element)


def replace(old: Element, new: Element) -> None:
    """Put ``new`` where ``old`` is, keeping the text that followed ``old``."""
    parent = old.getparent()
    if parent is None:
        return
    new.tail = old.tail
    parent.replace(old, new)


def unwrap(element: Element, text: str | None = None) -> None:
    """Remove ``element`` but keep ``text`` (default: its own text) and its tail."""
    parent = element.getparent()
    if parent is None:
        return
    if text is None:
        drop_tag(element)
        return
    put_before(element, text + (element.tail or ""))
    parent.remove(element)


BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "ul",
})


def as_blocks(element: Element) -> list[Element]:
    """The content of ``element`` as block elements, loose inline content in a ``<p>``."""
    if not any(child.tag in BLOCK_TAGS for child in element):
        paragraph = new_element("p", element.text)
        paragraph.extend(list(element))
        return [paragraph] if paragraph.text or len(paragraph) else []
    blocks: list[Element] = []
    if element.text and element.text.strip():
        blocks.append(new_element("p", element.text.strip()))
    for child in list(element):
        blocks.append(child)
        if child.tail and child.tail.strip():
            blocks.append(new_element("p", child.tail.strip()))
            child.tail = None
    return blocks


INDEXED_TAGS = frozenset({
    "a", "img", "h1", "h2", "h3", "h4", "h5", "h6", "details", "dl", "figcaption", "math",
    "input", "script", "style", "noscript", "template", "link", "meta", "button", "svg",
    "form", "nav", "select", "textarea", "map",
})
INDEXED_ATTRIBUTES = ("hidden", "data-ignore", "aria-hidden", "role", "style", "data-human-only")
# The classes the normalize passes ask about: chrome (normalize), math (codeblocks),
# admonitions, tabs, footnotes, citations, task lists (widgets).
INDEXED_CLASSES = frozenset({
    "agentprose-ignore", "md-source-file", "md-clipboard", "copybutton", "edit-this-page",
    "view-this-page", "back-to-top", "md-content__button", "headerlink", "anchor",
    "sd-hide-link-text", "system-message", "human-only",
    "hash-link", "arithmatex", "math", "katex", "MathJax_Preview", "katex-display",
    "math-display", "admonition", "topic", "tabbed-set", "sd-tab-set", "sphinx-tabs",
    "footnote-ref", "footnote-reference", "footnote", "footnote-list", "citation",
    "citation-list", "classifier", "task-list-control", "task-list-indicator", "prompt",
})
# Inside a code block: line numbers (Pygments, pymdownx), copy buttons, annotation marks,
# recognized by these substrings of the class attribute (or the whole attribute "ln").
LINE_NUMBER_CLASSES = ("lineno", "line-number", "md-annotation__index")
_LINE_MARK = " line mark"  # the index's key for them: no class name holds a space
_CLASS_LISTS: dict[str, tuple[str, ...]] = {}


def marks_line(names: str) -> bool:
    """True when a class attribute marks a line number in a code block."""
    return names == "ln" or any(part in names for part in LINE_NUMBER_CLASSES)


def _indexed_classes(names: str) -> tuple[str, ...]:
    """The indexed classes in a class attribute; pages repeat a few hundred values."""
    found = _CLASS_LISTS.get(names)
    if found is None:
        if len(_CLASS_LISTS) >= 8192:
            _CLASS_LISTS.clear()
        found = tuple(sorted(INDEXED_CLASSES.intersection(names.split())))
        found = _CLASS_LISTS[names] = (*found, _LINE_MARK) if marks_line(names) else found
    return found


_ATTRIBUTE_LISTS: dict[tuple[str | bytes, ...], tuple[str, ...]] = {}


def _indexed_attributes(names: Sequence[str | bytes]) -> tuple[str, ...]:
    """The indexed attributes among ``names``; pages repeat a few dozen sets of them."""
    key = tuple(names)
    found = _ATTRIBUTE_LISTS.get(key)
    if found is None:
        if len(_ATTRIBUTE_LISTS) >= 4096:
            _ATTRIBUTE_LISTS.clear()
        found = _ATTRIBUTE_LISTS[key] = tuple(name for name in INDEXED_ATTRIBUTES
                                              if name in names)
    return found


class ElementIndex:
    """A content tree's elements by tag, class and attribute, gathered in one pass.

    The normalize passes ask this index instead of running a CSS selector over the whole
    tree each (cssselect's class tests cost far more than one walk in Python). Only
    what they ask for is indexed: :data:`INDEXED_TAGS`, :data:`INDEXED_CLASSES` and
    :data:`INDEXED_ATTRIBUTES`. Answers come in document order and only hold elements
    still in the tree (a pass may have removed one since the index was made).
    """

    def __init__(self, root: Element) -> None:
        self.root = root
        self._position: dict[Element, int] = {}
        self._tags: dict[str, list[Element]] = {}
        self._classes: dict[str, list[Element]] = {}
        self._attributes: dict[str, list[Element]] = {}
        # One walk; most elements are Pygments tokens with a class and nothing else, so
        # each costs one list of attribute names, its class and one dict lookup.
        tags, known_classes, class_only = INDEXED_TAGS, _CLASS_LISTS, ["class"]
        for position, element in enumerate(root.iter()):
            names = element.keys()
            if names == class_only:
                value = str(element.get("class"))  # lxml's stubs allow bytes; parsed: str
                wanted = known_classes.get(value)
                if wanted is None:
                    wanted = _indexed_classes(value)
                marked: tuple[str, ...] = ()
            elif names:
                wanted = _indexed_classes(element.get("class", "")) if "class" in names else ()
                marked = _indexed_attributes(names)
            else:
                wanted = marked = ()
            tag = element.tag
            if not (wanted or marked or tag in tags) or not isinstance(tag, str):
                continue  # not asked about, or a comment or processing instruction
            self._position[element] = position
            self._tags.setdefault(tag, []).append(element)
            for name in wanted:
                self._classes.setdefault(name, []).append(element)
            for name in marked:
                self._attributes.setdefault(name, []).append(element)

    def position(self, element: Element) -> int:
        """Where ``element`` stood in the tree when the index was made."""
        return self._position.get(element, -1)

    def attached(self, element: Element) -> bool:
        """True while ``element`` is still inside the root."""
        if element is self.root:
            return True
        return any(ancestor is self.root for ancestor in element.iterancestors())

    def _live(self, groups: Iterable[list[Element]]) -> list[Element]:
        merged = {el: None for group in groups for el in group}
        ordered = sorted(merged, key=self._position.__getitem__)
        return [el for el in ordered if self.attached(el)]

    def tags(self, *tags: str) -> list[Element]:
        """Elements with one of ``tags`` (each one of :data:`INDEXED_TAGS`)."""
        unknown = set(tags) - INDEXED_TAGS
        if unknown:
            raise ValueError(f"not indexed: {sorted(unknown)}; add them to INDEXED_TAGS")
        # libxml2 finds them in document order, only those still in the tree, faster
        # than sorting the indexed ones and walking up from each.
        indexed = self._position
        return [el for el in self.root.iter(*tags) if el in indexed]

    def classes(self, *names: str, tags: Collection[str] = ()) -> list[Element]:
        """Elements with one of the classes ``names`` (each one of :data:`INDEXED_CLASSES`)
        and, if given, one of ``tags``."""
        unknown = set(names) - INDEXED_CLASSES
        if unknown:
            raise ValueError(f"not indexed: {sorted(unknown)}; add them to INDEXED_CLASSES")
        found = self._live(self._classes.get(name, []) for name in names)
        return [el for el in found if el.tag in tags] if tags else found

    def line_marks(self) -> list[Element]:
        """Elements whose class marks a line number (see :func:`marks_line`), anywhere."""
        return self._live([self._classes.get(_LINE_MARK, [])])

    def attributes(self, name: str, value: str | None = None) -> list[Element]:
        """Elements that have the attribute ``name`` (one of :data:`INDEXED_ATTRIBUTES`),
        with ``value`` if given."""
        if name not in INDEXED_ATTRIBUTES:
            raise ValueError(f"not indexed: {name}; add it to INDEXED_ATTRIBUTES")
        found = self._live([self._attributes.get(name, [])])
        return found if value is None else [el for el in found if el.get(name) == value]
