"""How much of a model's context a view takes, told before it is fetched.

An agent deciding whether to read a page whole, read one section, or split it wants its
size in the unit its context is counted in. We ship no tokenizer (no download at build
time, and every model counts differently), so the size is given twice: exactly, in
characters (Unicode code points of the view file), and as an estimate of tokens by a
documented rule that tracks what current byte-pair tokenizers count:

- an ASCII character (English prose, code, Markdown syntax) is a quarter of a token;
- a character of a CJK script (Han, kana, Hangul) is a token;
- any other character (accented Latin, Cyrillic, Greek, Arabic, …) is half a token;

the sum rounded up. It is an estimate for choosing how to read a page, not a count to
bill by.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

__all__ = ["ViewSize", "view_size"]


@cache
def _cjk() -> re.Pattern[str]:
    """Han (with extensions and compatibility ideographs), kana, Hangul, CJK punctuation
    and full-width forms: a token or more each in every current tokenizer. Compiled when
    a view first has a character outside ASCII (2 ms: so wide a class is compiled code
    point by code point)."""
    return re.compile(
        "[\u3000-\u30ff\u3100-\u312f\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
        "\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\U00020000-\U0003134f]"
    )


@dataclass(frozen=True)
class ViewSize:
    """A view's length in characters and its estimated tokens."""

    characters: int
    tokens: int


def view_size(text: str) -> ViewSize:
    """The size of the view ``text`` (see the module's rule)."""
    ascii_chars = len(text.encode("ascii", "ignore"))  # counted in C, not per character
    cjk = len(_cjk().findall(text)) if len(text) > ascii_chars else 0
    other = len(text) - ascii_chars - cjk
    return ViewSize(len(text), (ascii_chars + 2 * other + 4 * cjk + 3) // 4)
