"""Characters no output may hold, taken out of markup before it is parsed.

No view, index or llms file holds C0 controls (but tab and newlines), C1 controls,
noncharacters (U+FDD0-U+FDEF, U+FFFE and U+FFFF of every plane) or lone surrogates;
lxml refuses most of them as element text, so a page that holds one must not reach
the tree either, whether written as the character or as a numeric reference (``&#1;``).
"""

from __future__ import annotations

import re

__all__ = ["clean_markup", "clean_text", "has_unsafe_characters"]

_NONCHARACTERS = "\ufdd0-\ufdef" + "".join(
    chr(plane * 0x10000 + 0xFFFE) + chr(plane * 0x10000 + 0xFFFF) for plane in range(17))
_UNSAFE_CHARACTERS = re.compile(
    f"[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{_NONCHARACTERS}]")
_REFERENCE = re.compile(r"&#(?:[xX]0*([0-9a-fA-F]{1,8})|0*([0-9]{1,10}))(;?)")
_REPLACED = "\ud800-\udfff" + _NONCHARACTERS  # these become U+FFFD; controls go


def _allowed(code: int) -> bool:
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return False
    return not _UNSAFE_CHARACTERS.match(chr(code))


def _reference(match: re.Match[str]) -> str:
    hexadecimal, decimal, _ = match.groups()
    code = int(hexadecimal, 16) if hexadecimal else int(decimal)
    if _allowed(code):
        return match.group()
    if 0x80 <= code <= 0x9F:  # HTML reads these as windows-1252, as parsers do
        mapped = bytes([code]).decode("cp1252", errors="ignore")
        return mapped if mapped and _allowed(ord(mapped)) else ""
    return "\ufffd" if code > 0x9F else ""


def _character(match: re.Match[str]) -> str:
    return "\ufffd" if re.match(f"[{_REPLACED}]", match.group()) else ""


def has_unsafe_characters(text: str) -> bool:
    """True when :func:`clean_markup` would change the markup ``text``."""
    if _UNSAFE_CHARACTERS.search(text):
        return True
    return "&#" in text and any(not _allowed(_code(m)) for m in _REFERENCE.finditer(text))


def _code(match: re.Match[str]) -> int:
    hexadecimal, decimal, _ = match.groups()
    return int(hexadecimal, 16) if hexadecimal else int(decimal)


def clean_text(text: str) -> str:
    """Plain ``text`` without the characters no output may hold: controls are taken
    out, surrogates and noncharacters become U+FFFD."""
    if _UNSAFE_CHARACTERS.search(text):
        return _UNSAFE_CHARACTERS.sub(_character, text)
    return text


def clean_markup(markup: str) -> str:
    """:func:`clean_text` for markup: numeric references to those characters too."""
    markup = clean_text(markup)
    if "&#" in markup:
        markup = _REFERENCE.sub(_reference, markup)
    return markup
