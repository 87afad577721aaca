"""Code blocks' token spans taken out before parsing: only where nothing but the tags
changes, and the conversion is the same with or without it."""

from __future__ import annotations

from html import escape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentprose_core.convert.flatcode import flat_code_tokens
from agentprose_core.convert.fragment import convert_element, convert_fragment
from agentprose_core.convert.tree import parse_fragment
from agentprose_core.settings import Settings

PAGE = "https://docs.example.org/proj/page/"
PYGMENTS = ('<div class="highlight"><pre><span></span><span class="kn">import</span>'
            '<span class="w"> </span><span class="nn">os</span>\n'
            '<span class="n">x</span> <span class="o">=</span> '
            '<span class="s2">&quot;a &lt; b&quot;</span>\n</pre></div>')


def test_a_pygments_block_keeps_its_text_without_the_spans() -> None:
    assert flat_code_tokens(PYGMENTS) == ('<div class="highlight"><pre>import os\n'
                                          'x = &quot;a &lt; b&quot;\n</pre></div>')
    # A subtype's long class names, as Pygments writes YAML's.
    yaml = '<pre><span class="l l-Scalar l-Scalar-Plain">a</span><span class="p p-Indicator">:'
    assert flat_code_tokens(yaml + "</span></pre>") == "<pre>a:</pre>"
    # Other tags stay: the <code>, a line's anchor, a line break.
    code = '<pre><code><a id="l1"></a><span class="k">def</span><br>f</code></pre>'
    assert flat_code_tokens(code) == '<pre><code><a id="l1"></a>def<br>f</code></pre>'
    # A short class that is no token's: the block's other spans still go.
    mixed = '<pre><span class="zz">a</span><span class="k">b</span></pre>'
    assert flat_code_tokens(mixed) == '<pre><span class="zz">a</span>b</pre>'


def test_other_spans_stay_around_the_tokens_text() -> None:
    # A highlighted line, a line's id (pymdownx), a line number: parsed as before.
    for wrapper in ('<span class="hll">', '<span id="__span-0-1">', '<span class="linenos">'):
        assert flat_code_tokens(f'<pre>{wrapper}<span class="k">x</span> y\n</span></pre>') \
            == f"<pre>{wrapper}x y\n</span></pre>"


@pytest.mark.parametrize("block", [
    '<pre><span class="k">x</span><!-- <span> --></pre>',  # a comment
    '<pre>x <b c<span class="k">a</span>></pre>',  # a tag that holds a "<"
    '<pre><span class="k">a</span> < b<br></pre>',  # a bare "<" (Pygments writes &lt;)
    '<pre><a title=\'x\'><span class="k">a</span></a></pre>',  # a single-quoted attribute
    '<pre><a title="<span class=\'k\'>"><span class="k">a</span></a></pre>',  # in an attribute
    '<pre><span class="zz">a</span></pre>',  # not a token type of Pygments
    '<pre><span class="hll">a\n</span></pre>',  # a highlighted line without tokens
    '<pre><span class="k"><b>a</b></span></pre>',  # a token's span holds text only
    '<script>var s = \'<pre><span class="k">a</span></pre>\';</script>',  # a script's text
    '<textarea><pre><span class="k">a</span></pre></textarea>',
    '<prefix><span class="k">a</span></pre>',  # not a <pre>
    # Where the block ends is not sure: its <pre> closed as </PRE>.
    '<pre>a</PRE><p><span class="k">b</span></p><pre>c</pre>',
    # A line break right after <pre> is not shown, one after a span is: kept after it.
    '<pre><span class="k">\n</span>a</pre>',
    '<pre><span></span>\n<span class="k">a</span></pre>',
    '<pre><a id="l1"></a><span class="k">\na</span></pre>',
])
def test_a_block_that_holds_anything_else_is_left_as_it_is(block: str) -> None:
    assert flat_code_tokens(f"<p>Before.</p>{block}<p>After.</p>") == \
        f"<p>Before.</p>{block}<p>After.</p>"


def test_a_block_after_a_closed_script_is_taken_and_one_inside_is_not() -> None:
    inside = '<script>"<pre><span class="k">a</span></pre>"</script>'
    html = f'{inside}<pre><span class="k">b</span></pre>'
    assert flat_code_tokens(html) == f"{inside}<pre>b</pre>"
    assert flat_code_tokens("<SCRIPT>" + html[8:]) == "<SCRIPT>" + html[8:].replace(
        '<pre><span class="k">b</span></pre>', "<pre>b</pre>")


def _span(text: str) -> str:
    return f'<span class="{text}">'


tokens = st.sampled_from(["k", "n", "o", "p", "s2", "c1", "w", "gp", "go", "l l-Scalar"])
others = st.sampled_from(['<span class="hll">', '<span id="l-3">', '<span class="linenos">',
                          '<span class="prompt">', "<span>"])
code_words = st.text(alphabet="ab <>&\"'\n\t#*_`[]x", min_size=0, max_size=6).map(escape)
pieces = st.recursive(
    code_words,
    lambda inner: st.one_of(
        st.tuples(tokens, inner).map(lambda t: f"{_span(t[0])}{t[1]}</span>"),
        st.tuples(others, inner).map(lambda t: f"{t[0]}{t[1]}</span>"),
        st.lists(inner, min_size=1, max_size=4).map("".join),
        inner.map(lambda t: f'<a id="x{len(t)}"></a>{t}'),
        inner.map(lambda t: f"{t}<br>"),
        st.just("<!-- c -->"),
        st.just(" a < b "),
        st.just("<span></span>"),
        st.just("it's"),
        st.just("\n"),
        inner.map(lambda t: f"<a title='{t[:3]}'>{t}</a>"),
        inner.map(lambda t: f'<span class="zz">{t}</span>'),
    ),
    max_leaves=12,
)
blocks = st.tuples(st.sampled_from(["", ' class="python"', "\n"]), pieces).map(
    lambda t: f"<pre{t[0]}><code>{t[1]}</code></pre>" if t[0] != "\n" else f"<pre>{t[1]}</pre>")
documents = st.lists(st.one_of(blocks, st.just("<p>Text.</p>"),
                               st.just('<script>var a = "<pre>";</script>')),
                     min_size=1, max_size=5).map("\n".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=documents)
def test_the_conversion_is_the_same_with_the_spans_taken_out_first(document: str) -> None:
    options = Settings()
    direct = convert_element(parse_fragment(document), page_url=PAGE, site_map={},
                             settings=options)
    assert convert_fragment(document, page_url=PAGE, site_map={}, settings=options) == direct
