"""The escaping's fast path: a text it skips is one that escaping would leave as it is.

``escape_text`` looks closer at a text only when ``_may_change`` says it could change
(or when it has a newline and stands where a newline becomes a space). The rules that
decide what changes live elsewhere (``_escaped`` and the escaper), so every rule added
there must be seen by ``_may_change`` as well: this test says when one is not.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agentprose_core.convert.placeholders import Placeholders
from agentprose_core.convert.rules import escape

# Words and spaces, the characters the rules look for, and the whitespace Python's
# str.strip and regular expressions see differently from HTML (no-break, ideographic).
pieces = st.sampled_from([
    "word", "x", "9", "12", " ", "  ", "\t", "\n", "\n   ", "\n\n", "\xa0", "\u3000", "\x0b",
    "#", ">", "+", "*", "-", "=", "_", "[", "]", "|", ":", ".", ")", "(", "`", "~", "<b>",
    "&amp;", "\\", "1. ", "- ", ":--", "a_b", "[x](y)",
])
texts = st.lists(pieces, min_size=1, max_size=14).map("".join)
flags = st.integers(min_value=0, max_value=7)  # in code, heading or cell, link: any mix


@given(text=texts, around=flags, starts=st.booleans())
def test_a_text_the_fast_path_skips_comes_out_as_it_was(
        text: str, around: int, starts: bool) -> None:
    if escape._may_change(text) or ("\n" in text and around & escape._ONE_LINE):
        return  # looked at closely: the other tests hold what it becomes
    escaped = escape._escaped(text, around=around, starts=starts,
                              escaper=escape._Escaper(Placeholders()))
    assert escaped == text


def test_the_fast_path_skips_a_wrapped_paragraph_and_not_a_list_marker() -> None:
    assert not escape._may_change("A sentence that goes on\nto the next line.")
    assert escape._may_change("A sentence that goes on\n- into a list marker.")
    assert escape._may_change("two paragraphs\n\nin one text")
