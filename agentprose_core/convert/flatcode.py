"""Code blocks' syntax-highlighting spans taken out as text, before the page is parsed.

Pygments wraps every token of a code block in ``<span class="k">``, ``<span
class="n">``…: on real documentation pages they are more than half of all elements (a
third of a PEP's). The conversion never reads them: a block becomes its text and its
language, both found without them. Yet parsing them, and walking past them in every
pass that looks for something inside the content, was a sixth of a page's conversion.

:func:`flat_code_tokens` removes those tags from the HTML text of each ``<pre>`` where
it can tell that doing so changes nothing but the tags: every ``<span`` of the block is
an empty ``<span></span>`` or a token's (``class`` the only attribute, its value a
token type of Pygments, :data:`TOKEN_CLASSES`), each ``<`` in the block starts a tag,
and the block is not inside a raw-text element (``<script>``, ``<textarea>``…). A
block with anything else (a highlighted line's ``hll``, a line's ``id``, a line number,
a comment, a bare ``<``) is left as it is: its spans are then parsed, as before.
"""

from __future__ import annotations

import bisect
import re
import sys

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

_TOKEN_OPEN = re.compile(r'<span class="([a-z0-9]{1,3}(?: [a-z0-9]{1,3}(?:-[A-Za-z0-9]+)+)*)">')
_OTHER_TAG = re.compile(r"</?(?!span[\s>/])[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")
_RAW_TEXT = ("<script", "<textarea", "<xmp", "<plaintext", "<noscript", "<style", "<title",
             "<iframe", "<noembed", "<noframes")
_EMPTY_SPAN = "<span></span>"
_CLOSE = "</span>"
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
    if "<span" not in block:
        return None
    given, block = block, block.replace(_EMPTY_SPAN, "")
    names = _TOKEN_OPEN.findall(block)
    closes = block.count(_CLOSE)
    if len(names) != block.count("<span") or closes != len(names):
        return None  # another span too: which </span> closes a token is not known here
    if block.count("<") != len(names) + closes + len(_OTHER_TAG.findall(block)):
        return None  # a "<" that starts no tag (a comment, text, a tag in an attribute)
    if not all(_is_token(name) for name in set(names)):
        return None
    flat = _TOKEN_OPEN.sub("", block).replace(_CLOSE, "")
    if _first_text(flat) in _LINE_BREAKS and given[:1] not in _LINE_BREAKS:
        return None  # a line break right after <pre> is dropped, one inside a span is not
    return flat


def _first_text(html: str) -> str:
    """The first character of ``html`` outside its tags ("" if none)."""
    at = 0
    while html.startswith("<", at):
        at = html.find(">", at) + 1
        if not at:
            return ""
    return html[at:at + 1]


def _is_token(names: str) -> bool:
    first, *subtypes = names.split(" ")
    return first in TOKEN_CLASSES and all(
        name.split("-", 1)[0] in TOKEN_CLASSES for name in subtypes)


def _raw_text_spans(html: str) -> list[tuple[int, int]]:
    """Where the elements whose content is text, not markup, start and end (a ``<pre>``
    written inside a script is the script's text), in order."""
    lowered = html.lower() if any(tag.upper() in html for tag in _RAW_TEXT) else html
    starts = sorted((at, tag) for tag in _RAW_TEXT if tag in lowered
                    for at in _all(lowered, tag))
    spans: list[tuple[int, int]] = []
    for at, tag in starts:
        if spans and at < spans[-1][1]:
            continue  # written inside the one before
        end = lowered.find("</" + tag[1:], at)
        spans.append((at, len(html) if end < 0 else end))
    return spans


def _all(text: str, needle: str) -> list[int]:
    found, at = [], text.find(needle)
    while at >= 0:
        found.append(at)
        at = text.find(needle, at + 1)
    return found


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    """True when ``at`` is inside one of ``spans``."""
    before = bisect.bisect_right(spans, (at, sys.maxsize)) - 1 if spans else -1
    return before >= 0 and spans[before][1] > at
