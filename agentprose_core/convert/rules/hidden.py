"""What a reader never sees: hidden by an attribute, or an element that shows nothing.

One rule for every place that drops hidden content (normalize, the deep-nesting
fallback, the text-only pass over markup too deep to parse): ``hidden``,
``aria-hidden="true"`` (any case), ``data-ignore``, an inline ``display: none`` or
``visibility: hidden``. The one exception is a tab panel (``role="tabpanel"``, or a
panel of the tab widgets we know): sphinx-tabs marks inactive panels ``hidden``, yet
a click shows them. A collapsed ``<details>`` hides its content without any of these
marks, so its content stays; what is explicitly hidden inside it goes.
"""

from __future__ import annotations

import re
from typing import Protocol

__all__ = [
    "INVISIBLE_TAGS", "TAB_PANEL_CLASSES", "Attributes", "hidden_by_attributes", "is_tab_panel",
]

INVISIBLE_TAGS = frozenset({"script", "style", "noscript", "template", "textarea", "title"})
"""Elements whose text is never shown as text."""

TAB_PANEL_CLASSES = frozenset({"tabbed-block", "tabbed-content", "sd-tab-content"})
_HIDING_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*(?:hidden|collapse))"
    r"\s*(?:!\s*important\s*)?(?:;|$)",
    re.IGNORECASE,
)


class Attributes(Protocol):
    """An element's attributes: lxml's ``element.attrib``, or a plain dict."""

    def get(self, key: str, /) -> str | None: ...

    def __contains__(self, key: str, /) -> bool: ...


def is_tab_panel(attributes: Attributes) -> bool:
    """True for the panel of a content tab: hidden until its tab is clicked."""
    if attributes.get("role") == "tabpanel":
        return True
    return not TAB_PANEL_CLASSES.isdisjoint((attributes.get("class") or "").split())


def hidden_by_attributes(attributes: Attributes) -> bool:
    """True when an element's attributes hide it from readers (tab panels aside), or
    mark it ``data-ignore``."""
    if "data-ignore" in attributes:  # the author's own word: never content
        return True
    hidden = (
        "hidden" in attributes
        or (attributes.get("aria-hidden") or "").strip().lower() == "true"
        or bool(_HIDING_STYLE.search(attributes.get("style") or ""))
    )
    return hidden and not is_tab_panel(attributes)
