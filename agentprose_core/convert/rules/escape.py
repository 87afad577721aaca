"""Text that would read as Markdown syntax, escaped before an engine sees it.

A page's text can hold what Markdown takes for syntax: a run of backticks that opens a
fence or a code span, ``<b>`` written out as text, ``[x](y)``, an entity name, or at
the start of a line ``#``, ``>``, ``- ``, ``1.``, an ``===`` underline. Neither engine
escapes all of it (markdownify none, html-to-markdown only at a paragraph's start), and
an unescaped stray backtick flips code and prose for the rest of a page.

So normalize escapes it itself, engine-independently: each escape is an inline
placeholder (letters and digits no engine touches) that :func:`~.placeholders.splice`
turns into the backslash escape. A line starts where a block, a ``<br>`` or a newline
in the text starts one; in code spans and headings, which cannot go on over a newline,
newlines become the spaces they are in HTML.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentprose_core.convert.tree import BLOCK_TAGS, Element, all_text, drop_tag, unwrap

if TYPE_CHECKING:
    from agentprose_core.convert.placeholders import Placeholders

__all__ = ["escape_text", "guard_lines"]

# Their text becomes a code span: backslashes there are literal, so nothing is escaped.
_CODE_LIKE = frozenset({"code", "kbd", "samp", "tt"})
# Where an engine starts a new line.
_LINE_BLOCKS = BLOCK_TAGS | {"td", "th", "dt", "dd", "summary", "caption", "legend", "tr",
                             "thead", "tbody", "tfoot", "body", "br"}
# Inline content only: no block syntax can start there.
_NO_BLOCK_SYNTAX = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "td", "th"})
_NEWLINES = re.compile(r"[ \t\r\f]*\n[ \t\r\n\f]*")
_BLANK_LINES = re.compile(r"\n[ \t\r\f]*(?=\n)")
_ANYWHERE = re.compile(
    r"[`~]|<(?=[A-Za-z/!?])|&(?=#?\w+;)|\](?=\()|\\"
    # Emphasis marks, but "snake_case" and "5 * 3", which never are.
    r"|(?<![^\W_])_|_(?![^\W_])|(?<!\s)\*|\*(?!\s)"
)
_LIST_NUMBER = re.compile(r"\d{1,9}(?=[.)](?:\s|$))")
_LINE_START_MARKS = frozenset("#>+*-=_[|")
# A line a GFM reader takes for a table's delimiter row under the line before (":-",
# ":--:|--"): the marks above escape one that starts with "-" or "|", this one ":".
_DELIMITER_ROW = re.compile(r":?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_RISKY = re.compile(r"[`~<&\]\\_*]")
# Inside a link's text (or an image's alt), brackets end it early.
_BRACKETS = re.compile(r"[\[\]]")
_ENDS_A_LABEL = re.compile(r"\][ \t]*:").search


class _Escaper:
    def __init__(self, placeholders: Placeholders) -> None:
        self._placeholders = placeholders
        self._tokens: dict[str, str] = {}

    def token(self, escaped: str) -> str:
        found = self._tokens.get(escaped)
        if found is None:
            found = self._tokens[escaped] = self._placeholders.inline(escaped)
        return found

    def anywhere(self, text: str) -> str:
        if not _RISKY.search(text):
            return text
        return _ANYWHERE.sub(lambda match: self.token("\\" + match.group()), text)

    def brackets(self, text: str) -> str:
        return _BRACKETS.sub(lambda match: self.token("\\" + match.group()), text)

    def line_start(self, text: str) -> str:
        """``text`` that starts a line: its first mark escaped, then the rest."""
        body = text.lstrip()
        lead = text[: len(text) - len(body)]
        number = _LIST_NUMBER.match(body)
        if number:
            end = number.end()
            return lead + body[:end] + self.token("\\" + body[end]) + self.anywhere(body[end + 1:])
        if body[0] in _LINE_START_MARKS or (body[0] == ":" and _DELIMITER_ROW.match(body)):
            return lead + self.token("\\" + body[0]) + self.anywhere(body[1:])
        return lead + self.anywhere(body)


def _shows(element: Element) -> bool:
    """True when an inline element puts something on the line (text or an image)."""
    return bool(all_text(element).strip()) or next(element.iter("img"), None) is not None


def _starts_line(element: Element) -> bool:
    """True when nothing stands before ``element``'s content on its line."""
    while element.tag not in _LINE_BLOCKS:
        previous = element.getprevious()
        while previous is not None:
            if (previous.tail or "").strip():
                return False
            if previous.tag in _LINE_BLOCKS:
                return True
            if _shows(previous):
                return False
            previous = previous.getprevious()
        parent = element.getparent()
        if parent is None:
            return True
        if (parent.text or "").strip():
            return False
        element = parent
    return True


def _tail_starts_line(element: Element) -> bool:
    if element.tag in _LINE_BLOCKS:
        return True
    return not _shows(element) and _starts_line(element)


# What a text is inside, as flags: a code span, a heading or cell, a link.
_IN_CODE, _INLINE_ONLY, _IN_LINK = 1, 2, 4
_TAG_FLAGS: dict[object, int] = {**dict.fromkeys(_CODE_LIKE, _IN_CODE),
                                 **dict.fromkeys(_NO_BLOCK_SYNTAX, _INLINE_ONLY), "a": _IN_LINK}


