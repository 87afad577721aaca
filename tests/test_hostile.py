"""Hostile and broken input: never an exception, always valid output."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import yaml

from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.model import PageRecord
from agentprose_core.records.metadata import read_metadata
from agentprose_core.render.view import render_front_matter
from agentprose_core.settings import ENGINES, Settings

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
    assert "\x00" not in markdown and "\x1b" not in markdown
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


def test_tab_panels_hidden_until_clicked_are_content() -> None:
    html = ('<div class="sphinx-tabs"><div role="tablist"><button role="tab">A</button>'
            '<button role="tab">B</button></div><div role="tabpanel">first</div>'
            '<div role="tabpanel" hidden>second</div></div>'
            '<div role="tabpanel" aria-hidden="true">third</div>')
    markdown = convert_fragment(html, page_url=PAGE, site_map={}, settings=Settings()).markdown
    assert "first" in markdown and "second" in markdown and "third" in markdown


@pytest.mark.parametrize("engine", ENGINES)
def test_markup_too_deep_to_parse_keeps_the_rest_of_the_page(engine: str) -> None:
    html = ("<h2>Before</h2>" + "<div>" * 3000 + "deep" + "</div>" * 3000
            + "<h2>After</h2><p>More <em>text</em>.</p>")
    result = convert_fragment(html, page_url=PAGE, site_map={},
                              settings=Settings(converter=engine))  # type: ignore[arg-type]
    assert "## Before" in result.markdown and "deep" in result.markdown
    assert "## After\n\nMore *text*." in result.markdown
    assert [d.code for d in result.diagnostics] == ["deep-nesting"]
    assert "visible text" in result.diagnostics[0].message


class _Panic(BaseException):
    """What a Rust panic in html-to-markdown raises: not an Exception."""


def test_an_engine_that_fails_on_a_page_falls_back_with_one_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agentprose_core.convert import fragment as convert

    def panics(document: str) -> str:
        raise _Panic("called `Option::unwrap()` on a `None` value")

    real = convert._engine

    def engine(name: str) -> tuple[object, tuple[object, ...]]:
        return (panics, ()) if name == "html-to-markdown" else real(name)

    monkeypatch.setattr(convert, "_engine", engine)
    result = convert_fragment("<ul><li><abbr>&gt;é</abbr> &lt;tag&gt;</li></ul>", page_url=PAGE,
                              site_map={}, settings=Settings())
    assert result.markdown == "- \\>é \\<tag>\n"
    notes = [d for d in result.diagnostics if d.code == "engine-failed"]
    assert len(notes) == 1 and notes[0].location == PAGE
    assert "markdownify" in notes[0].message and "_Panic" in notes[0].message


def test_interrupts_are_never_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    from agentprose_core.convert import fragment as convert

    def interrupted(document: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(convert, "_engine", lambda name: (interrupted, ()))
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
    assert facts.title == "AB\ufffd" and facts.authors == ("CD",)
