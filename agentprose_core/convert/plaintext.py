"""A page's plain text as Markdown paragraphs: the view of a page every conversion
failed on, so that one page never stops a build and its view still says what it says.
"""

from __future__ import annotations

import re

from lxml import etree

from agentprose_core.convert.tree import BLOCK_TAGS, Element, parse_fragment
from agentprose_core.diagnostics import Diagnostic
from agentprose_core.model import Conversion

__all__ = ["plain_conversion", "text_of"]


def text_of(document: str) -> str:
    """The text of an HTML ``document``, as :func:`plain_conversion` writes it."""
    return _as_paragraphs(_block_text(parse_fragment(document)))


_NOT_TEXT = frozenset({"script", "style", "template"})


def _block_text(root: Element) -> str:
    """The text of ``root``, each block (heading, paragraph, item, cell, …) apart from
    the next by a blank line; walked without recursion (a page can be deep)."""
    parts: list[str] = []
    for event, element in etree.iterwalk(root, events=("start", "end")):
        tag = element.tag if isinstance(element.tag, str) else None
        block = tag in BLOCK_TAGS or tag in ("td", "th", "tr", "br")
        if event == "start":
            if block:
                parts.append("\n\n")
            if tag is not None and tag not in _NOT_TEXT and element.text:
                parts.append(element.text)
            continue
        if block:
            parts.append("\n\n")
        if element is not root and element.tail:
            parts.append(element.tail)
    return "".join(parts)


_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]<>#|~$!&])")
_LINE_START_MARKER = re.compile(r"^(\d*)([-+=.)])")


def _as_paragraphs(text: str) -> str:
    """Plain text as Markdown paragraphs that read as text only: each block's words on
    one line, every character Markdown could take for syntax escaped."""
    paragraphs = []
    for part in text.split("\n\n"):
        words = " ".join(part.split())
        if words:
            escaped = _MARKDOWN_PUNCTUATION.sub(r"\\\1", words)
            paragraphs.append(_LINE_START_MARKER.sub(r"\1\\\2", escaped))
    return "\n\n".join(paragraphs) + "\n" if paragraphs else ""


_ANY_TOKEN = re.compile(r"AgPr(?:\d+q)?(?:SEPX|X\d*X?)")


def plain_conversion(root: Element, page_url: str, error: Exception) -> Conversion:
    """The view of a page the rules failed on: its text, as far as they had left it
    (without the placeholders they had put in), one paragraph a block."""
    failure = f"{type(error).__name__}: {' '.join(str(error).split())[:200]}"
    markdown = _as_paragraphs(_ANY_TOKEN.sub("", _block_text(root)))
    note = Diagnostic(
        "engine-failed",
        f"agentprose's converter failed on this page ({failure}); its view is the page's "
        "plain text. Please report the page to agentprose.", location=page_url)
    return Conversion(markdown=markdown, headings=(), diagnostics=(note,))
