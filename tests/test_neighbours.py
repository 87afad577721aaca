"""Markup that neighbours write (other plugins, extensions, site translators), each in
its smallest form (issue 39): what it must become in the view."""

from __future__ import annotations

import pytest

from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.settings import Settings
from agentprose_core.urls import page_key

SITE = "https://docs.example.org/"
PAGE = SITE + "styles/background/"
SITE_MAP = {page_key(SITE + "css_types/color/"): SITE + "css_types/color.md",
            page_key(SITE + "guide/install.html"): SITE + "guide/install.md"}
ENGINES = pytest.mark.parametrize("converter", ["html-to-markdown", "markdownify"])


def convert(html: str, converter: str = "html-to-markdown", page: str = PAGE) -> str:
    result = convert_fragment(html, page_url=page, site_map=SITE_MAP,
                              settings=Settings(converter=converter))
    assert not result.diagnostics, result.diagnostics
    return result.markdown


@ENGINES
@pytest.mark.parametrize("href", ["../../css_types/color", "../../css_types/color/",
                                  "../../css_types/color#rgb"])
def test_a_link_to_a_page_without_its_trailing_slash_goes_to_its_view(
    converter: str, href: str
) -> None:
    fragment = "#rgb" if "#" in href else ""
    assert convert(f'<p><a href="{href}">color</a></p>', converter) == \
        f"[color]({SITE}css_types/color.md{fragment})\n"


def test_a_link_to_a_file_is_not_taken_for_a_folder() -> None:
    assert convert('<p><a href="../../guide/install">i</a> <a href="../../x.zip">z</a></p>') \
        == f"[i]({SITE}guide/install) [z]({SITE}x.zip)\n"


LINK_CARD = (
    '<div class="sd-card sd-sphinx-override sd-mb-3 sd-shadow-sm sd-card-hover docutils">'
    '<div class="sd-card-body docutils"><div class="sd-card-title sd-font-weight-bold '
    'docutils">Tide <em>pools</em></div><p class="sd-card-text">Life at low tide.</p></div>'
    '<a class="sd-stretched-link sd-hide-link-text reference internal" '
    'href="../../guide/install.html"><span class="doc">Installing</span></a></div>'
)


@ENGINES
def test_a_sphinx_design_link_card_links_its_title(converter: str) -> None:
    assert convert(LINK_CARD, converter) == \
        f"[Tide *pools*]({SITE}guide/install.md)\n\nLife at low tide.\n"


def test_an_untitled_link_card_shows_its_link() -> None:
    untitled = LINK_CARD.replace('sd-card-title', 'sd-card-header')
    assert convert(untitled.replace("Tide <em>pools</em>", "")) == \
        f"Life at low tide.\n\n[Installing]({SITE}guide/install.md)\n"


@ENGINES
def test_a_footnote_labelled_by_a_dt_keeps_its_number_and_text(converter: str) -> None:
    # A site translator that writes docutils' footnotes with <dt>/<dd> inside the aside
    html = ('<p>Tides<a class="footnote-reference brackets" href="#id6" id="id1" '
            'role="doc-noteref"><span class="fn-bracket">[</span>2<span class="fn-bracket">]'
            '</span></a>.</p><aside class="footnote-list brackets">'
            '<aside class="footnote brackets" id="id6" role="doc-footnote"><dt class="label" '
            'id="id6">[<a href="#id1">2</a>]</dt><dd><p>Twice a day.</p></dd></aside></aside>')
    assert convert(html, converter) == "Tides[^2].\n\n[^2]: Twice a day.\n"


@ENGINES
def test_a_dt_labelled_footnote_with_back_references_and_a_link_to_it(converter: str) -> None:
    # The PEPs' translator after the label: "[8] (1, 2)" in <em>; a link in the page
    # names the note itself (its id docutils numbered), so the note keeps an anchor
    html = ('<p>See <a class="reference internal" href="#id22">configparser</a> and'
            '<a class="footnote-reference brackets" href="#id22" id="id7">[8]</a>.</p>'
            '<aside class="footnote-list brackets"><aside class="footnote brackets" id="id22" '
            'role="doc-footnote"><dt class="label" id="id22">[8]<em> (<a href="#id7">1</a>, '
            '<a href="#id8">2</a>) </em></dt><dd>configparser</dd></aside></aside>')
    assert convert(html, converter) == (
        "See [configparser](https://docs.example.org/styles/background/#id22) and[^8].\n\n"
        '[^8]: <a id="id22"></a>configparser\n')


