"""What a reader never sees: hidden by an attribute, or an element that shows nothing.

One rule for every place that drops hidden content (normalize, the deep-nesting
fallback, the text-only pass over markup too deep to parse): ``hidden``,
``aria-hidden="true"`` (any case), ``data-ignore``, an inline ``display: none`` or
``visibility: hidden``. The one exception is a tab panel (``role="tabpanel"``, or a
panel of the tab widgets we know) hidden by ``hidden`` inside a tab widget (a
``role="tablist"`` beside it, or a widget we know): sphinx-tabs marks inactive panels
so, yet a click shows them. A panel hidden otherwise, or with no tabs to click, is
hidden. A collapsed ``<details>`` hides its content without any of these marks, so its
content stays; what is explicitly hidden inside it goes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # lxml's, not the tree module's alias: tree reads markup with this rule
    from lxml.etree import _Element as Element

__all__ = [
    "INVISIBLE_TAGS", "TAB_PANEL_CLASSES", "Attributes", "hidden_by_attributes",
    "hidden_element", "is_tab_panel",
]

INVISIBLE_TAGS = frozenset({"script", "style", "noscript", "template", "textarea", "title"})
"""Elements whose text is never shown as text."""

TAB_PANEL_CLASSES = frozenset({"tabbed-block", "tabbed-content", "sd-tab-content"})
_TAB_WIDGET_CLASSES = frozenset({"sphinx-tabs", "tabbed-set", "sd-tab-set"})
_WIDGET_LEVELS = 3  # a panel is this near its widget in every widget we know
_HIDING_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))"
    r"\s*(?:!\s*important\s*)?(?:;|$)",
    re.IGNORECASE,
)


class Attributes(Protocol):
    """An element's attributes: lxml's ``element.attrib``, or a plain dict."""

    def get(self, key: str, /) -> str | None:
        """The attribute's value, or None."""

    def __contains__(self, key: str, /) -> bool: ...


def is_tab_panel(attributes: Attributes) -> bool:
    """True for the panel of a content tab: hidden until its tab is clicked."""
    if attributes.get("role") == "tabpanel":
        return True
    return not TAB_PANEL_CLASSES.isdisjoint((attributes.get("class") or "").split())


def hidden_by_attributes(attributes: Attributes, *, tab_widget: bool = False) -> bool:
    """True when an element's attributes hide it from readers, or mark it
    ``data-ignore``; a tab panel hidden by ``hidden`` is not, in a ``tab_widget``."""
    if "data-ignore" in attributes:  # the author's own word: never content
        return True
    if (attributes.get("aria-hidden") or "").strip().lower() == "true" or bool(
            _HIDING_STYLE.search(attributes.get("style") or "")):
        return True
    return "hidden" in attributes and not (tab_widget and is_tab_panel(attributes))


def hidden_element(element: Element) -> bool:
    """:func:`hidden_by_attributes` for an element of a tree, which tells whether it
    is in a tab widget."""
    attributes = element.attrib
    if "hidden" in attributes and is_tab_panel(attributes):
        return hidden_by_attributes(attributes, tab_widget=_in_tab_widget(element))
    return hidden_by_attributes(attributes)


def _in_tab_widget(element: Element) -> bool:
    """True when a tab list or a known tab widget holds ``element`` (a few levels up)."""
    ancestor = element.getparent()
    for _ in range(_WIDGET_LEVELS):
        if ancestor is None:
            return False
        if not _TAB_WIDGET_CLASSES.isdisjoint((ancestor.get("class") or "").split()) or any(
                child.get("role") == "tablist" for child in ancestor):
            return True
        ancestor = ancestor.getparent()
    return False
