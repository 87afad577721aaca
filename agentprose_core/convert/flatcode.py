"""Code blocks' syntax-highlighting spans taken out as text, before the page is parsed.

Pygments wraps every token of a code block in ``<span class="k">``, ``<span
class="n">``…: on real documentation pages they are more than half of all elements (a
third of a PEP's). The conversion never reads them: a block becomes its text and its
language, both found without them. Yet parsing them, and walking past them in every
pass that looks for something inside the content, was a sixth of a page's conversion.

:func:`flat_code_tokens` removes those tags from the HTML text of each ``<pre>``,
keeping their text, where it can tell that doing so changes nothing but the tags: a
token's span is ``<span class="k">`` (``class`` its only attribute, its value a token
type of Pygments, :data:`TOKEN_CLASSES`) holding text and no tag, so taking it out
leaves the same text in the same place; no tag of the block holds a ``<`` and it has
no comment nor single-quoted attribute (where a span's text could be an attribute's
value or a comment's); the block is not inside a raw-text element
(``<script>``, ``<textarea>``…); and its text does not start with a line break that
only the span kept from being the one HTML drops after ``<pre>``. Other spans (a
highlighted line's ``hll``, a line's ``id``, a line number) stay, parsed as before.
"""

from __future__ import annotations

import bisect
import re
import sys
from functools import lru_cache
from operator import itemgetter

__all__ = ["TOKEN_CLASSES", "flat_code_tokens"]

TOKEN_CLASSES = frozenset({
    "w", "esc", "err", "x", "k", "kc", "kd", "kn", "kp", "kr", "kt", "n", "na", "nb",
    "bp", "nc", "no", "nd", "ni", "ne", "nf", "fm", "py", "nl", "nn", "nx", "nt", "nv",
    "vc", "vg", "vi", "vm", "l", "ld", "s", "sa", "sb", "sc", "dl", "sd", "s2", "se",
    "sh", "si", "sx", "sr", "s1", "ss", "m", "mb", "mf", "mh", "mi", "il", "mo", "o",
    "ow", "p", "pm", "c", "ch", "cm", "cpf", "c1", "cs", "cp", "g", "gd", "ge", "ges",
    "gr", "gh", "gi", "go", "gp", "gs", "gu", "gt"
})
"""The CSS classes Pygments gives its token types (``pygments.token.STANDARD_TYPES``).
A subtype adds a long name after the short one: ``<span class="l l-Scalar-Plain">``."""

_CLASS = r"[a-z0-9]{1,3}(?: [a-z0-9]{1,3}(?:-[A-Za-z0-9]+)+)*"  # a subtype: "l l-Scalar"
_NAMES = "|".join(sorted(TOKEN_CLASSES, key=lambda name: (-len(name), name)))
_SHORT_CLASS = re.compile(f'<span class="({_CLASS})">')
# A token's span holds its text only (Pygments nests no tag in it). When every short
# class of a block is a token's, any leaf span of that form is one (the faster pattern).
_SHORT_LEAF = re.compile(f'<span class="{_CLASS}">([^<]*)</span>')
_TEXT = itemgetter(1)  # a match's text: called from C, where a function would be Python
# Where a token's span could be an attribute's text: a tag that holds a "<" (a tag in an
# attribute's value, a bogus tag), or a "'" (a single-quoted value: a double-quoted one
# cannot hold a span's class="…"; Pygments writes ' in code as &#39;).
_LT_IN_TAG = re.compile(r"<[^<>]*+<")
_QUOTE_IN_TAG = re.compile(r"<[^<>']*+'")
_PRE_TAG = re.compile(r"</?pre(?![A-Za-z0-9])", re.IGNORECASE)
_COMMENTS = ("<!", "<?", "-->")  # and bogus comments: a span in them is their text
_RAW_OPEN = re.compile(r"<(?=[sStTxXpPnNiI])((?i:script|textarea|xmp|plaintext|noscript|style"
                       r"|title|iframe|noembed|noframes))(?![A-Za-z0-9])")
_EMPTY_SPAN = "<span></span>"
_LINE_BREAKS = ("\n", "\r")


def flat_code_tokens(html: str) -> str:
    """``html`` with the token spans of its code blocks taken out, their text kept
    (see the module's text); the same text when there are none to take."""
    start = html.find("<pre")
    if start < 0:
        return html
    raw = _raw_text_spans(html)
    parts: list[str] = []
    done = 0
    while start >= 0:
        opened = html.find(">", start)
        close = html.find("</pre>", opened) if opened >= 0 else -1
        if close < 0:
            break
        if html[start + 4] in "> \t\r\n" and not _inside(raw, start):
            flat = _flat(html[opened + 1:close])
            if flat is not None:
                parts += (html[done:opened + 1], flat)
                done = close
        start = html.find("<pre", opened)
    if not parts:
        return html
    parts.append(html[done:])
    return "".join(parts)


def _flat(block: str) -> str | None:
    """A code block's inner HTML without its token spans, or None when it holds
    anything that could make taking them out change more than the tags."""
    if "<span" not in block or any(mark in block for mark in _COMMENTS):
        return None
    if _LT_IN_TAG.search(block) or ("'" in block and _QUOTE_IN_TAG.search(block)):
        return None
    if _PRE_TAG.search(block):
        return None  # a <pre> in a <pre>, or one closed as </PRE>: where the block ends is unsure
    given, block = block, block.replace(_EMPTY_SPAN, "")
    names = set(_SHORT_CLASS.findall(block))
    leaves = _SHORT_LEAF if all(_is_token(name) for name in names) else _token_leaf()
    flat, taken = leaves.subn(_TEXT, block)
    if not taken and len(block) == len(given):
        return None  # nothing to take out
    if _first_text(flat) in _LINE_BREAKS and given[:1] not in _LINE_BREAKS:
        return None  # a line break right after <pre> is dropped, one inside a span is not
    return flat


@lru_cache(maxsize=1)  # compiled when first needed: 1 ms of every build's start
def _token_leaf() -> re.Pattern[str]:
    """A token's leaf span, by its class: for blocks with other short classes too."""
    return re.compile(
        f'<span class="(?:{_NAMES})(?: (?:{_NAMES})(?:-[A-Za-z0-9]+)+)*">([^<]*)</span>')


@lru_cache(maxsize=1024)  # a page's blocks repeat a few dozen values
def _is_token(names: str) -> bool:
    first, *subtypes = names.split(" ")
    return first in TOKEN_CLASSES and all(
        name.split("-", 1)[0] in TOKEN_CLASSES for name in subtypes)


def _first_text(html: str) -> str:
    """The first character of ``html`` outside its tags ("" if none)."""
    at = 0
    while html.startswith("<", at):
        at = html.find(">", at) + 1
        if not at:
            return ""
    return html[at:at + 1]


def _raw_text_spans(html: str) -> list[tuple[int, int]]:
    """Where the elements whose content is text, not markup, start and end (a ``<pre>``
    written inside a script is the script's text), in order. One pass over the page."""
    spans: list[tuple[int, int]] = []
    at = 0
    while (found := _RAW_OPEN.search(html, at)) is not None:
        closing = re.compile(f"</{found.group(1)}", re.IGNORECASE).search(html, found.end())
        end = len(html) if closing is None else closing.start()
        spans.append((found.start(), end))
        at = max(end, found.end())
    return spans


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    """True when ``at`` is inside one of ``spans``."""
    before = bisect.bisect_right(spans, (at, sys.maxsize)) - 1 if spans else -1
    return before >= 0 and spans[before][1] > at
