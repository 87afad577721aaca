"""Every fragment leads somewhere: link targets get anchors, API objects join the outline."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.convert.rules.anchors import slug
from agentprose_core.settings import Settings
from agentprose_core.urls import page_key

from .test_golden_themes import CASES, _page_url, _site_map

PAGE = "https://docs.example.org/p/api.html"


def _convert(fragment: str) -> tuple[str, list[tuple[int, str, str]]]:
    result = convert_fragment(fragment, page_url=PAGE, site_map={}, settings=Settings())
    return result.markdown, [(h.level, h.id, h.title) for h in result.headings]


AUTODOC = (
    '<section id="module-shore"><h1>API</h1>'
    '<dl class="py class"><dt class="sig sig-object py" id="shore.Pool">'
    '<em class="property">class </em><span class="sig-prename descclassname">shore.</span>'
    '<span class="sig-name descname">Pool</span>(<em>depth</em>)</dt>'
    "<dd><p>A pool.</p>"
    '<dl class="py method"><dt class="sig sig-object py" id="shore.Pool.drain">'
    '<span class="sig-name descname">drain</span>()</dt><dd><p>Empty it.</p></dd></dl>'
    "</dd></dl></section>"
)


def test_api_objects_get_anchors_and_join_the_outline() -> None:
    markdown, headings = _convert(AUTODOC)
    assert '<a id="shore.Pool"></a>`class shore.Pool(depth)`' in markdown
    assert '<a id="shore.Pool.drain"></a>`drain()`' in markdown
    assert headings == [(1, "module-shore", "API"), (2, "shore.Pool", "Pool"),
                        (3, "shore.Pool.drain", "drain")]


def test_a_label_before_a_section_goes_into_its_heading() -> None:
    markdown, _ = _convert('<span id="install"></span><section id="installation">'
                           "<h2>Installation</h2><p>pip</p></section>")
    assert markdown.startswith('## <a id="install"></a>Installation\n')


def test_a_label_that_is_another_headings_slug_keeps_its_place() -> None:
    # pytest's docs: ``.. _skipif:`` labels "Skipping test functions"; a later heading
    # is titled `skipif`. A renderer would lead ``#skipif`` to that later heading.
    markdown, _ = _convert('<section id="skipping"><span id="skipif"></span>'
                           "<h2>Skipping test functions</h2><p>a</p>"
                           '<section id="id1"><h3><code>skipif</code></h3><p>b</p></section>'
                           "</section>")
    assert '## <a id="skipif"></a><a id="skipping"></a>Skipping test functions\n' in markdown
    assert '### <a id="id1"></a>`skipif`\n' in markdown


def test_a_random_id_gets_no_anchor() -> None:
    # MyST numbers unlabelled equations with a new UUID on every build
    markdown, _ = _convert('<div class="math notranslate nohighlight" '
                           'id="equation-2645728c-daed-45e3-b330-5b183d8c7e65">\\[a\\]</div>'
                           '<div class="math" id="equation-pythagoras">\\[b\\]</div>')
    assert '<a id="equation-pythagoras"></a>' in markdown
    assert "2645728c" not in markdown


def test_an_id_with_whitespace_gets_no_anchor() -> None:
    # ablog's sidebar items carry their classes as an id: no valid id has a space
    markdown, _ = _convert('<ul><li id="ablog-sidebar-item tags ablog__tags">Tag: '
                           '<a href="t.html">tides</a></li><li id="tags">b</li></ul>')
    assert "ablog-sidebar-item" not in markdown
    assert '<a id="tags"></a>' in markdown


def test_a_label_docutils_numbered_is_still_a_label() -> None:
    # ``.. _`@pytest.fixture`:`` before a title: no valid id of its own, so ``id1``,
    # which other pages link to
    markdown, _ = _convert('<section id="fixtures-reference"><span id="id1"></span>'
                           '<span id="index-0"></span><h1>Fixtures reference</h1><p>a</p>'
                           '<p>b<span id="id2"></span></p></section>')
    assert markdown.startswith('# <a id="id1"></a>Fixtures reference\n')
    assert markdown.count("<a id=") == 1


def test_a_label_its_own_headings_slug_answers_needs_no_anchor() -> None:
    markdown, _ = _convert('<section id="syntax-referencing"><span id="cross-references">'
                           "</span><h1>Cross-references</h1><p>a</p></section>")
    assert markdown.startswith('# <a id="syntax-referencing"></a>Cross-references\n')


def test_a_contents_back_link_in_a_heading_is_no_link_and_not_its_id() -> None:
    # docutils ``.. contents:: :backlinks: entry``: the heading links to its contents
    # entry; its own id is the section's.
    markdown, headings = _convert(
        '<section id="organising-content"><span id="id1"></span><h1>'
        '<a class="toc-backref" href="#id2" role="doc-backlink">Organising content</a>'
        '<a class="headerlink" href="#organising-content">#</a></h1><p>a</p></section>')
    assert markdown.startswith("# ")
    assert markdown.split("\n")[0].endswith("Organising content")
    assert "](" not in markdown
    assert "id2" not in markdown
    assert headings == [(1, "organising-content", "Organising content")]


def test_footnote_targets_get_anchors() -> None:
    markdown, _ = _convert(
        '<p>See<a class="footnote-reference brackets" href="#label" id="id1" '
        'role="doc-noteref">1</a>.</p><aside class="footnote-list brackets">'
        '<aside class="footnote brackets" id="label" role="doc-footnote">'
        '<span class="label">1</span><span class="backrefs">(<a role="doc-backlink" '
        'href="#id1">1</a>,<a role="doc-backlink" href="#id2">2</a>)</span>'
        '<p>Named, linked <a href="#label">here</a>.</p></aside>'
        '</aside><div class="footnote"><ol><li id="fn:1"><p>Python-Markdown\'s.'
        '<a class="footnote-backref" href="#fnref:1">&#8617;</a></p></li></ol></div>')
    assert '[^1]: <a id="label"></a>Named, linked [here](' in markdown
    assert "(,)" not in markdown
    assert '[^1]: <a id="fn:1"></a>Python-Markdown\'s.' in markdown


def test_a_material_tab_is_linked_by_its_input_id() -> None:
    markdown, _ = _convert(
        '<div class="tabbed-set" data-tabs="1:2"><input checked id="logo-image" '
        'name="__tabbed_1" type="radio"><input id="__tabbed_1_2" name="__tabbed_1" '
        'type="radio"><div class="tabbed-labels"><label for="logo-image">Image</label>'
        '<label for="__tabbed_1_2">Icon</label></div><div class="tabbed-content">'
        '<div class="tabbed-block"><p>A</p></div><div class="tabbed-block"><p>B</p></div>'
        "</div></div>")
    assert '<a id="logo-image"></a>**Image**' in markdown
    assert "**Icon**" in markdown
    assert "__tabbed" not in markdown


def test_headings_get_an_anchor_only_where_their_slug_differs() -> None:
    markdown, _ = _convert('<h2 id="quick-start">Quick start</h2>'
                           '<h2 id="pkg.mod.Thing">Thing</h2>')
    assert "## Quick start\n" in markdown
    assert '## <a id="pkg.mod.Thing"></a>Thing\n' in markdown


def test_glossary_terms_and_equations_get_anchors() -> None:
    markdown, _ = _convert(
        '<dl class="glossary"><dt id="term-view">view<a class="headerlink" href="#term-view">'
        "¶</a></dt><dd><p>A page as Markdown.</p></dd></dl>"
        '<div class="math notranslate nohighlight" id="equation-e">\\[e=mc^2\\]</div>')
    assert '<a id="term-view"></a>**view**' in markdown
    assert '<a id="equation-e"></a>\n\n\\[e=mc^2\\]' in markdown


def test_widget_and_automatic_ids_get_no_anchor() -> None:
    markdown, _ = _convert(
        '<p><span id="index-0"></span>Indexed.</p><div class="figure" id="id3"><p>Fig</p></div>'
        '<div class="sphinx-tabs"><div role="tablist"><button role="tab" id="tab-0">A</button>'
        '</div><div role="tabpanel" id="panel-0">Body</div></div>'
        '<p>Note<a class="footnote-reference" href="#id5" id="id1">1</a></p>'
        '<aside class="footnote" id="id5"><span class="label">1</span><p>Text.</p></aside>')
    assert "<a id=" not in markdown


_LINK = re.compile(r"\]\((https://[^)\s]+\.md)#([^)\s]+)\)")
_ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
_HEADING = re.compile(r"^#{1,6} (.*)$", re.MULTILINE)


def _targets(markdown: str) -> set[str]:
    found = set(_ANCHOR.findall(markdown))
    for title in _HEADING.findall(markdown):
        found.add(slug(_ANCHOR.sub("", title).replace("`", "")))
    return found


@pytest.mark.parametrize("theme", sorted({case.parent.name for case in CASES}))
def test_every_fragment_between_the_theme_pages_resolves(theme: str) -> None:
    views: dict[str, str] = {}
    site_map = _site_map(theme)
    for case in CASES:
        if case.parent.name == theme:
            url = _page_url(theme, case.stem)
            views[site_map[page_key(url)]] = convert_fragment(
                case.read_text(encoding="utf-8"), page_url=url, site_map=site_map,
                settings=Settings()).markdown
    missing: dict[str, list[str]] = defaultdict(list)
    for markdown in views.values():
        for target, fragment in _LINK.findall(markdown):
            if target in views and fragment not in _targets(views[target]):
                missing[Path(target).name].append(fragment)
    assert not missing


def test_a_themes_content_wrapper_is_no_target() -> None:
    markdown, _ = _convert('<article role="main" id="furo-main-content"><h1>T</h1><p>x</p>'
                           '</article><div role="main" id="main"><p>y</p></div>')
    assert "<a id=" not in markdown


# Issue 39: mkdocstrings' ``parameter_headings`` writes a heading into each parameter's
# table cell; the view has no heading there, but the id is an anchor and nothing leaks.
PARAMETER_TABLE = (
    '<table><thead><tr><th>Name</th><th>Type</th></tr></thead><tbody><tr><td>'
    '<h3 id="f(x)"><code>x</code><a class="headerlink" href="#f(x)">¶</a></h3></td>'
    "<td><code>int</code></td></tr></tbody></table>"
)


@pytest.mark.parametrize("converter", ["html-to-markdown", "markdownify"])
def test_a_heading_in_a_table_cell_is_an_anchored_cell(converter: str) -> None:
    result = convert_fragment(PARAMETER_TABLE, page_url=PAGE, site_map={},
                              settings=Settings(converter=converter))
    assert "AgPr" not in result.markdown
    assert '| <a id="f(x)"></a>`x` | `int` |' in result.markdown
    assert result.headings == ()  # no heading of the view
    assert result.diagnostics == ()


def test_a_heading_in_a_table_kept_as_html_keeps_its_anchor() -> None:
    # a cell with a list keeps the table HTML: the anchor token inside it is spliced too
    markdown, _ = _convert(PARAMETER_TABLE.replace(
        "<td><code>int</code></td>", "<td><ul><li>a</li><li>b</li></ul></td>"))
    assert "AgPr" not in markdown
    assert '<td><a id="f(x)"></a><code>x</code></td>' in markdown


def test_a_heading_whose_text_slugs_to_nothing_keeps_its_id() -> None:
    markdown, headings = _convert('<h2 id="e-5"><code>~</code></h2><p>a</p>')
    assert markdown.startswith('## <a id="e-5"></a>`~`\n')
    assert headings == [(2, "e-5", "~")]


def test_a_label_after_a_section_title_is_an_anchor() -> None:
    # ``.. _requestsite-objects:`` after the title "RequestSite objects": the section
    # took the name, so docutils gives the paragraph ``id1``, and :ref: links to it.
    markdown, _ = _convert('<section id="requestsite-objects"><h2>RequestSite objects</h2>'
                           '<p id="id1">Some text.</p></section>')
    assert '<a id="id1"></a>Some text.' in markdown


def test_stacked_labels_before_a_block_are_anchors() -> None:
    # PEP 249: ``.. _execute:`` and two labels docutils numbered, before a definition
    markdown, _ = _convert('<section id="cursor"><h2>Cursor</h2><span id="id20"></span>'
                           '<span id="id19"></span><span id="execute"></span><dl id="id21">'
                           "<dt>.execute(op)</dt><dd><p>Run it.</p></dd></dl></section>")
    assert '<a id="id20"></a><a id="id19"></a><a id="execute"></a>' in markdown


def test_ids_are_found_without_xpath_on_a_page_too_large_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # issue 40: libxml2's XPath fails on a page of ~5 million elements (XPathEvalError)
    from lxml import etree

    from agentprose_core.convert.rules import anchors
    from agentprose_core.convert.tree import parse_fragment

    html = ('<p id="a">x<span id="b">y</span></p><pre id="c"><span id="d">code</span>'
            '<pre id="e"><b id="f">z</b></pre></pre><div><i id="g">w</i></div><!-- c -->')
    by_xpath = [el.get("id") for el in anchors._with_id(parse_fragment(html))]

    def too_large(root: object) -> object:
        raise etree.XPathEvalError("unknown error")

    monkeypatch.setattr(anchors, "_WITH_ID", too_large)
    walked = [el.get("id") for el in anchors._with_id(parse_fragment(html))]
    assert walked == by_xpath == ["a", "b", "c", "g"]


def test_a_footnote_marker_is_no_target_and_no_lost_fragment() -> None:
    # issue 39 (peps): pep-0681 links pep-0557's marker "#id7"; the view writes [^7]
    markdown, _ = _convert('<p>See<a class="footnote-reference brackets" href="#id21" '
                           'id="id7">[7]</a>.</p><aside class="footnote-list brackets">'
                           '<aside class="footnote brackets" id="id21" role="doc-footnote">'
                           '<span class="label">7</span><p>Docs.</p></aside></aside>')
    assert markdown == "See[^7].\n\n[^7]: Docs.\n"
    from agentprose_core.convert.fragment import convert_fragment
    from agentprose_core.settings import Settings

    conversion = convert_fragment('<p>See<a class="footnote-reference" href="#id21" id="id7">'
                                  "[7]</a>.</p>", page_url="https://x.example/p/",
                                  site_map={}, settings=Settings())
    assert "id7" not in conversion.unanchored