class _Around:
    """The flags of the elements a text is inside, each element's worked out once, from
    its parent's (a walk up from every text would go over the same ancestors again)."""

    def __init__(self) -> None:
        self._flags: dict[Element, int] = {}

    def of(self, element: Element) -> int:
        """The flags of ``element`` and its ancestors: what its own text is inside."""
        found = self._flags.get(element)
        if found is not None:
            return found
        chain: list[Element] = []
        known = 0
        current: Element | None = element
        while current is not None:
            flags = self._flags.get(current)
            if flags is not None:
                known = flags
                break
            chain.append(current)
            current = current.getparent()
        for member in reversed(chain):
            known |= _TAG_FLAGS.get(member.tag, 0)
            self._flags[member] = known
        return known

    def above(self, element: Element) -> int:
        """The flags of ``element``'s ancestors: what its tail is inside."""
        parent = element.getparent()
        return self.of(parent) if parent is not None else 0


# Worth a closer look: a character escaped anywhere, a newline, or a first character
# that may start a line. Most text has none, and is left at one regex search.
_CANDIDATE = re.compile(r"[`~<&\]\\_*\[]|\n\s*\S|^\s*[#>+*=|\d:-]")
# Of those, the texts escaping may change wherever they stand: a character escaped
# anywhere (or in a link), a blank line, a mark where a line starts. The others (most
# are wrapped paragraphs: a newline, then words) change only in a code span, a heading
# or a cell, where a newline becomes a space.
_ESCAPED_ANYWHERE = re.compile(r"[`~<&\]\\_*\[]")
_MARKED_LINE = re.compile(r"\n(?:\s*[#>+*=_\[|\d:-]|[ \t\r\f]*\n)")  # or a blank line
_MARKED_FIRST_LINE = re.compile(r"\s*[#>+*=_\[|\d:-]")
_ONE_LINE = _IN_CODE | _INLINE_ONLY


def _may_change(text: str) -> bool:
    """False when escaping leaves ``text`` as it is, wherever it stands outside code
    spans, headings and cells (tests/test_escape_skip.py holds the two together)."""
    return bool(_ESCAPED_ANYWHERE.search(text) or _MARKED_FIRST_LINE.match(text)
                or ("\n" in text and _MARKED_LINE.search(text)))


def _escaped(text: str, *, around: int, starts: bool, escaper: _Escaper) -> str:
    """``text`` escaped for where it stands: ``around`` are the flags of the elements it
    is inside (see :class:`_Around`); ``starts`` says whether it starts a line."""
    if around & _IN_CODE:
        # A code span cannot go on after a newline: it is a space there, as in HTML.
        return _NEWLINES.sub(" ", text) if "\n" in text else text
    if around & _INLINE_ONLY:  # a heading or a cell: one line, inline only
        text = escaper.anywhere(_NEWLINES.sub(" ", text) if "\n" in text else text)
    else:
        # A blank line would end the paragraph: in HTML it is only a space.
        first, *rest = _BLANK_LINES.sub("", text).split("\n")
        lines = [escaper.line_start(first) if starts and first.strip()
                 else escaper.anywhere(first)]
        lines.extend(escaper.line_start(line) if line.strip() else line for line in rest)
        text = "\n".join(lines)
    return escaper.brackets(text) if around & _IN_LINK else text



def _prepare_code(root: Element) -> None:
    # Asked once for the page, not for each of its (dozens of) code spans.
    linked = {code for link in root.iter("a") for code in link.iter(*_CODE_LIKE)}
    breaks = next(root.iter("br"), None) is not None
    for code in list(root.iter(*_CODE_LIKE)):
        if code in linked and _ENDS_A_LABEL(all_text(code)):
            # A code span binds tighter than a link's brackets (``[`A[x]`](u)`` is a link
            # to code), but a line that starts ``[`x]:`` is a reference definition: such
            # code is kept as escaped text.
            drop_tag(code)
            continue
        for line_break in list(code.iter("br")) if breaks else ():  # a code span cannot
            unwrap(line_break, " ")  # hold one
        for inner in code.iter():  # nor a newline (Sphinx wraps long literals in <span>s)
            if inner.text and "\n" in inner.text:
                inner.text = _NEWLINES.sub(" ", inner.text)
            if inner is not code and inner.tail and "\n" in inner.tail:
                inner.tail = _NEWLINES.sub(" ", inner.tail)


def escape_text(root: Element, placeholders: Placeholders) -> None:
    """Escape, in place, the text under ``root`` that Markdown would read as syntax."""
    _prepare_code(root)
    escaper = _Escaper(placeholders)
    candidate = _CANDIDATE.search
    around = _Around()
    may_change = _may_change
    for element in root.iter():
        text, tail = element.text, element.tail
        if text and candidate(text) and isinstance(element.tag, str) and (
                may_change(text) or ("\n" in text and around.of(element) & _ONE_LINE)):
            element.text = _escaped(text, around=around.of(element),
                                    starts=_starts_line(element), escaper=escaper)
        if tail and candidate(tail) and element is not root and (
                may_change(tail) or ("\n" in tail and around.above(element) & _ONE_LINE)):
            element.tail = _escaped(tail, around=around.above(element),
                                    starts=_tail_starts_line(element), escaper=escaper)
    for image in root.iter("img"):
        alt = image.get("alt") or ""
        if _BRACKETS.search(alt):
            image.set("alt", escaper.brackets(alt))


_BLOCK_START = re.compile(r"\s*(?:[#>+*=_|<-]|\d{1,9}[.)]|`{3}|~{3})")


def guard_lines(text: str) -> str:
    """Text that must stay verbatim (TeX) with every line after the first that could
    start a Markdown block indented by four spaces: a paragraph's continuation line
    that far in is text, whatever it starts with, and TeX ignores the spaces."""
    if "\n" not in text:
        return text
    first, *rest = text.split("\n")
    return "\n".join([first, *("    " + line if _BLOCK_START.match(line) else line
                                for line in rest)])
