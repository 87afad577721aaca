"""Every fragment leads somewhere: link targets get anchors, API objects join the outline."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from agentprose_core.anchors import slug
from agentprose_core.convert import convert_fragment
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
        '<p>Note<a class="footnote-reference" href="#f1" id="id1">1</a></p>'
        '<aside class="footnote" id="f1"><span class="label">1</span><p>Text.</p></aside>')
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