def test_a_footnote_dd_without_paragraph() -> None:
    html = ('<aside class="footnote-list brackets"><aside class="footnote brackets" id="id6" '
            'role="doc-footnote"><dt class="label" id="id6">[<a href="#id1">2</a>]</dt>'
            "<dd>Twice a day.</dd></aside></aside>")
    assert convert(html) == "[^2]: Twice a day.\n"


@ENGINES
def test_a_type_written_an_emphasis_per_token_reads_as_one(converter: str) -> None:
    html = ("<p>(<em>str</em><em> </em><em>|</em><em> </em><em>Callable</em><em>[</em>"
            "<em>[</em><em>...</em><em>]</em><em>,</em> <em>Any</em><em>]</em><em> </em>"
            "<em>|</em><em> </em><em>None</em>) – <strong>a</strong> <em>b</em></p>")
    assert convert(html, converter) == "(*str | Callable[[...], Any] | None*) – **a** *b*\n"


@ENGINES
def test_a_link_to_code_with_brackets_keeps_its_code_span(converter: str) -> None:
    html = ('<p><a class="reference internal" href="#std-setting-ITEM_PIPELINES">'
            '<code class="xref std std-setting docutils literal notranslate">'
            '<span class="pre">ITEM_PIPELINES[x]</span></code></a></p>')
    assert convert(html, converter) == f"[`ITEM_PIPELINES[x]`]({PAGE}#std-setting-ITEM_PIPELINES)\n"


def test_code_that_would_start_a_reference_definition_is_escaped_text() -> None:
    assert convert('<p><a href="#a"><code>x]: y</code></a></p>') == f"[x\\]: y]({PAGE}#a)\n"


@ENGINES
def test_an_icon_font_tab_label_is_its_title(converter: str) -> None:
    html = ('<div class="sd-tab-set docutils"><input checked="checked" id="t1" name="s" '
            'type="radio"><label class="sd-tab-label" for="t1"><i class="fab fa-python" '
            'title="Python">\uf3e2</i></label><div class="sd-tab-content docutils"><p>pip</p>'
            '</div><input id="t2" name="s" type="radio"><label class="sd-tab-label" for="t2">'
            '\uf17a Windows</label><div class="sd-tab-content docutils"><p>winget</p></div></div>')
    assert convert(html, converter) == "**Python**\n\npip\n\n**Windows**\n\nwinget\n"


@ENGINES
def test_an_admonition_title_keeps_its_code_and_links(converter: str) -> None:
    html = ('<div class="admonition note"><p class="admonition-title">Use <code>pip</code> or '
            '<a href="https://pypi.org/">PyPI</a></p><p>Body.</p></div>')
    assert convert(html, converter) == \
        "> **Note: Use `pip` or [PyPI](https://pypi.org/)**\n>\n> Body.\n"


NBSPHINX_CELL = (
    '<div class="nbinput docutils container"><div class="prompt highlight-none notranslate">'
    '<div class="highlight"><pre><span></span>[6]:\n</pre></div></div>'
    '<div class="input_area highlight-python3 notranslate"><div class="highlight"><pre>'
    '<span></span><span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n'
    '</pre></div></div></div><div class="nboutput nblast docutils container">'
    '<div class="prompt highlight-none notranslate"><div class="highlight"><pre><span></span>'
    '[6]:\n</pre></div></div><div class="output_area docutils container">'
    '<div class="highlight"><pre>1\n</pre></div></div></div>'
)


@ENGINES
def test_nbsphinx_prompts_are_no_code_blocks(converter: str) -> None:
    assert convert(NBSPHINX_CELL, converter) == "```python\nx = 1\n```\n\n```\n1\n```\n"


SNIPPET_AFTER_CUSTOM_FENCE = (
    "```mermaid\ngraph LR\n  A --> B\n```\n\n"
    "```python\n--8<-- \"tide.py\"\n```\n\n"
    "```toml\n[tool]\nx = 1\n```\n"
)


def test_a_snippet_after_a_custom_fence_keeps_its_language() -> None:
    # superfences' custom fence renders a <div>, no <pre>; the snippet's code is the file's
    from agentprose_core.convert.fences import fences_of

    html = ('<div class="mermaid">graph LR\n  A --&gt; B</div>'
            '<div class="highlight"><pre><span></span><code>def ebb():\n    pass\n'
            "</code></pre></div>"
            '<div class="highlight"><pre><span></span><code>[tool]\nx = 1\n</code></pre></div>')
    result = convert_fragment(html, page_url=PAGE, site_map=SITE_MAP, settings=Settings(),
                              source_fences=fences_of(SNIPPET_AFTER_CUSTOM_FENCE))
    assert "```python\ndef ebb():\n    pass\n```" in result.markdown
    assert "```toml\n[tool]\nx = 1\n```" in result.markdown


