"""Markup nested too deep: its visible text kept, everything else as usual.

Real pages never nest more than a few dozen elements; hostile or generated ones can
nest thousands. Two limits apply. libxml2 stops parsing at 2,048 levels and drops
everything after the deep point, so markup it reports too deep is first made shallow
as text (:func:`.shallow.shallow_markup`): tags below 512 levels are taken out, their
text kept. Then, on the tree, every element deeper than :data:`MAX_DEPTH` becomes a
paragraph of its visible text (:func:`flatten_deep`): both engines and Python's
recursion have limits below 10,000. In both, hidden elements, scripts, styles and
permalinks give no text, as anywhere else on the page.
"""

from __future__ import annotations

from lxml import etree

from agentprose_core.convert.rules.hidden import INVISIBLE_TAGS, hidden_element
from agentprose_core.convert.tree import Element, all_text, drop_tree, new_element, replace

__all__ = ["MAX_DEPTH", "flatten_deep"]

MAX_DEPTH = 80
"""Deeper than this, an element's content is kept as its visible text only."""

_PERMALINK_CLASSES = frozenset({"headerlink", "anchor", "hash-link"})
_AT_MAX_DEPTH = etree.XPath("/".join(["*"] * MAX_DEPTH))


def _invisible(element: Element) -> bool:
    if element.tag in INVISIBLE_TAGS:
        return True
    if element.tag == "a" and not _PERMALINK_CLASSES.isdisjoint(
            (element.get("class") or "").split()):
        return True
    return len(element.attrib) > 0 and hidden_element(element)


def _visible_text(element: Element) -> str:
    """``element``'s text without what readers never see (``element`` is changed)."""
    for inner in [el for el in element.iterdescendants() if isinstance(el.tag, str)]:
        if _invisible(inner) and inner.getparent() is not None:
            drop_tree(inner)
    return " ".join(all_text(element).split())


def flatten_deep(root: Element, limit: int = MAX_DEPTH) -> int:
    """Replace every element nested deeper than ``limit`` by a paragraph of its visible
    text (nothing, when it is hidden). Returns how many were flattened.

    Walks with an explicit stack: no recursion; and not at all when one XPath (in C)
    finds nothing that deep, as on every real page.
    """
    if limit == MAX_DEPTH and not _AT_MAX_DEPTH(root):
        return 0
    flattened = 0
    stack: list[tuple[Element, int]] = [(root, 0)]
    while stack:
        element, depth = stack.pop()
        if depth >= limit and len(element):
            if _invisible(element):
                drop_tree(element)
            else:
                replace(element, new_element("p", _visible_text(element)))
            flattened += 1
            continue
        stack.extend((child, depth + 1) for child in element if isinstance(child.tag, str))
    return flattened
