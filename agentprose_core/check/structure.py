"""The round-trip check: does a view's Markdown render back to the page's blocks?

A CommonMark renderer (markdown-it-py, with GitHub tables) given a view's body must
produce the block structure of the normalized content HTML the engine was handed:
the same headings and levels, paragraphs, lists and items, code blocks with their
exact text, tables and quotes, in order. Both sides become a flat list of block
marks (``"h2 install"``, ``"p"``, ``"ul["``, ``"code:…"``, ``"]"``) and are compared.

markdown-it-py is imported only when a check runs (the build never needs it).
"""

from __future__ import annotations

import difflib
import re
from functools import cache
from typing import TYPE_CHECKING, Any

from agentprose_core.convert.normalize import normalize
from agentprose_core.convert.tree import (
    BLOCK_TAGS,
    Element,
    all_text,
    parse_fragment,
    text_of,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from agentprose_core.convert.fences import SourceFence
    from agentprose_core.convert.placeholders import Placeholders

__all__ = ["markdown_structure", "mismatches", "roundtrip_mismatches"]

_CONTAINERS = {"ul": "ul[", "ol": "ol[", "li": "li[", "blockquote": "bq["}
# Elements an engine puts on lines of their own, as BLOCK_TAGS are.
_BLOCKS = BLOCK_TAGS | {"dt", "dd", "summary", "caption", "legend", "tr", "td", "th", "thead",
                        "tbody", "tfoot"}
_WORD = re.compile(r"\w+")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")


def _words(text: str) -> str:
    """Heading text compared by its words only: escapes and markup do not count."""
    return "".join(_WORD.findall(text.casefold()))


@cache
def _parser() -> Any:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table")


# A footnote definition is a paragraph to a renderer that knows footnotes (GitHub);
# plain CommonMark would take a one-word one (``[^5]: [url](url)``) for a link
# reference definition and show nothing.
_FOOTNOTE_DEFINITION = re.compile(r"^([ \t>]*)\[\^(?=[^\]\n]+\]:)", re.MULTILINE)


_FENCE = re.compile(r"^[ \t>]*(`{3,}|~{3,})")


def _footnotes_as_paragraphs(markdown: str) -> str:
    """``markdown`` with each footnote definition's ``[`` escaped, outside fenced code."""
    lines = markdown.split("\n")
    fence = ""
    for number, line in enumerate(lines):
        opening = _FENCE.match(line)
        if fence:
            if opening and opening.group(1).startswith(fence) and \
                    not line[opening.end():].strip():
                fence = ""
        elif opening:
            fence = opening.group(1)
        elif line.lstrip(" \t>").startswith("[^"):
            lines[number] = _FOOTNOTE_DEFINITION.sub(r"\1\\[^", line)
    return "\n".join(lines)


def markdown_structure(markdown: str) -> list[str]:
    """The block marks of ``markdown`` as a CommonMark renderer reads it (footnote
    definitions as paragraphs, as GitHub's renderer shows them)."""
    marks: list[str] = []
    if "[^" in markdown:
        markdown = _footnotes_as_paragraphs(markdown)
    tokens = _parser().parse(markdown)
    skip_to: str | None = None
    for position, token in enumerate(tokens):
        kind = token.type
        if skip_to is not None:
            if kind == skip_to:
                skip_to = None
            continue
        if kind == "heading_open":
            marks.append(f"{token.tag} {_words(_inline_text(tokens[position + 1]))}")
            skip_to = "heading_close"
        elif kind == "paragraph_open":
            marks.append("p")
            skip_to = "paragraph_close"
        elif kind in ("fence", "code_block"):
            marks.append("code:" + token.content.removesuffix("\n"))
        elif kind == "table_open":
            rows = 0
            for later in tokens[position:]:
                if later.type == "table_close":
                    break
                rows += later.type == "tr_open"
            marks.append(f"table:{rows}")
            skip_to = "table_close"
        elif kind == "html_block" and not token.content.startswith("<!--"):
            marks.append(_html_block(token.content))
        elif kind == "hr":
            marks.append("hr")
        elif kind.endswith("_open"):
            marks.append(_CONTAINERS.get(token.tag, token.tag + "["))
        elif kind.endswith("_close"):
            marks.append("]")
    return marks


def _inline_text(token: Any) -> str:
    return "".join(child.content for child in token.children or ()
                   if child.type in ("text", "code_inline"))


def _html_block(content: str) -> str:
    if content.lstrip().startswith("<table"):
        return f"table:{_own_rows(content)}"
    return "html"


_TABLE_TAGS = re.compile(r"<(/?)(table|tr)\b", re.IGNORECASE)


def _own_rows(markup: str) -> int:
    """The rows of the table ``markup`` opens, not those of tables in its cells."""
    depth = rows = 0
    for closing, tag in _TABLE_TAGS.findall(markup):
        if tag.lower() == "table":
            depth += -1 if closing else 1
        elif not closing and depth == 1:
            rows += 1
    return rows


def _rows_of(table: Any) -> int:
    """The rows of ``table`` itself (an element), not those of tables in its cells."""
    return sum(1 for row in table.iter("tr")
               if next(row.iterancestors("table"), None) is table)


def _block_mark(text: str) -> str | None:
    """The mark of a block placeholder's text: a fence, an HTML table, display math."""
    if text.startswith(("```", "~~~")):
        lines = text.split("\n")
        return "code:" + "\n".join(lines[1:-1])
    if text.startswith("<table"):
        return _html_block(text)
    if text.startswith("<!--"):
        return None
    return "p"


class _Walk:
    def __init__(self, placeholders: Placeholders) -> None:
        self.placeholders = placeholders
        self.marks: list[str] = []

    def _expand(self, text: str) -> str:
        """``text`` with its placeholders' text, but inline HTML (anchors), which a
        renderer does not count as text either."""
        for token, value in self.placeholders.inlines.items():
            if token in text:
                text = text.replace(token, _TAG.sub("", value))
        return text

    def container(self, element: Element) -> None:
        """The blocks inside ``element``: runs of inline content count as a paragraph."""
        has_inline = bool((element.text or "").strip())
        for child in element:
            tag = child.tag if isinstance(child.tag, str) else ""
            if tag in _BLOCKS:
                if has_inline:
                    self.marks.append("p")
                has_inline = False
                self.block(child)
            elif tag:
                has_inline = has_inline or _has_content(child)
            has_inline = has_inline or bool((child.tail or "").strip())
        if has_inline:
            self.marks.append("p")

    def block(self, element: Element) -> None:
        tag = str(element.tag)
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            if _has_content(element):  # engines write no empty heading
                self.marks.append(f"{tag} {_words(self._expand(text_of(element)))}")
        elif tag == "p":
            self.paragraph(element)
        elif tag == "hr":
            self.marks.append("hr")
        elif tag == "table":
            self.marks.append(f"table:{_rows_of(element)}")
        elif tag in ("ul", "ol") and not _has_content(element):
            return  # a list of empty items renders as nothing in both
        elif tag in _CONTAINERS:
            self.marks.append(_CONTAINERS[tag])
            self.container(element)
            self.marks.append("]")
        elif tag == "pre":
            self.marks.append("code:" + all_text(element).strip("\n"))
        else:
            self.container(element)

    def paragraph(self, element: Element) -> None:
        text = (element.text or "").strip()
        if any(child.tag in _BLOCKS for child in element):  # a block inside a paragraph
            self.container(element)
            return
        if len(element) == 0 and text in self.placeholders.blocks:
            mark = _block_mark(self.placeholders.blocks[text])
            if mark is not None:
                self.marks.append(mark)
        elif text == self.placeholders.separator and len(element) == 0:
            return
        elif _has_content(element):
            self.marks.append("p")


def _has_content(element: Element) -> bool:
    """True when an inline element shows something (text or an image)."""
    if all_text(element).strip():
        return True
    return any(el.tag == "img" for el in element.iter())


def _html_structure(root: Element, placeholders: Placeholders) -> list[str]:
    """The block marks of a normalized tree (``root`` and its placeholders)."""
    walk = _Walk(placeholders)
    walk.container(root)
    return walk.marks


def mismatches(expected: Sequence[str], actual: Sequence[str], *, most: int = 5) -> list[str]:
    """Where ``actual`` block marks differ from ``expected``, at most ``most`` places."""
    found: list[str] = []
    matcher = difflib.SequenceMatcher(a=expected, b=actual, autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            continue
        found.append(f"block {a1}: expected {_short(expected[a1:a2])}, "
                     f"the view has {_short(actual[b1:b2])}")
        if len(found) >= most:
            break
    return found


def _short(marks: Sequence[str]) -> str:
    shown = [mark if len(mark) <= 40 else mark[:37] + "..." for mark in marks[:4]]
    more = f" (+{len(marks) - 4})" if len(marks) > 4 else ""
    return "[" + ", ".join(repr(mark) for mark in shown) + "]" + more


def roundtrip_mismatches(
    fragment: str,
    markdown: str,
    *,
    page_url: str,
    site_map: Mapping[str, str] | None = None,
    source_fences: Sequence[SourceFence] = (),
) -> list[str]:
    """How the view body ``markdown`` fails to render back to the content HTML
    ``fragment`` (as normalize hands it to the engine); empty when it does."""
    normalized = normalize(parse_fragment(fragment), page_url=page_url,
                           site_map=site_map or {}, source_fences=source_fences)
    expected = _html_structure(normalized.root, normalized.placeholders)
    return mismatches(expected, markdown_structure(markdown))

