"""Tables: pipe tables where Markdown can hold them, clean HTML where it cannot.

A GitHub pipe table holds one line of inline content per cell and no spans. Tables
with spans or block content (lists, several paragraphs, code) stay HTML with only
the structural attributes, one row per line, so they stay readable and lose nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lxml import etree

from agentprose_core.convert.rules.anchors import HEADINGS, in_table_cell
from agentprose_core.convert.rules.codeblocks import (
    code_text,
    drop_line_numbers,
    language_of,
)
from agentprose_core.convert.rules.constructs import KNOWN_TAGS
from agentprose_core.convert.tree import (
    BLOCK_TAGS,
    Element,
    as_blocks,
    drop_tag,
    drop_tree,
    new_element,
    replace,
    unwrap,
)

if TYPE_CHECKING:
    from agentprose_core.convert.placeholders import Placeholders

__all__ = ["rewrite_tables", "span"]

_KEPT_ATTRIBUTES = frozenset({"colspan", "rowspan", "href", "src", "alt", "title"})
# What a table kept as HTML may hold: its parts, blocks Markdown has too, and inline
# markup. Wrappers (div, section, figure, span) say nothing to a reader and go.
_TABLE_HTML_TAGS = frozenset({
    "table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td", "p", "ul", "ol", "li",
    "dl", "dt", "dd", "pre", "blockquote", "hr", "a", "abbr", "b", "br", "code", "del", "em",
    "i", "img", "ins", "kbd", "mark", "q", "s", "samp", "small", "strong", "sub", "sup",
    "var",
}) & KNOWN_TAGS
_INLINE_WRAPPERS = frozenset({"p", "div", "span"})


def span(value: str | None) -> int:
    """A ``colspan``/``rowspan`` as browsers read it (HTML's rules for parsing
    non-negative integers): the digits it starts with after spaces, so ``"2.5"`` is 2;
    anything else (``"x"``, ``"-1"``, ``"0"``, missing) is 1."""
    match = _SPAN.match(value or "")
    return max(1, int(match.group(1))) if match else 1


_SPAN = re.compile(r"[\t\n\f\r ]*\+?(\d{1,5})")


def _cells(table: Element) -> list[Element]:
    return [cell for cell in table.iter("td", "th") if _owner(cell) is table]


def _owner(cell: Element) -> Element | None:
    element = cell.getparent()
    while element is not None and element.tag != "table":
        element = element.getparent()
    return element


def _flatten_cell(cell: Element) -> bool:
    """Reduce a cell to inline content when it holds one paragraph; False if it cannot."""
    while len(cell) == 1 and cell[0].tag in _INLINE_WRAPPERS and not (cell.text or "").strip():
        only = cell[0]
        if (only.tail or "").strip():
            break
        drop_tag(only)
    return not any(el.tag in BLOCK_TAGS or el.tag == "br" for el in cell.iterdescendants())


def _paragraphs_only(cell: Element) -> bool:
    """True for a cell of paragraphs and line breaks, bare or in wrappers (mkdocstrings'
    ``div.doc-md-description``): a pipe cell holds them joined by ``<br>``."""
    for element in cell.iterdescendants():
        if element.tag == "p" or element.tag in _INLINE_WRAPPERS:
            if not _in_wrappers(element, cell):
                return False
        elif element.tag in BLOCK_TAGS:
            return False
    return True


def _in_wrappers(element: Element, cell: Element) -> bool:
    parent = element.getparent()
    while parent is not None and parent is not cell:
        if parent.tag not in _INLINE_WRAPPERS:
            return element.tag not in ("p", "div")  # a span in a paragraph is inline
        parent = parent.getparent()
    return True


def _join_paragraphs(cell: Element, placeholders: Placeholders) -> None:
    """A cell's paragraphs and line breaks on one line, ``<br>`` between them."""
    for wrapper in list(cell.iterdescendants("div")):
        drop_tag(wrapper)
    for line_break in list(cell.iter("br")):
        unwrap(line_break, placeholders.inline("<br>"))
    for number, paragraph in enumerate(list(cell.iter("p"))):
        if number or (cell.text or "").strip():
            paragraph.text = placeholders.inline("<br><br>") + (paragraph.text or "")
        drop_tag(paragraph)


