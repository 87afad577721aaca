"""What an agent view says: its words, structure and links, read with markdown-it.

Parsing (CommonMark + GFM tables, strikethrough, footnotes, task lists) rather than
regular expressions drops the syntax that carries no reader-visible words:

- the YAML front matter;
- link and image destinations (an image reads as its alt text), fence info strings,
  footnote markers ``[^n]`` and ``[^n]:``, task-list boxes ``[x]``;
- the admonition type label agentprose adds: ``> **Note: Title**`` reads as the words
  of "Title"; ``> **Note**`` alone reads "Note", as the HTML shows it;
- tags of raw HTML (kept tables, ``<kbd>``…): raw HTML blocks read as the same
  visible text as the reference HTML.

Every token boundary separates words, except between adjacent text tokens, matching
the element-boundary rule on the HTML side.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from .htmltext import GENERIC_LANGUAGES, Structure, parse_fragment, structure_of, visible_text

if TYPE_CHECKING:
    from markdown_it.token import Token

__all__ = ["MarkdownView", "read_view", "strip_front_matter"]

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_LABEL = re.compile(r"^[A-Za-z][A-Za-z ]{0,30}:\s+")
_HREF = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']*)["']""", re.IGNORECASE)
_TEXT = frozenset({"text", "text_special"})


def _parser() -> MarkdownIt:
    parser = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    parser.use(footnote_plugin).use(tasklists_plugin)
    return parser.disable("footnote_tail")  # footnote text stays where it is written


_MD = _parser()


@dataclass
class MarkdownView:
    """An agent view, read."""

    text: str
    structure: Structure
    links: list[str] = field(default_factory=list)


def strip_front_matter(markdown: str) -> str:
    """The body of an agent view: everything after the closing ``---``."""
    return _FRONT_MATTER.sub("", markdown, count=1)


def _drop_label(children: list[Token]) -> list[str]:
    """``**Note: Title**`` at the start of a blockquote: the words of "Title" only."""
    if len(children) < 3 or children[0].type != "strong_open" or children[1].type != "text":
        return []
    first = children[1].content
    label = _LABEL.match(first)
    if not label:
        return []
    rest = first[label.end():]
    if not rest.strip() and children[2].type == "strong_close":
        return []
    return [rest]


def _inline(token: Token, *, in_quote_start: bool) -> str:
    children = [c for c in token.children or [] if c.type not in _TEXT or c.content]
    parts: list[str] = []
    replaced = _drop_label(children) if in_quote_start else []
    if replaced:
        parts.append(" " + replaced[0])
        children = children[2:]
    for child in children:
        if child.type in _TEXT:
            parts.append(child.content)
        elif child.type == "footnote_ref":
            parts.append(f" {_label_words(child)} ")
        elif child.type in ("code_inline", "image"):
            parts.append(f" {child.content} ")
        elif child.type == "html_inline":
            parts.append(" " if child.content.startswith("<!--") else f" {_html_words(child)} ")
        else:
            parts.append(" ")
    return "".join(parts)


def _label_words(token: Token) -> str:
    """A footnote's label when it is a name (``[^CIT2002]``, shown as ``[CIT2002]``)."""
    label = str((token.meta or {}).get("label", ""))
    return "" if label.isdigit() else label


def _html_words(token: Token) -> str:
    alt = re.search(r"""\balt\s*=\s*["']([^"']*)["']""", token.content)
    return alt.group(1) if alt and token.content.lstrip().startswith("<img") else ""


def _count_token(token: Token, found: Structure) -> None:
    if token.type in ("fence", "code_block"):
        found.code += 1
        language = token.info.split()[0].lower() if token.info.strip() else ""
        found.code_lang += language.strip("{}.") not in GENERIC_LANGUAGES
    elif token.type == "table_open":
        found.tables += 1
    elif token.type == "heading_open":
        found.headings[int(token.tag[1])] += 1
    elif token.type == "list_item_open":
        found.list_items += 1


def _count_inline(token: Token, found: Structure, links: list[str]) -> None:
    for child in token.children or []:
        if child.type == "link_open":
            found.links += 1
            links.append(str(child.attrGet("href") or ""))
        elif child.type == "image":
            found.images += 1
            links.append(str(child.attrGet("src") or ""))
        elif child.type == "html_inline":
            opening = child.content.lstrip().lower()
            found.links += opening.startswith("<a ") and "href" in opening
            found.images += opening.startswith("<img")
            links.extend(_HREF.findall(child.content))


def _raw_block(token: Token, found: Structure, links: list[str]) -> str:
    root = parse_fragment(token.content)
    raw = structure_of(root)
    raw.raw_tables = raw.tables
    found.add(raw)
    links.extend(_HREF.findall(token.content))
    return visible_text(root)


_TEX_TAG = re.compile(r"\\tag\{([^{}]*)\}")


def read_view(markdown: str) -> MarkdownView:
    """Words (as text), structure and link targets of an agent view's body."""
    # An equation number written as TeX's \tag{1} reads "1", as the HTML's "(1)".
    tokens = _MD.parse(_TEX_TAG.sub(r" \1 ", strip_front_matter(markdown)))
    found = Structure()
    links: list[str] = []
    parts: list[str] = []
    for index, token in enumerate(tokens):
        _count_token(token, found)
        if token.type == "inline":
            quote_start = index >= 2 and tokens[index - 1].type == "paragraph_open" \
                and tokens[index - 2].type == "blockquote_open"
            parts.append(_inline(token, in_quote_start=quote_start))
            _count_inline(token, found, links)
        elif token.type in ("fence", "code_block"):
            parts.append(token.content)
        elif token.type == "html_block":
            parts.append(_raw_block(token, found, links))
        elif token.type == "footnote_open":
            parts.append(f" {_label_words(token)} ")
        parts.append("\n")
    return MarkdownView(text="".join(parts), structure=found, links=links)
