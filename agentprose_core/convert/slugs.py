"""The fragments a view can be linked with, from its Markdown alone (no parser: the
build tool's process asks this of every view once the site is complete)."""

from __future__ import annotations

import re
from html import unescape

__all__ = ["anchor_ids", "outside_code", "slug", "view_targets"]

_SLUG_DROPPED = re.compile(r"[^\w\- ]")


def slug(title: str) -> str:
    """The id GitHub (and most Markdown renderers) give a heading with this text."""
    return _SLUG_DROPPED.sub("", title.strip().lower()).replace(" ", "-")


_ANCHOR_IN_VIEW = re.compile(r'<a id="([^"]*)"></a>')
_ATX = re.compile(r"(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*")
_FENCE_MARK = re.compile(r"[ \t]{0,3}(`{3,}|~{3,})")
_INLINE_MARKUP = re.compile(r"<a id=\"[^\"]*\"></a>|!?\[([^\]]*)\]\([^)]*\)|\\(?=\S)|[`*]|<[^>]+>")


_QUOTE_MARKS = re.compile(r"^(?:[ \t]*>)+[ \t]?")


def outside_code(markdown: str) -> list[str]:
    """The lines of a view outside its fenced code blocks, without their blockquote
    marks (an admonition's headings and code are in a quote)."""
    lines: list[str] = []
    fence = ""
    for given in markdown.split("\n"):
        line = _QUOTE_MARKS.sub("", given) if given.lstrip().startswith(">") else given
        mark = _FENCE_MARK.match(line)
        if fence:
            if mark and mark.group(1)[0] == fence[0] and len(mark.group(1)) >= len(fence) \
                    and not line[mark.end():].strip():
                fence = ""
            continue
        if mark:
            fence = mark.group(1)
            continue
        lines.append(line)
    return lines


def _heading_texts(markdown: str) -> list[str]:
    """The text of each ATX heading of a view, code blocks skipped, inline markup off."""
    texts: list[str] = []
    for line in outside_code(markdown):
        heading = _ATX.fullmatch(line)
        if heading:
            texts.append(_INLINE_MARKUP.sub(lambda m: m.group(1) or "", heading.group(2)))
    return texts


def anchor_ids(markdown: str) -> set[str]:
    """The ids of a view's ``<a id>`` anchors."""
    return {unescape(ident) for ident in _ANCHOR_IN_VIEW.findall(markdown)}


def view_targets(markdown: str) -> frozenset[str]:
    """The fragments a view can be linked with: its anchors' ids and its headings'
    slugs (a repeated slug numbered as GitHub numbers it: ``-1``, ``-2``)."""
    found = anchor_ids(markdown) if "<a id=" in markdown else set()
    seen: dict[str, int] = {}
    for text in _heading_texts(markdown) if "#" in markdown else ():
        base = slug(text)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(f"{base}-{count}" if count else base)
    return frozenset(found)