def _is_pipe_table(table: Element, placeholders: Placeholders) -> bool:
    # A table inside it, or one already kept as HTML (inner tables go first): a pipe
    # cell cannot hold either.
    if table.xpath(f".//table | .//*[@{_KEPT_TABLE}]"):
        return False
    cells = _cells(table)
    if any(span(cell.get("colspan")) > 1 or span(cell.get("rowspan")) > 1 for cell in cells):
        return False
    simple = [_flatten_cell(cell) for cell in cells]
    if not all(ok or _paragraphs_only(cell) for ok, cell in zip(simple, cells, strict=True)):
        return False
    for ok, cell in zip(simple, cells, strict=True):
        if not ok:
            _join_paragraphs(cell, placeholders)
        for name in ("colspan", "rowspan"):  # 1 however written: the engine reads no "x"
            if name in cell.attrib:
                del cell.attrib[name]
    return True


def _clean_html(table: Element) -> str:
    for cell in _cells(table):
        _flatten_cell(cell)
    drop_line_numbers(table)
    languages = {}
    for pre in table.iter("pre"):
        language = pre.get(_LANGUAGE)
        text = code_text(pre)
        pre.clear()
        code = new_element("code", text)
        pre.append(code)
        if language:
            languages[code] = f"language-{language}"
    for element in list(table.iter()):
        if not isinstance(element.tag, str):
            continue
        if element.tag not in _TABLE_HTML_TAGS:  # a wrapper, or unknown (<autoref>): its text
            drop_tag(element)
            continue
        if element.tag == "p" and not len(element) and not (element.text or "").strip():
            drop_tag(element)
            continue
        for name in list(element.attrib):
            if name not in _KEPT_ATTRIBUTES:
                del element.attrib[name]
            elif name in ("colspan", "rowspan"):  # as a browser reads it
                value = span(element.get(name))
                if value > 1:
                    element.set(name, str(value))
                else:
                    del element.attrib[name]
        if element in languages:  # the one class kept: a code block's language, as HTML says it
            element.set("class", languages[element])
    for group in table.iter("colgroup"):
        drop_tree(group)
    for row in table.iter("tr"):
        row.tail = "\n"
        for cell in row:
            cell.tail = None
        row.text = None
    for section in table.iter("thead", "tbody", "tfoot"):
        section.text = "\n"
        section.tail = "\n"
    table.text = "\n"
    table.tail = None
    markup: str = etree.tostring(table, encoding="unicode", method="html")
    # A blank line ends an HTML block: code keeps its lines as character references.
    markup = _PRE.sub(lambda match: match.group().replace("\n", "&#10;"), markup)
    return "\n".join(line for line in markup.split("\n") if line.strip())


_PRE = re.compile(r"<pre>.*?</pre>", re.DOTALL)
_KEPT_TABLE = "data-agentprose-table"  # marks a table kept as HTML, for the one around it
_LANGUAGE = "data-agentprose-language"


def rewrite_tables(root: Element, placeholders: Placeholders) -> int:
    """Leave pipe-able tables to the engine and turn the others into clean HTML.

    Returns the number of tables kept as HTML.
    """
    kept = 0
    for heading in list(root.iter(*HEADINGS)):
        if in_table_cell(heading):  # its anchor is in place: the cell's text, inline
            heading.tag = "p"
    for table in reversed(list(root.iter("table"))):
        if table.getparent() is None or "highlighttable" in (table.get("class") or ""):
            continue
        for pre in table.iter("pre"):  # before the cells lose the wrappers that name it
            language = language_of(pre)
            if language:
                pre.set(_LANGUAGE, language)
        if _is_pipe_table(table, placeholders):
            _header_first(table)
            _caption_before(table)
            continue
        token = placeholders.block(_clean_html(table))
        kept_table = new_element("p", token)
        kept_table.set(_KEPT_TABLE, "")
        replace(table, kept_table)
        kept += 1
    return kept


def _caption_before(table: Element) -> None:
    """A pipe table has no caption: it becomes the paragraph before the table, the
    same with either engine (html-to-markdown italicizes it, markdownify does not)."""
    caption = table.find("caption")
    if caption is None:
        return
    table.remove(caption)
    for block in as_blocks(caption):
        if block.text or len(block):
            table.addprevious(block)


def _header_first(table: Element) -> None:
    """Give the table a ``<thead>`` when its first row is all header cells."""
    if table.find("thead") is not None:
        return
    rows = list(table.iter("tr"))
    if rows and all(cell.tag == "th" for cell in rows[0]):
        head = new_element("thead")
        first = rows[0]
        parent = first.getparent()
        if parent is not None:
            parent.remove(first)
        head.append(first)
        table.insert(0, head)
