"""Characters no output may hold, taken out of markup before it is parsed.

No view, index or llms file holds C0 controls (but tab and newlines), C1 controls,
noncharacters (U+FDD0-U+FDEF, U+FFFE and U+FFFF of every plane) or lone surrogates;
lxml refuses most of them as element text, so a page that holds one must not reach
the tree either, whether written as the character or as a numeric reference (``&#1;``).
"""

from __future__ import annotations

import re

__all__ = ["clean_markup", "clean_text", "has_unsafe_characters"]

# Characters beyond the BMP are in the class so that one search finds their
# noncharacters (U+1FFFE, …); listing those 32 instead makes it ten times slower.
_UNSAFE_CHARACTERS = re.compile(
    "[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff"
    "\U00010000-\U0010ffff]")


def _noncharacter(code: int) -> bool:
    return code & 0xFFFE == 0xFFFE or 0xFDD0 <= code <= 0xFDEF


_REFERENCE = re.compile(r"&#(?:[xX]0*([0-9a-fA-F]{1,8})|0*([0-9]{1,10}))(;?)")


def _allowed(code: int) -> bool:
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF or _noncharacter(code):
        return False
    return code in (9, 10, 13) or 0x20 <= code < 0x7F or code > 0x9F


def _reference(match: re.Match[str]) -> str:
    hexadecimal, decimal, _ = match.groups()
    code = int(hexadecimal, 16) if hexadecimal else int(decimal)
    if code in (10, 13):  # the characters, for the line ends to be made one (see below)
        return chr(code)
    if _allowed(code):
        return match.group()
    if 0x80 <= code <= 0x9F:  # HTML reads these as windows-1252, as parsers do
        mapped = bytes([code]).decode("cp1252", errors="ignore")
        return mapped if mapped and _allowed(ord(mapped)) else ""
    return "\ufffd" if code > 0x9F else ""


def _character(match: re.Match[str]) -> str:
    """Surrogates and noncharacters become U+FFFD; controls go; the rest stays."""
    found = match.group()
    if found > "\uffff":
        return "\ufffd" if _noncharacter(ord(found)) else found
    return "\ufffd" if found >= "\ud800" else ""


def has_unsafe_characters(text: str) -> bool:
    """True when :func:`clean_markup` would change the markup ``text``."""
    if any(_character(match) != match.group() for match in _UNSAFE_CHARACTERS.finditer(text)):
        return True
    return "&#" in text and any(not _allowed(_code(m)) for m in _REFERENCE.finditer(text))


def _code(match: re.Match[str]) -> int:
    hexadecimal, decimal, _ = match.groups()
    return int(hexadecimal, 16) if hexadecimal else int(decimal)


# The UTF-8 bytes of the C0 controls no output holds (all but tab, LF and CR) and DEL,
# and every other byte (what a check deletes to find them).
_CONTROL_BYTES = bytes([*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_OTHER_BYTES = bytes(sorted(set(range(256)) - set(_CONTROL_BYTES)))
_C1_BYTES = re.compile(rb"\xc2[\x80-\x9f]")
# Lead bytes of U+FDC0-U+FDFF, and the last two bytes of U+xFFFE and U+xFFFF (also of
# a few characters that are allowed, which the regex then looks at).
_NONCHARACTER_BYTES = (b"\xef\xb7", b"\xbf\xbe", b"\xbf\xbf")


def _surely_clean(text: str) -> bool:
    """True when ``text`` holds none of the characters :func:`clean_text` changes,
    found on its UTF-8 bytes: two passes in C instead of the regex's character class
    test on every character (three times slower on a page). False when unsure."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return False
    if data.translate(None, _OTHER_BYTES):  # what is left are controls
        return False
    if b"\xc2" in data and _C1_BYTES.search(data):
        return False
    return not any(marks in data for marks in _NONCHARACTER_BYTES)


def clean_text(text: str) -> str:
    """Plain ``text`` without the characters no output may hold: controls are taken
    out, surrogates and noncharacters become U+FFFD."""
    if not _surely_clean(text) and _UNSAFE_CHARACTERS.search(text):
        text = _UNSAFE_CHARACTERS.sub(_character, text)
    return text


def clean_markup(markup: str) -> str:
    """:func:`clean_text` for markup: numeric references to those characters too. Line
    ends become LF, written (CRLF, CR) or as references (``&#13;``): a lone CR is no
    line end to a Markdown reader, which would join what follows it to the line before
    (``before&#13;# HEADING``), and no output holds one."""
    markup = clean_text(markup)
    if "&#" in markup:
        markup = _REFERENCE.sub(_reference, markup)
    if "\r" in markup:
        markup = markup.replace("\r\n", "\n").replace("\r", "\n")
    return markup
