"""A page's outline and its link targets, so that every fragment leads somewhere.

Links between pages keep their ``#fragment``; the fragment must exist in the target
view. Headings are found by their text's slug (GitHub's rule) or, where the page's id
differs from it, by an empty ``<a id="…"></a>`` at the heading's start. Every other
element that carries an id (an API object, a glossary term, a label before a section,
an equation) gets such an anchor where it starts. Documented API objects (Sphinx
``dt.sig``) join the outline one level below their section, so that a client can ask
for one of them as a section.
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING

from lxml import etree

from agentprose_core.convert.rules.hidden import is_tab_panel
from agentprose_core.convert.slugs import slug
from agentprose_core.convert.tree import (
    BLOCK_TAGS,
    Element,
    classes,
    new_element,
    put_before,
    text_of,
)
from agentprose_core.model import Heading

if TYPE_CHECKING:
    from agentprose_core.convert.placeholders import Placeholders

__all__ = [
    "ANCHOR_ATTRIBUTE", "anchor", "in_table_cell", "outline", "place_anchors",
    "slug",
]

ANCHOR_ATTRIBUTE = "data-agentprose-anchor"
"""Set on a ``<dt>`` whose anchor its definition-list rewrite puts before the term."""

HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
# Index entries, docutils' automatic ids (linked from the page itself only), widgets'.
_NOT_TARGETS = re.compile(
    r"index-\d+|id\d+|__.*|fn:.*|fnref:.*"
    # a random id, new on every build (MyST's unlabelled equations): nothing can link it
    r"|.*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}.*"
    # whitespace: no valid id has it (ablog's sidebar items use their classes as ids)
    r"|.*\s.*"
)
_AUTOMATIC_LABEL = re.compile(r"id\d+")
# Blocks whose automatic id can only come from a label (``.. _name:`` before a paragraph
# whose section took its name): figures, tables and code blocks get numbered ids of
# their own, which nothing outside the page links.
_LABELLED_BLOCKS = frozenset({"p", "ul", "ol", "dl", "blockquote"})
_FIRST_TEXT = frozenset({"p", "li", "dd", "td", "th", "figcaption", "caption", "summary"})


def _heading_id(heading: Element) -> str:
    """The id a heading is linked by: its own, its section's, or its permalink's."""
    own = heading.get("id")
    if own:
        return own
    parent = heading.getparent()
    if parent is not None and parent.tag in ("section", "div") and parent.get("id"):
        return str(parent.get("id"))
    for anchor in heading.iter("a"):
        href = anchor.get("href") or ""
        # docutils' back-links lead to the contents entry, not to the heading
        if href.startswith("#") and len(href) > 1 and "toc-backref" not in classes(anchor):
            return href[1:]
    return ""


def _api_object(term: Element) -> bool:
    return term.tag == "dt" and "sig" in classes(term) and bool(term.get("id"))


def _api_title(term: Element) -> str:
    names = [el for el in term.iter() if "sig-name" in classes(el)]
    return text_of(names[0]) if names else text_of(term)[:80]


def _api_depth(term: Element) -> int:
    """How many documented objects hold this one, itself included."""
    return sum(1 for dl in term.iterancestors("dl")
               if any(_api_object(child) for child in dl if child.tag == "dt"))


def in_table_cell(element: Element) -> bool:
    """True for an element inside a table cell: a heading there (mkdocstrings'
    ``parameter_headings``) becomes the cell's text, no heading of the view."""
    return any(True for _ in element.iterancestors("td", "th"))


def outline(root: Element) -> tuple[Heading, ...]:
    """The page's headings, and its documented API objects one level below theirs."""
    found: list[Heading] = []
    level = 1
    for element in root.iter(*HEADINGS, "dt"):
        if element.tag != "dt" and in_table_cell(element):
            continue
        if element.tag == "dt":
            if _api_object(element):
                depth = min(6, level + _api_depth(element))
                found.append(Heading(level=depth, id=str(element.get("id")),
                                     title=_api_title(element)))
            continue
        title = text_of(element).strip("¶ ").strip()
        if title:
            level = int(str(element.tag)[1])
            found.append(Heading(level=level, id=_heading_id(element), title=title))
    return tuple(found)


def anchor(placeholders: Placeholders, ident: str) -> str:
    """The placeholder of an empty ``<a id>``: where a link to ``#ident`` lands."""
    return placeholders.inline(f'<a id="{escape(ident)}"></a>')


