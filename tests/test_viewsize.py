"""A view's size in characters and estimated tokens (agentprose_core.viewsize): the
documented rule, exactly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentprose_core.viewsize import ViewSize, view_size


@pytest.mark.parametrize(("text", "size"), [
    ("", ViewSize(0, 0)),
    ("abcd", ViewSize(4, 1)),
    ("abcde", ViewSize(5, 2)),  # rounded up
    ("# Tide pools\n", ViewSize(13, 4)),
    ("潮だまり", ViewSize(4, 4)),  # Han and kana: a token each
    ("조수 웅덩이", ViewSize(6, 6)),  # Hangul, and an ASCII space: 5 + 1/4
    ("Привет", ViewSize(6, 3)),  # Cyrillic: half a token each
    ("café", ViewSize(4, 2)),  # 3/4 + 1/2
    ("ＡＢ", ViewSize(2, 2)),  # full-width forms
    ("😀", ViewSize(1, 1)),  # one code point, half a token, rounded up
])
def test_the_documented_rule(text: str, size: ViewSize) -> None:
    assert view_size(text) == size


@given(st.text(), st.text())
def test_more_text_is_never_fewer_tokens(first: str, more: str) -> None:
    before, after = view_size(first), view_size(first + more)
    assert after.characters == len(first) + len(more)
    assert before.tokens <= after.tokens <= before.tokens + len(more) + 1
