"""The passage of a page that answers a search: the block that holds most of the
query's words, under its headings. The ranking itself is :mod:`agentprose_core.search`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentprose_core.mcp.markdown import ANCHOR, opening_anchors, scan, without_markup
from agentprose_core.search.terms import names_in, object_names, terms

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["SNIPPET_CHARS", "Passage", "best_passage"]

_WORD = re.compile(r"\w+")


# -- the passage that answers -------------------------------------------------------

SNIPPET_CHARS = 300


@dataclass(frozen=True)
class Passage:
    """The part of a page that matched a query, under its headings."""
    headings: tuple[str, ...]
    """The headings above the passage, outermost first."""
    snippet: str
    anchors: tuple[str, ...] = ()
    """The ids of the nearest anchors above or at the passage (a heading's, or an API
    object's ``<a id>`` at a block's start)."""




def best_passage(markdown: str, query: str) -> Passage:
    """The block of ``markdown`` that holds the most of ``query``'s terms, with the
    headings above it; fenced code counts as one block and its ``#`` lines are not
    headings."""
    wanted = set(terms(query))
    named = names_in(query)
    path: list[tuple[int, str]] = []
    anchors: tuple[str, ...] = ()
    best = Passage((), "")
    best_score = -1
    for level, block in _blocks(markdown):
        if level:
            path = [entry for entry in path if entry[0] < level] + [(level, block)]
            anchors = tuple(ANCHOR.findall(block))
            continue
        opened = opening_anchors(block)
        if opened:
            anchors = opened
        # The words of the block count most, those of its heading next.
        heading_terms = terms(path[-1][1]) if path else []
        score = 2 * len(wanted.intersection(terms(block))) + len(
            wanted.intersection(heading_terms))
        if any(named.intersection(object_names(ident)) for ident in opened):
            score += 1000  # the entry of the object the query names
        if score > best_score:
            best_score = score
            best = Passage(tuple(title for _, title in path), _snippet(block, wanted), anchors)
    return best


def _blocks(markdown: str) -> Iterable[tuple[int, str]]:
    """The headings (their level and text) and blocks (level 0) of ``markdown``; fenced
    code is one block with the text around it."""
    block: list[str] = []
    for line in scan(markdown):
        if line.level or (not line.code and not line.text.strip()):
            if block:
                yield 0, "\n".join(block)
                block = []
            if line.level:
                yield line.level, line.heading
            continue
        block.append(line.text)
    if block:
        yield 0, "\n".join(block)


def _snippet(block: str, wanted: set[str]) -> str:
    """Up to ``SNIPPET_CHARS`` of ``block`` on one line, starting near its first match."""
    # A link keeps its text: the URL would take the room and may be cut.
    flat = " ".join(without_markup(block).split())
    if len(flat) <= SNIPPET_CHARS:
        return flat
    start = 0
    for match in _WORD.finditer(flat):
        if wanted.intersection(terms(match.group())):
            start = max(0, match.start() - 60)
            break
    if start:
        start = flat.find(" ", start) + 1 or start
    piece = flat[start:start + SNIPPET_CHARS]
    cut = piece.rfind(" ")
    if cut > SNIPPET_CHARS // 2:
        piece = piece[:cut]
    return ("…" if start else "") + piece + "…"
