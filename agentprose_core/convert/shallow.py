"""Markup too deep for libxml2, made shallow as text before it is parsed.

libxml2 stops at 2,048 levels and silently drops everything after the deep point.
:func:`shallow_markup` takes out every tag below :data:`PARSE_DEPTH` and keeps its
text, so that the rest of the page parses whole; hidden elements, scripts and styles
that deep go whole (see :mod:`.hidden`). It runs only on markup the parser refused.
"""

from __future__ import annotations

import re

from agentprose_core.convert.rules.hidden import INVISIBLE_TAGS, hidden_by_attributes

__all__ = ["PARSE_DEPTH", "shallow_markup", "too_deep"]

PARSE_DEPTH = 512
"""Markup too deep to parse loses its tags below this depth (well under libxml2's 2,048)."""


def too_deep(error_log: object) -> bool:
    """True when a parser's error log says the markup was nested too deep for it."""
    return any(getattr(error, "type_name", "") == "ERR_RESOURCE_LIMIT"
               for error in error_log)  # type: ignore[attr-defined]


_TAG = re.compile(r"<!--.*?(?:-->|\Z)|<(/?)([A-Za-z][\w:.-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>",
                  re.DOTALL)
_ATTRIBUTE = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?""")
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "param", "source", "track", "wbr"})
_RAW_TEXT = frozenset({"script", "style", "textarea", "title", "xmp"})


def _attributes(text: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, value in _ATTRIBUTE.findall(text):
        found.setdefault(name.lower(), value.strip("\"'"))
    return found


class _Shallow:
    """The state of :func:`shallow_markup`: open elements, and whether each is kept."""

    def __init__(self, markup: str, limit: int) -> None:
        self.markup = markup
        self.limit = limit
        self.out: list[str] = []
        self.open: list[tuple[str, bool]] = []  # (tag, kept in the output)

    def run(self) -> str:
        position = 0
        while (match := _TAG.search(self.markup, position)) is not None:
            self.out.append(self.markup[position:match.start()])
            position = self.tag(match)
        self.out.append(self.markup[position:])
        return "".join(self.out)

    def tag(self, match: re.Match[str]) -> int:
        closing, name = match.group(1), (match.group(2) or "").lower()
        if not name:  # a comment: never text
            return match.end()
        if closing:
            self.close(name, match.group(0))
            return match.end()
        deep = len(self.open) >= self.limit
        attributes = _attributes(match.group(3) or "")
        if name in _RAW_TEXT or (deep and (name in INVISIBLE_TAGS
                                            or hidden_by_attributes(attributes))):
            if not deep and name in _RAW_TEXT:  # kept whole: the parser handles it
                end = self.raw_text_end(name, match.end())
                self.out.append(self.markup[match.start():end])
                return end
            return self.skip(name, match.end())
        if name in _VOID or match.group(3).rstrip().endswith("/"):
            if not deep:
                self.out.append(match.group(0))
            return match.end()
        self.open.append((name, not deep))
        if not deep:
            self.out.append(match.group(0))
        return match.end()

    def close(self, name: str, text: str) -> None:
        if not any(tag == name for tag, _ in self.open):
            return  # a stray closing tag: nothing to close
        while self.open:
            tag, kept = self.open.pop()
            if tag == name:
                if kept:
                    self.out.append(text)
                return
            if kept:
                self.out.append(f"</{tag}>")

    def raw_text_end(self, name: str, start: int) -> int:
        end = re.compile(rf"</{name}\s*>", re.IGNORECASE).search(self.markup, start)
        return end.end() if end else len(self.markup)

    def skip(self, name: str, start: int) -> int:
        """Past the end of the element ``name`` opened before ``start``: none of it shows."""
        if name in _RAW_TEXT:
            return self.raw_text_end(name, start)
        depth, position = 1, start
        while depth and (match := _TAG.search(self.markup, position)) is not None:
            position = match.end()
            tag = (match.group(2) or "").lower()
            if tag == name:
                depth += -1 if match.group(1) else 1
            elif tag in _RAW_TEXT and not match.group(1):
                position = self.raw_text_end(tag, position)
        return position if not depth else len(self.markup)


def shallow_markup(markup: str, limit: int = PARSE_DEPTH) -> str:
    """``markup`` with every tag nested deeper than ``limit`` taken out, its text kept;
    what is hidden or never shown (scripts, styles, ``hidden``) that deep goes whole."""
    return _Shallow(markup, limit).run()
