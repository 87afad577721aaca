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

An author's block for agents only (``data-agent-only``, or the class ``agent-only``) is
hidden from people on purpose: to us it is content, however it is hidden (what is
hidden inside it is not). A block for people only (``data-human-only``, the class
``human-only``) is shown to people and never content to us.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Protocol

from agentprose_core.audience import AGENT_ONLY, HUMAN_ONLY

if TYPE_CHECKING:  # lxml's, not the tree module's alias: tree reads markup with this rule
    from lxml.etree import _Element as Element

__all__ = [
    "AGENT_ONLY", "HUMAN_ONLY", "INVISIBLE_TAGS", "TAB_PANEL_CLASSES", "Attributes",
    "for_agents_only", "for_people_only", "hidden_by_attributes", "hidden_element",
    "is_tab_panel",
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


def for_agents_only(attributes: Attributes) -> bool:
    """True for a block its author wrote for agents only."""
    return f"data-{AGENT_ONLY}" in attributes or \
        AGENT_ONLY in (attributes.get("class") or "").split()


def for_people_only(attributes: Attributes) -> bool:
    """True for a block its author wrote for people only."""
    return f"data-{HUMAN_ONLY}" in attributes or \
        HUMAN_ONLY in (attributes.get("class") or "").split()


def hidden_by_attributes(attributes: Attributes, *, tab_widget: bool = False) -> bool:
    """True when an element's attributes hide it from readers, or mark it
    ``data-ignore`` or for people only; a tab panel hidden by ``hidden`` is not, in a
    ``tab_widget``, nor a block for agents only, however hidden."""
    if "data-ignore" in attributes or for_people_only(attributes):  # the author's word
        return True
    if for_agents_only(attributes):
        return False
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
