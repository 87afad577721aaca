"""Hostile and broken input: never an exception, always valid output."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any

import pytest
import yaml

from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.model import PageRecord
from agentprose_core.records.metadata import read_metadata
from agentprose_core.render.view import render_front_matter
from agentprose_core.settings import ENGINES, Settings

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

PAGE = "https://docs.example.org/p/"

HTML = {
    "truncated": ("<p>Hello <b>wor", ["Hello", "wor"]),
    "unclosed-table": ("<table><tr><td>a<td>b", ["a", "b"]),
    "deep-10000": ("<div>" * 10000 + "deep" + "</div>" * 10000, ["deep"]),
    "deep-list": ("<ul><li>" * 3000 + "bottom" + "</li></ul>" * 3000, ["bottom"]),
    "nul-and-controls": ("<p>a\x00b\x1b[31mc</p>", ["ab", "c"]),
    "lone-surrogate": ("<p>\ud800tail</p>", ["tail"]),
    "empty": ("", []),
    "whitespace": ("  \n\t ", []),
    "only-chrome": ("<nav>menu</nav><script>x()</script>", []),
    "giant-table": ("<table>" + ("<tr>" + "<td>cell</td>" * 40 + "</tr>") * 2000 + "</table>",
                    ["cell"]),
    "one-mb-paragraph": ("<p>" + "word " * 200_000 + "</p>", ["word"]),
    "attribute-soup": ('<p class="a" class="b" id=x id=y>dup</p><a href="javascript:x">js</a>',
                       ["dup", "js"]),
    "bogus-entities": ("<p>&bogus; &#0; &#xD800; &amp;</p>", ["bogus"]),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(HTML))
def test_broken_html_never_raises(engine: str, name: str) -> None:
    html, words = HTML[name]
    result = convert_fragment(html, page_url=PAGE, site_map={},
                              settings=Settings(converter=engine))  # type: ignore[arg-type]
    markdown = result.markdown
    markdown.encode("utf-8")
    assert "\x00" not in markdown
    assert "\x1b" not in markdown
    for word in words:
        assert word in markdown, (word, markdown[:200])
    assert "javascript:" not in markdown


YAML_HOSTILE = ["---", "a\nb", "key: value", "# comment", "*alias", "&anchor", "!tag",
                "%directive", "@at", "\u2028", "\ufeffbom", "yes", "no", "null", "0012",
                "1e3", "x" * 10_000, "'single'", '"double"', "tab\tin", ""]


@pytest.mark.parametrize("value", YAML_HOSTILE, ids=range(len(YAML_HOSTILE)))
def test_yaml_hostile_metadata_round_trips(value: str) -> None:
    facts = read_metadata({"title": value, "authors": [value, "Bo"], "description": value},
                          location="hostile.md")
    title = facts.title or "Untitled"
    page = PageRecord(url=PAGE, markdown_url=PAGE.rstrip("/") + ".md", title=title,
                      modified="2026-01-01T00:00:00Z", authors=facts.authors)
    loaded = yaml.safe_load(render_front_matter(page).strip("-\n"))
    assert loaded["title"] == title
    assert loaded.get("author", []) in (list(facts.authors), facts.authors[0] if len(
        facts.authors) == 1 else None)


@pytest.mark.parametrize("meta", [
    {"date": 20250602}, {"date": "yesterday"}, {"date": dt.time(10, 0)}, {"authors": {"x": 1}},
    {"tags": "a, b"}, {"tags": 5}, {"title": {"nested": True}}, {"modified": [1, 2]},
    {"agentprose": "maybe"}, {"image": ["a.png"]},
])
def test_wrong_metadata_types_never_raise(meta: dict[str, object]) -> None:
    facts = read_metadata(meta, location="odd.md")
    if "date" in meta and not isinstance(meta["date"], str | dt.date):
        assert facts.published is None
        assert [d.code for d in facts.diagnostics] == ["bad-metadata"]
    for value in (facts.published, facts.modified):
        assert value is None or (len(value) == 20 and value.endswith("Z"))


# What readers never see never reaches a view: each way a real page hides text.
HIDDEN = {
    "hidden inside details": "<details><summary>S</summary><p hidden>SECRET</p><p>seen</p>"
                             "</details>",
    "hidden inside summary": "<details><summary>S <span hidden>SECRET</span></summary>"
                             "<p>seen</p></details>",
    "pymdownx collapsed block": '<details class="note"><summary>N</summary>'
                                '<div hidden><p>SECRET</p></div><p>seen</p></details>',
    "aria-hidden in capitals": '<p aria-hidden="TRUE">SECRET</p><p>seen</p>',
    "display none": '<p style="color: red; display:none">SECRET</p><p>seen</p>',
    "display none important": '<p style="display: none !important">SECRET</p><p>seen</p>',
    "visibility hidden": '<span style="visibility:hidden">SECRET</span><p>seen</p>',
    "frame fallback": "<iframe>SECRET</iframe><p>seen</p>",
    "frame fallback with source": '<iframe src="https://v.example/x">SECRET</iframe><p>seen</p>',
    "video fallback": "<video>SECRET, get a newer browser</video><p>seen</p>",
    "deep template": "<div>" * 100 + "<template>SECRET</template>seen" + "</div>" * 100,
    "deep script and style": "<div>" * 100 + "<script>SECRET()</script><style>.SECRET{}</style>"
                             "<noscript>SECRET</noscript>seen" + "</div>" * 100,
    "deep hidden": "<div>" * 100 + '<p hidden>SECRET</p><span aria-hidden="true">SECRET</span>'
                   "<b data-ignore>SECRET</b>seen" + "</div>" * 100,
    "deep permalink": "<div>" * 100 + '<h2>seen<a class="headerlink" href="#x">SECRET</a></h2>'
                      + "</div>" * 100,
    "too deep to parse": "<div>" * 3000 + "<script>SECRET()</script><p hidden>SECRET</p>seen"
                         + "</div>" * 3000,
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_hidden_text_never_reaches_a_view(engine: str, name: str) -> None:
    markdown = convert_fragment(HIDDEN[name], page_url=PAGE, site_map={},
                                settings=Settings(converter=engine)).markdown  # type: ignore[arg-type]
    assert "seen" in markdown
    assert "SECRET" not in markdown
    assert "¶" not in markdown


TAB_WIDGET = ('<div><div role="tablist"><button role="tab">A</button><button role="tab">B'
              '</button></div><div role="tabpanel">first</div>{panel}</div>')


@pytest.mark.parametrize("engine", ENGINES)
def test_tab_panels_hidden_until_clicked_are_content(engine: str) -> None:
    settings = Settings(converter=engine)  # type: ignore[arg-type]
    for html in (TAB_WIDGET.format(panel='<div role="tabpanel" hidden>second</div>'),
                 ('<div class="sphinx-tabs"><div><div role="tabpanel" hidden>second</div>'
                  "</div></div>")):
        markdown = convert_fragment(html, page_url=PAGE, site_map={}, settings=settings).markdown
        assert "second" in markdown, html


HIDDEN_PANELS = {
    "aria-hidden": '<div role="tabpanel" aria-hidden="true">SECRET</div>',
    "display none": '<div role="tabpanel" style="display:none">SECRET</div>',
    "visibility hidden": '<div role="tabpanel" style="visibility: hidden">SECRET</div>',
    "hidden and aria-hidden": '<div role="tabpanel" hidden aria-hidden="true">SECRET</div>',
    "class panel aria-hidden": '<div class="tabbed-block" aria-hidden="true">SECRET</div>',
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(HIDDEN_PANELS))
def test_tab_panels_hidden_otherwise_or_without_tabs_stay_hidden(engine: str, name: str) -> None:
    # issue 40: any tabpanel was content, whatever hid it and wherever it stood
    settings = Settings(converter=engine)  # type: ignore[arg-type]
    panel = HIDDEN_PANELS[name]
    for html in (TAB_WIDGET.format(panel=panel), f"<p>seen</p>{panel}",
                 '<p>seen</p><div role="tabpanel" hidden>SECRET</div>'):
        markdown = convert_fragment(html, page_url=PAGE, site_map={}, settings=settings).markdown
        assert "SECRET" not in markdown, html


@pytest.mark.parametrize("engine", ENGINES)
def test_markup_too_deep_to_parse_keeps_the_rest_of_the_page(engine: str) -> None:
    html = ("<h2>Before</h2>" + "<div>" * 3000 + "deep" + "</div>" * 3000
            + "<h2>After</h2><p>More <em>text</em>.</p>")
    result = convert_fragment(html, page_url=PAGE, site_map={},
                              settings=Settings(converter=engine))  # type: ignore[arg-type]
    assert "## Before" in result.markdown
    assert "deep" in result.markdown
    assert "## After\n\nMore *text*." in result.markdown
    assert [d.code for d in result.diagnostics] == ["deep-nesting"]
    assert "visible text" in result.diagnostics[0].message


class _Panic(BaseException):
    """What a Rust panic in html-to-markdown raises: not an Exception."""


def test_an_engine_that_fails_on_a_page_falls_back_with_one_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agentprose_core.convert import engines as convert

    def panics(document: str) -> str:
        raise _Panic("called `Option::unwrap()` on a `None` value")

    real = convert.engine

    def engine(name: str) -> tuple[object, tuple[object, ...]]:
        return (panics, ()) if name == "html-to-markdown" else real(name)

    monkeypatch.setattr(convert, "engine", engine)
    result = convert_fragment("<ul><li><abbr>&gt;é</abbr> &lt;tag&gt;</li></ul>", page_url=PAGE,
                              site_map={}, settings=Settings())
    assert result.markdown == "- \\>é \\<tag>\n"
    notes = [d for d in result.diagnostics if d.code == "engine-failed"]
    assert len(notes) == 1
    assert notes[0].location == PAGE
    assert "markdownify" in notes[0].message
    assert "_Panic" in notes[0].message


def test_interrupts_are_never_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentprose_core.convert import engines as convert

    def interrupted(document: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(convert, "engine", lambda name: (interrupted, ()))
    with pytest.raises(KeyboardInterrupt):
        convert_fragment("<p>x</p>", page_url=PAGE, site_map={}, settings=Settings())


UNSAFE = {
    "noncharacters": "<p>a\ufffe b\uffff c\ufdd0 d\U0001fffe</p>",
    "noncharacter references": "<p>&#xfffe; &#xFFFF; &#65534; &#x1FFFF;</p>",
    "control references": "<p>x&#1;y&#x1b;z&#0;w&#x7f;v</p>",
    "c1 controls": "<p>a\x85b\x9fc</p><pre><code>d\x85e</code></pre>",
    "c1 references": "<p>&#128; &#x81; &#x9f;</p>",
    "in a heading": "<h2>T&#xfffe;&#1;</h2><p>x</p>",
    "in a term": "<dl><dt>&#xfffe;</dt><dd>d</dd></dl>",
    "in an alt": '<p><img alt="&#xfffe;&#2;" src="a.png"></p>',
    "in a table": "<table><tr><td>a<p>&#xfffe;</p><p>b</p></td></tr></table>",
    "in code": '<pre><code class="language-python">a\ufffe&#xffff;</code></pre>',
}
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff"
                        "\U0001fffe\U0001ffff]")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(UNSAFE))
def test_no_control_or_noncharacter_reaches_a_view(engine: str, name: str) -> None:
    result = convert_fragment(UNSAFE[name], page_url=PAGE, site_map={},
                              settings=Settings(converter=engine))  # type: ignore[arg-type]
    assert not _FORBIDDEN.search(result.markdown), repr(result.markdown)
    assert not any(_FORBIDDEN.search(h.title) for h in result.headings)


def test_c1_references_read_as_windows_1252() -> None:
    markdown = convert_fragment("<p>&#128; &#x9f;</p>", page_url=PAGE, site_map={},
                                settings=Settings()).markdown
    assert markdown == "€ Ÿ\n"


def test_metadata_holds_no_control_characters() -> None:
    facts = read_metadata({"title": "A\x01B\ufffe", "authors": ["C\x1bD"]}, location="x.md")
    assert facts.title == "AB\ufffd"
    assert facts.authors == ("CD",)


SPANS = ["x", "2.5", "-1", "0", "", " 3 ", "+2", "99999999999", "1e3"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("value", SPANS)
def test_a_bad_span_reads_as_a_browser_reads_it(engine: str, value: str) -> None:
    # issue 40: colspan="x" raised ValueError and stopped every build
    from agentprose_core.convert.rules.tables import span

    settings = Settings(converter=engine)  # type: ignore[arg-type]
    for name in ("colspan", "rowspan"):
        html = (f'<table><tr><th>h</th><th>i</th></tr><tr><td {name}="{value}">a</td>'
                "<td>b</td></tr></table>")
        markdown = convert_fragment(html, page_url=PAGE, site_map={}, settings=settings).markdown
        assert "a" in markdown
        assert "b" in markdown
        wide = span(value)
        if wide > 1:
            assert f'{name}="{wide}"' in markdown, markdown
        else:
            assert markdown.startswith("| h | i |"), markdown
    assert [span(v) for v in SPANS] == [1, 2, 1, 1, 1, 3, 2, 99999, 1]


def test_a_rule_that_fails_on_a_page_leaves_its_plain_text_and_one_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # issue 40: no exception from converting one page stops a build
    from agentprose_core.convert import fragment as convert

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("a bug of ours")

    monkeypatch.setattr(convert, "normalize", broken)
    result = convert_fragment("<h1>Tides</h1><p># not a heading &amp; <b>*bold*</b></p>",
                              page_url=PAGE, site_map={}, settings=Settings())
    assert result.markdown == "Tides\n\n\\# not a heading \\& \\*bold\\*\n"
    notes = [d for d in result.diagnostics if d.code == "engine-failed"]
    assert len(notes) == 1
    assert notes[0].location == PAGE
    assert "ValueError: a bug of ours" in notes[0].message


BAD_TABLE = '<table><tr><td colspan="x">crabs</td></tr></table>'


def test_a_bad_span_stops_no_front_end(tmp_path: Path, make_app: Callable[..., Any]) -> None:
    # issue 40: MkDocs exited 1, Sphinx 2, agentprose build 1
    from agentprose_core.cli import main

    from .sites import write_tree
    from .test_mkdocs_plugin import make_site, mkdocs_build
    from .test_sphinx_extension import build, copy_root

    mkdocs_root = make_site(tmp_path / "mk")
    (mkdocs_root / "docs/guide/rocks.md").write_text(f"# Rock pools\n\n{BAD_TABLE}\n")
    done = mkdocs_build(mkdocs_root)
    assert done.returncode == 0, done.stderr
    assert "| crabs |" in (mkdocs_root / "site/guide/rocks.md").read_text("utf-8")

    src = copy_root("basic", tmp_path / "sx")
    rocks = src / "guide/rocks.rst"
    rocks.write_text(rocks.read_text("utf-8") + f"\n.. raw:: html\n\n   {BAD_TABLE}\n")
    out = build(make_app, src)
    assert "| crabs |" in (out / "guide/rocks.md").read_text("utf-8")

    write_tree(tmp_path / "cli", {"index.html": f"<html><body><main><h1>Crabs</h1>{BAD_TABLE}"
                                                "</main></body></html>"})
    assert main(["build", str(tmp_path / "cli"), "--base-url", "https://x.example/"]) == 0
    assert "| crabs |" in (tmp_path / "cli/index.md").read_text("utf-8")


CARRIAGE_RETURNS = {
    "heading": "<p>before&#13;# HEADING</p>",
    "bullets": "<p>a&#13;- b&#13;+ c&#13;* d</p>",
    "quote and number": "<p>a&#13;&gt; b&#x0D;1. c&#xd;2) d</p>",
    "in an item": "<ul><li>x&#13;- y</li></ul>",
    "in a quote": "<blockquote><p>q&#13;# z</p></blockquote>",
    "in emphasis and a link": '<p><em>e&#13;+ f</em> <a href="/">l&#13;1. m</a></p>',
    "paragraph split": "<p>a&#13;&#13;b</p>",
    "raw": "<p>x\r# y\r\n- z</p>",
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(CARRIAGE_RETURNS))
def test_carriage_returns_inject_no_structure(engine: str, name: str) -> None:
    # issue 40: "&#13;" read as a line end by Markdown readers, not by the converter
    markdown = convert_fragment(CARRIAGE_RETURNS[name], page_url=PAGE, site_map={},
                                settings=Settings(converter=engine)).markdown  # type: ignore[arg-type]
    assert "\r" not in markdown
    structure = re.compile(r"^[ >]*(?:#|[-+*] |\d[.)] )")  # after a quote's own marks
    lines = markdown.split("\n")
    starts = [line for line in lines if structure.match(line)]
    expected = 1 if name == "in an item" else 0  # the item itself
    assert len(starts) == expected, markdown
    assert "" not in lines[:-1], markdown  # one paragraph


@pytest.mark.parametrize("engine", ENGINES)
def test_carriage_returns_in_code_become_line_feeds(engine: str) -> None:
    html = "<pre><code>a&#13;&#10;b&#13;c\r\nd&#xD;</code></pre>"
    markdown = convert_fragment(html, page_url=PAGE, site_map={},
                                settings=Settings(converter=engine)).markdown  # type: ignore[arg-type]
    assert markdown == "```\na\nb\nc\nd\n```\n"


CODE_EDGES = {
    "blank lines around": ("<pre><code>\n\nx\n\n</code></pre>", "\n\nx\n"),
    "newline after <pre> is the parser's": ("<pre>\n\nx\n\n\n</pre>", "\nx\n\n"),
    "pygments": (('<div class="highlight"><pre><span></span>\n<span class="n">x</span>\n\n'
                  "</pre></div>"), "\nx\n"),
    "only blank lines": ("<pre><code>\n\n\n</code></pre>", "\n\n"),
    "indented blank lines": ("<pre><code>  \n  x\n  \n</code></pre>", "  \n  x\n  "),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(CODE_EDGES))
def test_code_keeps_its_blank_edge_lines(engine: str, name: str) -> None:
    # issue 40: leading and trailing blank lines in <pre> were dropped
    from markdown_it import MarkdownIt

    html, code = CODE_EDGES[name]
    markdown = convert_fragment(html, page_url=PAGE, site_map={},
                                settings=Settings(converter=engine)).markdown  # type: ignore[arg-type]
    assert markdown == f"```\n{code}\n```\n"
    fence = next(t for t in MarkdownIt("commonmark").parse(markdown) if t.type == "fence")
    assert fence.content == code + "\n"  # what a renderer shows: the page's text


def test_a_killed_builds_temporaries_are_removed_by_the_next_build(
    tmp_path: Path, make_app: Callable[..., Any]
) -> None:
    # issue 40: ".p177.md.20646-21.tmp" of a killed build stayed, and a deploy published it
    import os

    from agentprose_core.cli import main

    from .sites import write_tree
    from .test_mkdocs_plugin import make_site, mkdocs_build
    from .test_sphinx_extension import build, copy_root

    gone = 4_194_305  # above Linux's largest pid: no process has it

    def leave_temporaries(folder: Path) -> tuple[Path, Path]:
        folder.mkdir(parents=True, exist_ok=True)
        stale = folder / f".index.md.{gone}-21.tmp"
        live = folder / f".index.md.{os.getpid()}-3.tmp"  # a writer that still runs
        stale.write_text("half a view")
        live.write_text("being written")
        return stale, live

    mkdocs_root = make_site(tmp_path / "mk")
    stale, live = leave_temporaries(mkdocs_root / "site")
    assert mkdocs_build(mkdocs_root).returncode == 0
    assert not stale.exists()
    assert live.exists()

    src = copy_root("basic", tmp_path / "sx")
    out = build(make_app, src)
    stale, live = leave_temporaries(out / "guide")
    build(make_app, src)  # the next build, incremental
    assert not stale.exists()
    assert live.exists()

    write_tree(tmp_path / "cli", {"index.html": "<html><body><main><h1>Crabs</h1><p>x</p>"
                                                "</main></body></html>"})
    stale, live = leave_temporaries(tmp_path / "cli")
    assert main(["build", str(tmp_path / "cli"), "--base-url", "https://x.example/"]) == 0
    assert not stale.exists()
    assert live.exists()


def test_every_warning_of_a_conversion_names_its_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 40: the deep-nesting warning named no page in MkDocs and the CLI
    from agentprose_core.cli import main

    from .sites import write_tree

    deep = "<div>" * 400 + "deep" + "</div>" * 400
    for html in (deep, *(case for case, _ in HTML.values())):
        result = convert_fragment(html, page_url=PAGE, site_map={}, settings=Settings())
        assert all(note.location == PAGE for note in result.diagnostics), result.diagnostics
    write_tree(tmp_path / "site", {"deep.html": f"<html><body><main>{deep}</main></body></html>"})
    assert main(["build", str(tmp_path / "site"), "--base-url", "https://x.example/"]) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "[deep-nesting]" in line]
    assert len(warnings) == 1, warnings
    assert "https://x.example/deep.html" in warnings[0], warnings