def test_a_block_from_no_source_fence_takes_no_later_language() -> None:
    from agentprose_core.convert.fences import fences_of

    html = ('<div class="highlight"><pre><code>generated by a plugin\n</code></pre></div>'
            '<div class="highlight"><pre><code>[tool]\nx = 1\n</code></pre></div>')
    result = convert_fragment(html, page_url=PAGE, site_map=SITE_MAP, settings=Settings(),
                              source_fences=fences_of("```toml\n[tool]\nx = 1\n```\n"))
    assert result.markdown == "```\ngenerated by a plugin\n```\n\n```toml\n[tool]\nx = 1\n```\n"


@ENGINES
def test_a_citation_keeps_its_numbered_id_as_an_anchor(converter: str) -> None:
    # sphinxcontrib-bibtex's references page: other pages link its citations by id3
    html = ('<div class="citation-list"><div class="citation" id="id3" role="doc-biblioentry">'
            '<span class="label"><span class="fn-bracket">[</span>KRKP+16<span class="fn-bracket">'
            "]</span></span><p>Kluyver et al. Jupyter.</p></div></div>")
    assert convert(html, converter) == '[^KRKP+16]: <a id="id3"></a>Kluyver et al. Jupyter.\n'


def test_an_image_map_is_no_content() -> None:
    # Sphinx's inheritance and graphviz diagrams: the image stays, its clickable areas go
    html = ('<p><img src="classes.png" usemap="#map" alt="Inheritance diagram"></p>'
            '<map id="map" name="map"><area shape="rect" href="../../api.html" title="Blog">'
            "Blog</map>")
    assert convert(html) == f"![Inheritance diagram]({PAGE}classes.png)\n"


def test_a_fence_in_a_quote_gives_its_language() -> None:
    # markdown-callouts: "> NOTE:" blocks hold fenced code the theme renders without it
    from agentprose_core.convert.fences import fences_of

    source = '> NOTE: **Before**\n>\n> ```python title="before"\n> def ebb():\n>     pass\n> ```\n'
    html = ('<blockquote><p>Before</p><div class="highlight"><pre><code>def ebb():\n    pass\n'
            "</code></pre></div></blockquote>")
    result = convert_fragment(html, page_url=PAGE, site_map=SITE_MAP, settings=Settings(),
                              source_fences=fences_of(source))
    assert "> ```python\n> def ebb():\n>     pass\n> ```" in result.markdown


@ENGINES
def test_a_link_in_raised_text_is_a_markdown_link(converter: str) -> None:
    # pymdown-extensions' docs: hand-written footnote marks, <sup><a href>†</a></sup>
    html = '<p>Magic<sup><a href="#_fn_1">†</a></sup>, H<sub>2</sub>O, x<sup><em>n</em></sup>.</p>'
    assert convert(html, converter) == \
        f"Magic<sup>[†]({PAGE}#_fn_1)</sup>, H<sub>2</sub>O, x<sup>*n*</sup>.\n"


def test_a_docutils_system_message_is_no_content() -> None:
    # a build error docutils writes into the page, with the build machine's path
    html = ('<p>Text.</p><div class="system-message"><p class="system-message-title">System '
            "Message: ERROR/3 (<span class=\"docutils literal\">/home/ci/docs/a.rst</span>, "
            "line 10)</p><p>Unknown directive.</p></div>")
    assert convert(html) == "Text.\n"


@ENGINES
def test_a_citation_labelled_by_a_dt_is_a_footnote_without_its_back_link(converter: str) -> None:
    # the PEPs' translator: <dt class="label">[<a href="#id1">Aho86</a>]</dt><dd>…</dd>
    html = ('<p>The Dragon Book <a class="reference internal" href="#aho86" id="id1"><span>'
            '[Aho86]</span></a>.</p><div role="list" class="citation-list"><div class="citation" '
            'id="aho86" role="doc-biblioentry"><dt class="label" id="aho86">[<a href="#id1">'
            "Aho86</a>]</dt><dd>Alfred V. Aho. <code>Compilers</code>.</dd></div></div>")
    assert convert(html, converter) == ("The Dragon Book [^Aho86].\n\n"
                                        '[^Aho86]: <a id="aho86"></a>Alfred V. Aho. `Compilers`.\n')
