"""What every build checks about its own outputs (issue 39): a defect of a new kind is
reported instead of published silently."""

from __future__ import annotations

import pytest

from agentprose_core.convert import fragment
from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.convert.placeholders import Placeholders, leftover, splice
from agentprose_core.settings import Settings

PAGE = "https://docs.example.org/guide/"


def test_tokens_inside_placeholder_texts_are_spliced() -> None:
    placeholders = Placeholders.avoiding("")
    anchor = placeholders.inline('<a id="x"></a>')
    table = placeholders.block(f"<table><tr><td>{anchor}x</td></tr></table>")
    assert splice(f"before\n\n{table}\n", placeholders) == \
        'before\n\n<table><tr><td><a id="x"></a>x</td></tr></table>\n'


def test_leftover_removes_and_counts_what_splice_could_not_place() -> None:
    placeholders = Placeholders.avoiding("")
    placeholders.inline("$x$")
    markdown, count = leftover(f"a {placeholders.prefix}X7X b {placeholders.separator}",
                               placeholders)
    assert (markdown, count) == ("a  b ", 1)
    assert leftover("clean", placeholders) == ("clean", 0)


@pytest.mark.parametrize("converter", ["html-to-markdown", "markdownify"])
def test_a_token_the_engine_moved_is_a_placeholder_leak(
    converter: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = fragment._engine

    def moving(name: str) -> tuple[fragment.Engine, tuple[fragment.Diagnostic, ...]]:
        engine, notes = real(name)
        return (lambda document: engine(document).replace("X0X", "X 0X")), notes

    monkeypatch.setattr(fragment, "_engine", moving)
    result = convert_fragment('<p>a <span class="math">\\(x\\)</span> b</p>',
                              page_url=PAGE, site_map={}, settings=Settings(
                                  converter=converter))
    codes = [note.code for note in result.diagnostics]
    assert codes == ["placeholder-leak"]
    assert result.diagnostics[0].location == PAGE
    assert "AgPr" not in result.markdown


def test_competing_llms_txt_plugins_are_named_with_what_to_do() -> None:
    from agentprose_core.output.conflicts import competing_plugins

    notes = competing_plugins(["search", "llmstxt", "agentprose"], Settings())
    assert [note.code for note in notes] == ["llms-txt-conflict"]
    assert "mkdocs-llmstxt" in notes[0].message and "Remove 'llmstxt'" in notes[0].message
    assert competing_plugins(["llmstxt"], Settings(llms_txt=False, llms_full_txt=False)) == []
