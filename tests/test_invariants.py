"""What every build checks about its own outputs (issue 39): a defect of a new kind is
reported instead of published silently."""

from __future__ import annotations

import pytest

from agentprose_core.convert import engines
from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.convert.placeholders import Placeholders, leftover, splice
from agentprose_core.diagnostics import Diagnostic  # noqa: TC001 - used in a runtime annotation
from agentprose_core.model import PageRecord
from agentprose_core.records.links import link_findings
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
    real = engines.engine

    def moving(name: str) -> tuple[engines.Engine, tuple[Diagnostic, ...]]:
        engine, notes = real(name)
        return (lambda document: engine(document).replace("X0X", "X 0X")), notes

    monkeypatch.setattr(engines, "engine", moving)
    result = convert_fragment('<p>a <span class="math">\\(x\\)</span> b</p>',
                              page_url=PAGE, site_map={}, settings=Settings(
                                  converter=converter))
    codes = [note.code for note in result.diagnostics]
    assert codes == ["placeholder-leak"]
    assert result.diagnostics[0].location == PAGE
    assert "AgPr" not in result.markdown
    assert "both engines" in result.diagnostics[0].message


@pytest.mark.parametrize("converter", ["html-to-markdown", "markdownify"])
def test_a_token_one_engine_lost_is_spliced_from_the_other(
    converter: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 40: every placeholder spliced back, or the page falls back
    real = engines.engine

    def moving(name: str) -> tuple[engines.Engine, tuple[Diagnostic, ...]]:
        engine, notes = real(name)
        if name != converter:
            return engine, notes
        return (lambda document: engine(document).replace("X0X", "X 0X")), notes

    monkeypatch.setattr(engines, "engine", moving)
    result = convert_fragment('<p>a <span class="math">\\(x\\)</span> b</p>',
                              page_url=PAGE, site_map={}, settings=Settings(
                                  converter=converter))
    assert result.markdown == "a \\(x\\) b\n"
    (note,) = result.diagnostics
    assert note.code == "placeholder-leak"
    assert "nothing is missing" in note.message


def test_competing_llms_txt_plugins_are_named_with_what_to_do() -> None:
    from agentprose_core.build.conflicts import competing_plugins

    notes = competing_plugins(["search", "llmstxt", "agentprose"], Settings())
    assert [note.code for note in notes] == ["llms-txt-conflict"]
    assert "mkdocs-llmstxt" in notes[0].message
    assert "Remove 'llmstxt'" in notes[0].message
    assert competing_plugins(["llmstxt"], Settings(llms_txt=False, llms_full_txt=False)) == []


def _record(name: str, markdown: str, unanchored: tuple[str, ...] = ()) -> PageRecord:
    return PageRecord(url=f"{SITE}{name}/", markdown_url=f"{SITE}{name}.md", title=name,
                      modified="2026-01-01T00:00:00Z", markdown=markdown, unanchored=unanchored)


SITE = "https://docs.example.org/"


def test_a_fragment_the_target_page_has_but_its_view_lost_is_reported() -> None:
    target = _record("sites", "# Sites\n\n## RequestSite objects\n\nSome text.\n",
                     unanchored=("id1", "index-0"))
    linking = _record("index", f"See [those]({SITE}sites.md#id1), [top]({SITE}sites.md), "
                      f"[objects]({SITE}sites.md#requestsite-objects) and "
                      f"[broken]({SITE}sites.md#nowhere).\n")
    notes = link_findings([linking, target], SITE)
    assert [note.code for note in notes] == ["fragment-lost"]
    assert notes[0].message.startswith("1 link(s)")
    assert f"{SITE}index.md links {SITE}sites.md#id1" in notes[0].message


def test_a_link_to_a_pages_html_url_is_reported() -> None:
    pages = [_record("a", f"[b]({SITE}b/) and [b again]({SITE}b.md)\n"),
             _record("b", f'<table><tr><td><a href="{SITE}a/#x">a</a></td></tr></table>\n')]
    notes = link_findings(pages, SITE)
    assert [note.code for note in notes] == ["link-not-view"]
    assert notes[0].message.startswith("2 link(s)")


def test_a_clean_site_has_no_link_findings() -> None:
    pages = [_record("a", f"# A\n\n<a id=\"x.y\"></a>`x.y`\n\n[b]({SITE}b.md#b)\n",
                     unanchored=("index-0",)),
             _record("b", f"# B\n\n[a]({SITE}a.md#x.y) [off](https://elsewhere.org/a/)\n\n"
                          f"```md\n[shown]({SITE}a/)\n```\n")]
    assert link_findings(pages, SITE) == []


def test_the_conversion_knows_which_ids_its_view_lost() -> None:
    result = convert_fragment(
        '<section id="s"><h2>S</h2><p id="id1">Text.</p><span id="index-0"></span>'
        '<p id="label">Here.</p></section>', page_url=PAGE, site_map={}, settings=Settings())
    assert result.unanchored == ("index-0",)  # id1 and label got anchors, s is the slug


def test_a_heading_inside_a_quote_is_a_target() -> None:
    # mkdocs' own docs: an admonition's "#### custom_dir" is a heading in a blockquote
    target = _record("configuration", "# Configuration\n\n> **Note**\n>\n> #### custom_dir\n>\n"
                     "> Text.\n\n> ```bash\n> # not a heading\n> ```\n",
                     unanchored=("custom_dir", "not-a-heading"))
    linking = _record("theme", f"[dir]({SITE}configuration.md#custom_dir)\n")
    assert link_findings([linking, target], SITE) == []
    lost = _record("theme2", f"[x]({SITE}configuration.md#not-a-heading)\n")
    assert [n.code for n in link_findings([lost, target], SITE)] == ["fragment-lost"]
