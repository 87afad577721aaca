"""The view renders back to the page: text that reads as Markdown syntax is escaped.

Each view body, rendered by a CommonMark renderer (markdown-it-py with tables), must
give the block structure of the normalized content HTML: on every golden file, on
minimal cases of each failure class seen on real sites, and on generated HTML.
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentprose_core.check.structure import markdown_structure, roundtrip_mismatches
from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.settings import ENGINES, Settings

from .test_golden import CASES, SITE_MAP, _page_url

if TYPE_CHECKING:
    from pathlib import Path

PAGE = "https://docs.example.org/proj/page/"


def _markdown(fragment: str, engine: str, page: str = PAGE) -> str:
    settings_ = Settings(converter=engine)  # type: ignore[arg-type]
    return convert_fragment(fragment, page_url=page, site_map=SITE_MAP,
                            settings=settings_).markdown


def _mismatches(fragment: str, engine: str, page: str = PAGE) -> list[str]:
    markdown = _markdown(fragment, engine, page)
    return roundtrip_mismatches(fragment, markdown, page_url=page, site_map=SITE_MAP)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_golden_file_renders_back(engine: str, case: Path) -> None:
    assert _mismatches(case.read_text(encoding="utf-8"), engine, _page_url(case)) == []


# Each class of text that Markdown reads as syntax, as real pages held it.
SYNTAX_IN_TEXT = {
    "stray fence in a soft-wrapped paragraph": "<p>Type\n``` to open\na fence.</p><p>After.</p>",
    "tilde fence": "<p>Then\n~~~ and more</p><p>After.</p>",
    "heading after a newline": "<p>Issue\n# 42 is fixed</p>",
    "quote after a newline": "<p>a\n> b</p>",
    "bullets after a newline": "<p>a\n- b\n+ c\n* d</p>",
    "numbers after a newline": "<p>Version\n1. two\n3) four</p>",
    "setext underlines": "<p>Title<br>===</p><p>Other<br>---</p>",
    "thematic break": "<p>***</p><p>___</p>",
    "tag-looking text": "<p>&lt;b&gt;bold&lt;/b&gt; and &lt;!-- not a comment --&gt;</p>",
    "html block start": "<p>&lt;div&gt;</p><p>text</p>",
    "entity names": "<p>&amp;copy; &amp;#169; stay as written</p>",
    "link syntax": "<p>[not](a link) and ![not](an image)</p>",
    "reference definition": "<p>[x]: https://example.com</p>",
    "paragraph start": "<p>1. not a list</p><p>- not a bullet</p><p># not a heading</p>",
    "inside a list item": "<ul><li>1. first\n# second</li></ul>",
    "backslashes": "<p>C:\\path\\*x and \\`</p>",
    "brackets in link text": '<p><a href="../other/">a]b[c</a></p>',
    "code span over a newline": "<p>see <code>x\n# y</code> here</p>",
    "code span over a newline between its spans (Sphinx literals in a list item)":
        '<ul><li><p>Fix <code class="literal"><span class="pre">a</span> <span class="pre">b'
        '</span>\n<span class="pre">c</span></code> d.</p><p>Then.</p></li></ul><p>After.</p>',
    "adjacent lists": "<ul><li>a</li></ul><ul><li>b</li></ul><ol><li>c</li></ol><ol><li>d</li></ol>"
                      "<blockquote><p>e</p></blockquote><blockquote><p>f</p></blockquote>",
    "nested links": '<p><a href="../other/">a <a href="#x">b</a></a></p>',
    "lists in wrappers of their own": '<div class="toctree-wrapper"><ul><li>a</li></ul></div>'
                                      '<div class="toctree-wrapper"><ul><li>b</li></ul></div>',
    "two admonitions in an admonition": '<div class="admonition note"><p>O</p>'
                                        '<div class="admonition note"><p>A</p></div>'
                                        '<div class="admonition tip"><p>B</p></div></div>',
    "code inside emphasis": "<ul><li>a <em><pre>x\ny</pre></em> b</li></ul>"
                            "<p>c<b><pre>z</pre></b></p>",
    "code inside a heading": "<h2>Title <span><pre>x = 1</pre></span></h2><p>after</p>",
    "a list inside inline markup": "<p><var><ol><li>one</li></ol></var></p>",
    "a definition inside emphasis": "<em><dt><pre>x</pre></dt></em>",
    "display math with a list-like line": '<div class="arithmatex">\\[\na\n- b\n1. c\n\\]</div>',
    "MathML without TeX": "<p>Then <math><mi>x</mi><mo>*</mo><mi>y</mi></math> and more.</p>",
    "a frame's text": "<p>x</p><iframe>```</iframe><p>y</p>",
    "inline code with backticks": "<p><code>a`b</code> and <code>``</code></p>",
    "a list then a paragraph in a quote (mkdocstrings' summaries in a tab)":
        '<div class="admonition preview"><p class="admonition-title">Preview</p><div>'
        "<h2>MyClass</h2><p>Doc.</p><ul><li>a</li></ul><p>Attributes:</p><ol><li>b</li></ol>"
        "</div></div><p>After.</p>",
    "a footnote of one link (a link reference definition to plain CommonMark)":
        '<h3>Target footnotes</h3><aside class="footnote-list brackets"><aside class="footnote '
        'brackets" id="id37" role="doc-footnote"><span class="label">5</span><p>'
        '<a class="reference external" href="http://www.python.org/">http://www.python.org/'
        "</a></p></aside></aside><h3>Next</h3>",
    "a footnote definition shown as code":
        '<pre><code class="language-markdown">[^1]: Lorem ipsum\n</code></pre><p>x</p>',
    "an empty heading": '<h3 style="margin: 0;">\n  </h3><p><small>special</small></p>',
    "a pipe table's caption": '<table id="id1"><caption><span class="caption-text">Frozen '
                              "<em>treats</em></span></caption><thead><tr><th>a</th></tr>"
                              "</thead><tbody><tr><td>b</td></tr></tbody></table>",
    "a line that reads as a table's delimiter row": "<p>|<br>:-</p><p>a<br>:--:|--</p>",
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(SYNTAX_IN_TEXT))
def test_text_that_reads_as_syntax_is_escaped(engine: str, name: str) -> None:
    assert _mismatches(SYNTAX_IN_TEXT[name], engine) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_a_stray_fence_does_not_flip_code_and_prose(engine: str) -> None:
    fragment = ("<p>Write\n``` before</p>"
                '<pre><code class="language-python">x = 1</code></pre><p>Prose after.</p>')
    marks = markdown_structure(_markdown(fragment, engine))
    assert marks == ["p", "code:x = 1", "p"]


@pytest.mark.parametrize("engine", ENGINES)
def test_escaped_text_reads_as_written(engine: str) -> None:
    from markdown_it import MarkdownIt

    fragment = "<p>&lt;b&gt;x&lt;/b&gt; `y` &amp;copy; [a](b) 1. z</p>"
    html = MarkdownIt("commonmark").render(_markdown(fragment, engine))
    assert html == "<p>&lt;b&gt;x&lt;/b&gt; `y` &amp;copy; [a](b) 1. z</p>\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_task_lists_stay_task_lists(engine: str) -> None:
    fragment = ('<ul><li><input type="checkbox" checked> done</li>'
                '<li><input type="checkbox"> open</li></ul>')
    assert _markdown(fragment, engine) == "- [x] done\n- [ ] open\n"


# Text built from the characters that Markdown reads as syntax, with newlines.
risky_text = st.text(
    alphabet=st.sampled_from(list("`~#>-+*=_[]()!<>&;/\\|:.)1 \naAb")), min_size=1, max_size=24,
).filter(lambda text: text.strip() != "")
inline = st.recursive(
    risky_text.map(escape),
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["em", "strong", "code", "span", "kbd"]), inner).map(
            lambda t: f"<{t[0]}>{t[1]}</{t[0]}>"),
        inner.map(lambda text: f'<a href="../other/#x">{text}</a>'),
        st.lists(inner, min_size=1, max_size=3).map("<br>".join),
    ),
    max_leaves=5,
)
block = st.one_of(
    inline.map(lambda text: f"<p>{text}</p>"),
    st.tuples(st.integers(1, 6), inline).map(lambda t: f"<h{t[0]}>{t[1]}</h{t[0]}>"),
    st.lists(inline, min_size=1, max_size=3).map(
        lambda items: "<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"),
    st.lists(inline, min_size=1, max_size=3).map(
        lambda items: "<ol>" + "".join(f"<li>{i}</li>" for i in items) + "</ol>"),
    inline.map(lambda text: f"<blockquote><p>{text}</p></blockquote>"),
    risky_text.map(lambda code: f'<pre><code class="language-python">{escape(code)}</code></pre>'),
)
documents = st.lists(block, min_size=1, max_size=6).map("".join)


@pytest.mark.parametrize("engine", ENGINES)
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=documents)
def test_generated_pages_render_back(engine: str, document: str) -> None:
    assert _mismatches(document, engine) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_a_cell_of_paragraphs_makes_a_pipe_table(engine: str) -> None:
    fragment = ("<table><thead><tr><th>Name</th><th>Description</th></tr></thead><tbody><tr>"
                '<td><code>x</code></td><td><div class="doc-md-description"><p>One.</p>'
                "<p>Two <code>y</code>.</p></div></td></tr></tbody></table>")
    markdown = _markdown(fragment, engine)
    assert markdown.startswith("| Name")
    assert "One.<br><br>Two `y`." in markdown
    assert _mismatches(fragment, engine) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_an_html_table_keeps_code_lines_and_drops_unknown_tags(engine: str) -> None:
    fragment = ('<table><tr><th>A</th><th>B</th></tr><tr><td rowspan="2"><pre>a\n\nb</pre></td>'
                '<td><autoref identifier="pkg.X" optional>X</autoref></td></tr></table>')
    markdown = _markdown(fragment, engine)
    assert "<autoref" not in markdown
    assert "<td>X</td>" in markdown
    assert "\n\n" not in markdown.strip()  # a blank line would end the HTML block
    from lxml import html
    from markdown_it import MarkdownIt

    rendered = html.fromstring(MarkdownIt("commonmark").render(markdown))
    assert rendered.findtext(".//pre/code") == "a\n\nb"  # what a browser shows
    assert _mismatches(fragment, engine) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_an_html_table_holds_no_wrappers(engine: str) -> None:
    # sphinx_rtd_theme's hlist of figures; MyST's substitution of an admonition in a cell
    fragment = ('<table><tr><td><ul><li><figure class="align-default" id="id1">'
                '<img alt="a" src="a.jpg"><figcaption><p><span class="caption-text">Short.'
                '</span></p></figcaption></figure></li></ul></td><td rowspan="2"><p></p>'
                '<div class="admonition note"><p class="admonition-title">Note</p><p>I am.</p>'
                "</div></td></tr><tr><td>x</td></tr></table>")
    markdown = _markdown(fragment, engine)
    assert not re.search(r"<(figure|div|span|section)\b|<p></p>", markdown), markdown
    assert "<blockquote><p><strong>Note</strong></p><p>I am.</p>" in markdown
    assert _mismatches(fragment, engine) == []


def test_icon_only_links_say_what_they_are() -> None:
    fragment = ('<p>x <a href="../species/" title="Minimum version: 9.1"><span class="twemoji">'
                '<svg viewBox="0 0 1 1"><path d="M0"/></svg></span></a> '
                '<a href="/y" aria-label="Edit"><svg/></a> <a href="/z"><svg/></a> y</p>')
    markdown = _markdown(fragment, "html-to-markdown")
    assert "[Minimum version: 9.1](https://docs.example.org/proj/species.md)" in markdown
    assert "[Edit](https://docs.example.org/y)" in markdown
    assert "[]" not in markdown
    assert "/z" not in markdown


def test_sphinx_split_wrapper_leaves_display_math() -> None:
    fragment = ('<div class="math notranslate nohighlight">\\[\\begin{split}a &amp;= b\\\\\n'
                "c &amp;= d\\end{split}\\]</div>")
    assert _markdown(fragment, "html-to-markdown") == "\\[a &= b\\\\\nc &= d\\]\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_sidebar_is_content(engine: str) -> None:
    fragment = ('<aside class="sidebar"><p class="sidebar-title">Events</p><p>Come along.</p>'
                "<ul><li>Berlin</li></ul></aside><p>After.</p>")
    assert _markdown(fragment, engine) == "Events\n\nCome along.\n\n- Berlin\n\nAfter.\n"
    assert _mismatches(fragment, engine) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_a_table_in_a_quote_ends_before_the_next_paragraph(engine: str) -> None:
    fragment = ('<div class="admonition note"><p class="admonition-title">N</p><p>Parameters:</p>'
                "<table><thead><tr><th>Type</th></tr></thead><tbody><tr><td>str</td></tr></tbody>"
                "</table><p><strong>Returns:</strong></p><blockquote><table><tr><th>A</th></tr>"
                "<tr><td>x</td></tr></table><p>After.</p></blockquote></div>")
    assert _mismatches(fragment, engine) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_links_to_a_page_left_out_lose_their_link_and_its_entries_go(engine: str) -> None:
    from agentprose_core.urls import NO_VIEW, page_key

    site_map = {page_key("https://docs.example.org/proj/secret/"): NO_VIEW,
                page_key("https://docs.example.org/proj/rocks/"):
                    "https://docs.example.org/proj/rocks.md"}
    fragment = ('<p>See <a href="../secret/">the <em>hidden</em> page</a>.</p>'
                '<ul><li><p><a href="../secret/#a">Secret</a></p><ul><li>'
                '<a href="../secret/#b">B</a></li></ul></li><li><a href="../rocks/">Rocks</a>'
                '</li><li>About <a href="../secret/">Secret</a> here</li></ul>')
    markdown = convert_fragment(fragment, page_url=PAGE, site_map=site_map,
                                settings=Settings(converter=engine)).markdown  # type: ignore[arg-type]
    assert "secret" not in markdown.lower().replace("about secret here", "")
    assert "See the *hidden* page." in markdown
    assert "- [Rocks](https://docs.example.org/proj/rocks.md)" in markdown
    assert "- About Secret here" in markdown
