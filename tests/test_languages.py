"""Code blocks keep their language wherever it is knowable."""

from __future__ import annotations

import pytest

from agentprose_core.convert.fences import fences_of
from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.convert.languages import clean_language, language_of_file
from agentprose_core.settings import Settings

PAGE = "https://docs.example.org/p/"


def _markdown(fragment: str, source: str = "") -> str:
    return convert_fragment(fragment, page_url=PAGE, site_map={}, settings=Settings(),
                            source_fences=fences_of(source)).markdown


def test_sphinx_highlight_default_is_python() -> None:
    html = ('<div class="highlight-default notranslate"><div class="highlight"><pre>'
            "x = 1</pre></div></div>")
    assert _markdown(html) == "```python\nx = 1\n```\n"


@pytest.mark.parametrize(("html", "language"), [
    (('<div class="highlight"><span class="filename">app.py</span><pre><code>x = 1</code>'
     "</pre></div>"), "python"),
    (('<div class="literal-block-wrapper"><div class="code-block-caption">'
     '<span class="caption-text">conf/site.yml</span></div><div class="highlight">'
     "<pre>a: 1</pre></div></div>"), "yaml"),
    (('<details class="quote"><summary>Source code in <code>src/pools.py</code></summary>'
     '<div class="highlight"><table class="highlighttable"><tr><td class="linenos"><pre>1'
     '</pre></td><td class="code"><pre>def f(): pass</pre></td></tr></table></div>'
     "</details>"), "python"),
])
def test_the_file_a_block_shows_names_its_language(html: str, language: str) -> None:
    assert f"```{language}\n" in _markdown(html)


def test_a_caption_names_only_its_own_block() -> None:
    html = ('<div><div class="highlight"><span class="filename">a.py</span><pre>x</pre>'
            '</div><div class="highlight"><pre>plain</pre></div></div>')
    assert _markdown(html).endswith("```\nplain\n```\n")


def test_an_included_fence_takes_its_language_by_place() -> None:
    source = ('```python\n--8<-- "docs_src/app.py"\n```\n\n'
              "```bash\n{! ../docs_src/run.sh !}\n```\n")
    html = "<pre><code>import app</code></pre><pre><code>uvicorn app:app</code></pre>"
    assert _markdown(html, source) == ("```python\nimport app\n```\n\n"
                                       "```bash\nuvicorn app:app\n```\n")


def test_a_fence_carries_a_language_or_nothing() -> None:
    source = '```title="notes.txt"\nplain\n```\n\n```title="run.py"\nprint()\n```\n'
    assert [fence.language for fence in fences_of(source)] == [None, "python"]
    html = '<pre><code class="language-{.python .numberLines}">x</code></pre>'
    assert _markdown(html) == "```\nx\n```\n"


@pytest.mark.parametrize(("name", "expected"), [
    ("py", "python"), ("Python3", "python"), ("text", None), ('title="x"', None),
    ("c++", "c++"), ("yml", "yaml"), ("", None),
])
def test_clean_language(name: str, expected: str | None) -> None:
    assert clean_language(name) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Source code in src/shore/pools.py", "python"), ("Dockerfile", "dockerfile"),
    ("notes", None), ("v1.2", None), ("docker-compose.yaml", "yaml"),
])
def test_language_of_file(text: str, expected: str | None) -> None:
    assert language_of_file(text) == expected


def test_code_in_a_table_kept_as_html_keeps_its_language() -> None:
    html = ('<table><tr><th colspan="2">Example</th></tr><tr><td><div class="highlight-python">'
            '<div class="highlight"><pre>x = 1</pre></div></div></td><td>text</td></tr></table>')
    assert '<pre><code class="language-python">x = 1</code></pre>' in _markdown(html)


def test_output_is_a_language_its_author_named() -> None:
    assert _markdown('<pre><code class="language-output">ok</code></pre>') == "```output\nok\n```\n"
