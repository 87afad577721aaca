"""The index's JSON encoder writes the standard library's indented text, byte for byte."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentprose_core.render.jsontext import dumps_indented

# Every code point but lone surrogates (which no page text has), U+2028 and controls in.
texts = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=20)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), texts)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(texts, inner, max_size=4),
    ),
    max_leaves=25,
)


@given(values)
def test_the_text_is_json_dumps_with_indent_2(value: object) -> None:
    assert dumps_indented(value) == json.dumps(value, ensure_ascii=False, indent=2)


@given(values, st.integers(min_value=0, max_value=4))
def test_a_nested_value_is_indented_as_inside_its_containers(value: object, level: int) -> None:
    # Each newline of indented JSON is a line break between items: strings escape theirs.
    expected = json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + "  " * level)
    assert dumps_indented(value, level) == expected


def test_tuples_are_arrays_and_insertion_order_is_kept() -> None:
    value = {"z": (1, "two"), "a": [], "m": {}}
    assert dumps_indented(value) == json.dumps(value, indent=2)


@pytest.mark.parametrize("value", [1.5, {1: "x"}, {"x": object()}, b"bytes"])
def test_what_json_has_no_fixed_text_for_here_is_refused(value: object) -> None:
    with pytest.raises(TypeError):
        dumps_indented(value)