def _is_target(element: Element, ident: str, heading_ids: set[str]) -> bool:
    if element.tag in HEADINGS or ident in heading_ids:
        return False
    if _NOT_TARGETS.fullmatch(ident):
        # but a label docutils could not name after itself (``.. _`@pytest.fixture`:``
        # gets ``id1``; so does a label whose name a section took) is linked from other
        # pages like any label: before a heading, or on the block it labels
        return _AUTOMATIC_LABEL.fullmatch(ident) is not None and (
            element.tag in _LABELLED_BLOCKS or _is_label(element)
            or _heading_after(element) is not None)
    if element.tag in ("article", "main") or element.get("role") == "main":
        return False  # a theme's content wrapper (agentprose build): the page itself
    names = classes(element)
    if any("footnote" in name or "citation" in name for name in names):
        return False  # footnotes become [^n] notes: their rewrite places the anchor
    if is_tab_panel(element.attrib) or element.get("role") == "tab":
        return False  # a widget's own ids, for its script
    return not (element.get("role") or "").startswith("doc-")


def _is_label(element: Element) -> bool:
    """True for an empty ``<span id>``: docutils writes a label (``.. _name:``) as one
    where it stands, several stacked before what they label (PEPs: ``id19``, ``id20``,
    then ``execute``, before a definition list)."""
    parent = element.getparent()
    return element.tag == "span" and not len(element) and not (element.text or "").strip() \
        and parent is not None and parent.tag in _BETWEEN_BLOCKS


# Where a label stands between blocks (not inside a paragraph's text).
_BETWEEN_BLOCKS = frozenset({"section", "div", "article", "main", "body", "dd", "li",
                             "blockquote", "aside", "td", "th"})


def _heading_after(element: Element) -> Element | None:
    """The heading an empty element (a label) stands right before, if any."""
    if len(element) or (element.text or "").strip() or (element.tail or "").strip():
        return None
    following = element.getnext()
    while following is not None and following.tag in ("span", "a") and not len(following) \
            and not (following.text or "").strip():
        following = following.getnext()  # more labels of the same place
    if following is not None and following.tag in ("section", "div") and len(following):
        following = following[0]
    if following is not None and following.tag in HEADINGS:
        return following
    return None


_WITH_ID = etree.XPath(".//*[@id][not(ancestor::pre)]")


def _with_id(root: Element) -> list[Element]:
    """The elements below ``root`` with an id, outside code: by XPath, or, past what
    libxml2's XPath can hold (a page of millions of elements), by walking the tree."""
    try:
        return list(_WITH_ID(root))  # type: ignore[arg-type]  # elements: the path says so
    except etree.XPathEvalError:
        found: list[Element] = []
        walker = root.iterdescendants()
        for element in walker:
            if isinstance(element.tag, str) and element.get("id") is not None:
                found.append(element)
            if element.tag == "pre":
                for _ in element.iterdescendants():  # skip the code
                    next(walker, None)
        return found


_MARKER_CLASSES = frozenset({"footnote-reference", "footnote-ref"})


def _is_footnote_marker(element: Element, ident: str) -> bool:
    """A footnote's marker in the text (docutils', Python-Markdown's): the view writes
    it ``[^n]``, which Markdown gives no id, and no site links to it on purpose."""
    return (ident.startswith("fnref:") or element.get("role") == "doc-noteref"
            or not _MARKER_CLASSES.isdisjoint(classes(element)))


def place_anchors(root: Element, placeholders: Placeholders) -> frozenset[str]:
    """An empty ``<a id>`` (as a placeholder) where each link target starts. Returns
    every id of the content (outside code), targets or not, footnote markers aside."""
    # An id that a heading has needs no anchor of its own unless its slug differs; nor
    # does a label that its own heading's slug answers to. A label that only equals
    # another heading's slug does: a renderer would lead it to that other heading.
    heading_ids: set[str] = set()
    slugs: dict[Element, str] = {}
    for heading in root.iter(*HEADINGS):
        ident = _heading_id(heading)
        slugs[heading] = slug(text_of(heading).strip("¶ ").strip())
        heading_ids.add(ident)
        if ident and (slugs[heading] != ident or in_table_cell(heading)):
            heading.text = anchor(placeholders, ident) + (heading.text or "").lstrip()
    placed: set[str] = set()
    found = _with_id(root)
    every: set[str] = set()
    for element in found if isinstance(found, list) else ():
        if not isinstance(element, etree._Element) or not isinstance(element.tag, str):
            continue
        ident = str(element.get("id"))
        if _is_footnote_marker(element, ident):
            continue  # a [^n] in the view, no target: see docs/formats.md
        every.add(ident)
        if not _is_target(element, ident, heading_ids):
            continue
        label_of = _heading_after(element)
        if ident in placed or (label_of is not None and slugs.get(label_of) == ident):
            continue
        placed.add(ident)
        token = anchor(placeholders, ident)
        if label_of is not None:  # a label just before a section: in its heading
            label_of.text = token + (label_of.text or "").lstrip()
        elif element.tag == "dt":
            element.set(ANCHOR_ATTRIBUTE, token)
        elif element.tag in _FIRST_TEXT:
            element.text = token + (element.text or "")
        elif element.tag in BLOCK_TAGS or element.tag == "table":
            element.addprevious(new_element("p", token))
        else:
            put_before(element, token)
    return frozenset(every)
