"""Reading the Markdown of an agent view line by line: headings, fences, anchors.

Headings and fences may sit inside containers: a blockquote (admonitions are
blockquotes in the views) or a list item (mkdocstrings writes an object's parameters as
a list of headings). A ``#`` line inside fenced code is code, not a heading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["ANCHOR", "Line", "opening_anchors", "scan", "without_markup"]

_CONTAINER = r"(?:[ \t]*(?:>[ \t]?|[-*+][ \t]+|[0-9]{1,9}[.)][ \t]+))*"
_HEADING = re.compile(_CONTAINER + r"[ \t]{0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*")
_FENCE = re.compile(_CONTAINER + r"[ \t]{0,3}(`{3,}|~{3,})(.*)")
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
"""An anchor agentprose writes where an element (an API object, a term) starts."""
_START_ANCHORS = re.compile(_CONTAINER + f"(?:{ANCHOR.pattern})+")
_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")


def opening_anchors(text: str) -> tuple[str, ...]:
    """The ids of the anchors that open ``text`` (after quote and list markers)."""
    start = _START_ANCHORS.match(text)
    return tuple(ANCHOR.findall(start.group())) if start else ()


def without_markup(text: str) -> str:
    """``text`` without anchors, and with each link reduced to its text."""
    return _LINK.sub(r"\1", ANCHOR.sub("", text))


@dataclass(frozen=True)
class Line:
    """One line of a view: its number, its text, and whether it is inside a code block."""
    number: int
    text: str
    code: bool
    """Inside fenced code, its fence lines included."""
    level: int = 0
    """The level of a heading line, else 0."""
    heading: str = ""
    """A heading's text (Markdown as written)."""
    anchors: tuple[str, ...] = ()
    """The ids of the anchors in a heading, or of those that open a line (Sphinx gives
    one heading several: its label and its own id)."""


def scan(markdown: str) -> Iterator[Line]:
    """Every line of ``markdown``, read as headings, code and text."""
    fence = ""
    for number, text in enumerate(markdown.split("\n")):
        opened = _FENCE.fullmatch(text)
        if fence:
            if opened and opened.group(1).startswith(fence) and not opened.group(2).strip():
                fence = ""
            yield Line(number, text, True)
            continue
        if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
            fence = opened.group(1)
            yield Line(number, text, True)
            continue
        heading = _HEADING.fullmatch(text)
        if heading:
            yield Line(number, text, False, len(heading.group(1)), heading.group(2),
                       tuple(ANCHOR.findall(heading.group(2))))
            continue
        yield Line(number, text, False, anchors=opening_anchors(text))
