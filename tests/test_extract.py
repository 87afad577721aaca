"""The main content and metadata of full themed pages (``agentprose build``)."""

from __future__ import annotations

import codecs
import json
from pathlib import Path
from typing import Any

import lxml.html
import pytest

from agentprose_core.convert.tree import select, select_in
from agentprose_core.errors import ConfigError
from agentprose_core.extract import content as contents
from agentprose_core.extract import metasources
from agentprose_core.extract import page as extract
from agentprose_core.extract.content import CHROME_RULES, CONTENT_RULES, check_selector
from agentprose_core.extract.page import ExtractedPage, decode, has_view, parse_page
from agentprose_core.extract.titles import split_title
from agentprose_core.lang import normalize_lang

FIXTURES = Path(__file__).parent / "fixtures"
THEMES = FIXTURES / "extract"
URL = "https://site.example/guide/page/"
# Words planted in the chrome of every fixture under fixtures/extract/.
CHROME_MARKERS = (
    "NAVTEXT", "TOCTEXT", "FOOTERTEXT", "BREADCRUMB", "SIDEBARTEXT", "HEADERTEXT",
    "IGNORED", "HIDDENTEXT", "TOPLINK", "FEEDBACK",
)


def parse(name: str, **kwargs: str) -> ExtractedPage:
    return parse_page((THEMES / name).read_bytes(), url=kwargs.pop("url", URL), **kwargs)


def page(body: str, head: str = "", *, url: str = URL, **kwargs: str) -> ExtractedPage:
    return parse_page(
        f"<!doctype html><html><head>{head}</head><body>{body}</body></html>", url=url, **kwargs
    )


def html_of(result: ExtractedPage) -> str:
    assert result.content is not None
    return lxml.html.tostring(result.content, encoding="unicode")


def text_of(result: ExtractedPage) -> str:
    assert result.content is not None
    return " ".join(result.content.text_content().split())


def words(result: ExtractedPage) -> str:
    """The content's text with a space between elements (inline or not)."""
    assert result.content is not None
    return " ".join(" ".join(result.content.itertext()).split())


def codes(result: ExtractedPage) -> list[str]:
    return [d.code for d in result.diagnostics]


# --- the content element, theme by theme ----------------------------------------------

THEME_CASES = [
    # fixture, the content element (tag.class or tag#id), text that must be there, title
    ("material.html", "article.md-content__inner", "Use winget.", "Installing Proj"),
    ("material-blog.html", "article.md-content__inner", "Die Tümpel", "Bei Ebbe"),
    ("mkdocs.html", "div.col-md-9", "Run proj build", "Usage"),
    ("readthedocs-mkdocs.html", "div.section", "Every flavour", "Code"),
    ("sphinx-rtd.html", "div", "The footnote text.", "Usage"),
    ("alabaster.html", "div.body", "After the ad.", "Tide pools"),
    ("furo.html", "article#furo-main-content", "Pears are green.", "Tabs and dropdowns"),
    ("pydata.html", "article.bd-article", "Read it in order.", "User Guide"),
    ("docusaurus-doc.html", "div.theme-doc-markdown", "Use the classic template.",
     "Tutorial Intro"),
    ("docusaurus-blog.html", "div#__blog-post-container", "a few tips", "Welcome"),
    ("hugo-papermod.html", "div.post-content", "Anemones close up", "Tide pools at dawn"),
    ("hugo-book.html", "article.book-article", "Install the tools.", "Introduction"),
    ("docsy.html", "div.td-content", "system requirements", "Getting Started"),
    ("jekyll-minima.html", "div.post-content", "print_hi", "Welcome to Jekyll!"),
    ("plain.html", "body", "Coffee at the café", "Café notes"),
]


@pytest.mark.parametrize(("name", "where", "kept", "title"), THEME_CASES)
def test_theme_content_and_title(name: str, where: str, kept: str, title: str) -> None:
    result = parse(name)
    assert result.content is not None
    tag, _, mark = where.replace("#", ".#").partition(".")
    assert result.content.tag == tag
    if mark.startswith("#"):
        assert result.content.get("id") == mark[1:]
    elif mark:
        assert mark in (result.content.get("class") or "").split()
    assert kept in text_of(result)
    assert result.meta.title == title
    assert has_view(result)


@pytest.mark.parametrize("name", [case[0] for case in THEME_CASES])
def test_theme_chrome_is_gone(name: str) -> None:
    markup = html_of(parse(name))
    assert not [marker for marker in CHROME_MARKERS if marker in markup]
    for sign in ("¶", "<nav", "<script", "<form", "Skip to", "Back to top", "Edit this page"):
        assert sign not in markup


def test_material_chrome_inside_the_article() -> None:
    result = parse("material.html")
    content = result.content
    assert content is not None
    for selector in ("a.md-content__button", ".md-source-file", ".md-feedback", ".md-tags",
                     ".headerlink", "svg"):
        assert not select(content, selector), selector
    assert select(content, ".tabbed-set label")  # tab labels stay
    assert "Download the wheel first." in text_of(result)  # closed <details>


def test_sphinx_footnotes_sidebars_and_topics_are_content() -> None:
    result = parse("sphinx-rtd.html")
    content = result.content
    assert content is not None
    assert select(content, "aside.footnote-list aside.footnote")
    assert select(content, "aside.sidebar")
    assert select(content, "aside.topic")
    assert not select(content, "nav.contents")  # a local table of contents is navigation
    assert "TOCTEXT" not in text_of(result)


def test_hidden_tab_panels_stay_and_hidden_parts_of_details_go() -> None:
    result = parse("furo.html")
    content = result.content
    assert content is not None
    panels = select(content, "[role=tabpanel]")
    assert [p.get("hidden") for p in panels] == [None, "true"]
    assert [b.text for b in select(content, "button[role=tab]")] == ["Apples", "Pears"]
    # A closed <details> hides its content without [hidden]: what is [hidden] inside it
    # is hidden even when the reader opens it.
    assert "Revealed by a script inside details." not in text_of(result)
    assert "HIDDENTEXT" not in text_of(result)


def test_tails_of_removed_elements_are_kept() -> None:
    assert "Press Ctrl to copy. Then paste." in text_of(parse("furo.html"))  # [hidden] span
    assert "Python 3.10. Install it with pip." in text_of(parse("material.html"))  # comment
    assert "low tide every day." in text_of(parse("alabaster.html"))  # raw HTML comment
    docusaurus = parse("docusaurus-doc.html")
    assert [h.text_content() for h in select(docusaurus.content, "h2")] == ["Getting Started"]


def test_article_header_with_heading_stays_banner_goes() -> None:
    result = page(
        "<header class=site><h1>Site</h1></header><main><article>"
        "<header><nav class=breadcrumbs>Home</nav><h1>Post</h1><p>By Ana</p></header>"
        "<p>Body</p><footer>Share FOOTERTEXT</footer></article></main>"
    )
    assert result.content is not None
    assert result.content.tag == "article"
    assert words(result) == "Post By Ana Body"
    assert result.meta.title == "Post"
    docusaurus = parse("docusaurus-doc.html")
    assert select(docusaurus.content, "header > h1")


def test_quotation_footer_stays() -> None:
    result = page("<article><blockquote><p>Quote</p><footer>Someone</footer></blockquote>"
                  "<footer>chrome</footer></article>")
    assert words(result) == "Quote Someone"


def test_a_section_on_cookie_consent_is_no_cookie_notice() -> None:
    # Material's own docs: a heading whose slug is the id of many themes' cookie banner
    result = page('<article><h2 id="configuration">Configuration</h2><h3 id="cookie-consent">'
                  'Cookie consent</h3><p>Text.</p><div id="cookie-consent">Accept?</div>'
                  "</article>")
    assert words(result) == "Configuration Cookie consent Text."


def test_ignored_and_aria_hidden_content_goes() -> None:
    result = page(
        "<article><p>a<span data-ignore>X</span>b<span class=agentprose-ignore>Y</span>c"
        '<span aria-hidden="true">Z</span>d</p><div hidden>H</div></article>'
    )
    assert text_of(result) == "abcd"


# --- how the content element is chosen ------------------------------------------------


def test_content_selector_wins_and_is_cleaned() -> None:
    result = parse("material.html", content_selector="div.md-content")
    assert result.content is not None
    assert result.content.get("class") == "md-content"
    assert "FEEDBACK" not in html_of(result)


def test_content_selector_without_match() -> None:
    result = parse("material.html", content_selector="#nope")
    assert result.content is None
    assert codes(result) == ["no-content"]
    assert result.no_view == "no-content"
    assert not has_view(result)


@pytest.mark.parametrize("selector", ["div[", "a::before", "a:foo", ""])
def test_bad_content_selector_is_a_config_error(selector: str) -> None:
    with pytest.raises(ConfigError, match="content_selector"):
        check_selector(selector)
    with pytest.raises(ConfigError):
        parse_page(b"<p>x</p>", url=URL, content_selector=selector)


def test_several_articles_fall_back_to_main() -> None:
    result = page("<main><h1>Posts</h1><article><p>One</p></article>"
                  "<article><p>Two</p></article></main><footer>f</footer>")
    assert result.content is not None
    assert result.content.tag == "main"
    assert words(result) == "Posts One Two"


def test_content_wrapper_around_main_is_skipped() -> None:
    result = page('<div class="content"><aside>Menu</aside><main><p>Body</p></main></div>')
    assert result.content is not None
    assert result.content.tag == "main"


def test_empty_generic_container_is_skipped() -> None:
    result = page('<div id="content"></div><main><p>Body</p></main>')
    assert result.content is not None
    assert result.content.tag == "main"


def test_rules_are_data() -> None:
    assert all(rule.selector and rule.themes for rule in CONTENT_RULES)
    for rule in CHROME_RULES:
        check_selector(rule.selector)
        if rule.keep:
            check_selector(rule.keep)
    hidden = {rule.selector: rule.keep for rule in CHROME_RULES}["[hidden]"]
    assert hidden == "[role=tabpanel], [data-agent-only], .agent-only"


# --- metadata ---------------------------------------------------------------------------

ARTICLE = """<script type="application/ld+json">{
  "@context": "https://schema.org",
  "@graph": [
    {"@type": "WebSite", "name": "Coast"},
    {"@type": ["TechArticle"], "headline": "From JSON-LD", "description": "LD description",
     "author": [{"@type": "Person", "name": "Ana Ruiz"}, "Bo Li", {"@type": "Person"}],
     "datePublished": "2025-06-02", "dateModified": "2026-03-14T11:30:00+01:00",
     "keywords": "tides, pools", "image": {"@type": "ImageObject", "url": "/img/a.png"},
     "inLanguage": "pt_BR"}
  ]
}</script>"""
OPEN_GRAPH = """<title>Tool title | Coast</title>
<meta property="og:title" content="From OpenGraph">
<meta property="og:description" content="OG description">
<meta property="og:site_name" content="Coast OG">
<meta property="og:image" content="https://cdn.example/og.png">
<meta property="article:published_time" content="2024-01-01T00:00:00Z">
<meta property="article:modified_time" content="2024-02-01T00:00:00Z">
<meta property="article:author" content="Cy Pol">
<meta property="article:tag" content="og-tag">
<meta name="description" content="Meta description">
<meta name="author" content="Meta Author">
<meta name="keywords" content="k1, k2">
<meta name="date" content="2023-01-01">"""


def test_json_ld_comes_first() -> None:
    result = page("<article><h1>Heading</h1></article>", ARTICLE + OPEN_GRAPH)
    meta = result.meta
    assert meta.title == "From JSON-LD"
    assert meta.description == "LD description"
    assert meta.authors == ("Ana Ruiz", "Bo Li")
    assert meta.published == "2025-06-02T00:00:00Z"
    assert meta.modified == "2026-03-14T10:30:00Z"
    assert meta.tags == ("tides", "pools")
    assert meta.image == "https://site.example/img/a.png"
    assert meta.site_name == "Coast OG"
    assert result.diagnostics == ()


def test_open_graph_comes_next() -> None:
    meta = page("<article><h1>Heading</h1></article>", OPEN_GRAPH).meta
    assert meta.title == "From OpenGraph"
    assert meta.description == "OG description"
    assert meta.authors == ("Cy Pol",)
    assert meta.published == "2024-01-01T00:00:00Z"
    assert meta.modified == "2024-02-01T00:00:00Z"
    assert meta.tags == ("og-tag",)
    assert meta.image == "https://cdn.example/og.png"


def test_plain_meta_tags_come_last() -> None:
    plain = "".join(line for line in OPEN_GRAPH.splitlines() if 'name="' in line)
    head = (OPEN_GRAPH.split("\n", 1)[0] + plain + '<meta name="DC.Language" content="fr_CA">'
            '<meta name="dcterms.modified" content="2023-05-05">')
    meta = page("<article><p>No heading</p></article>", head).meta
    assert meta.title == "Tool title"
    assert meta.site_name == "Coast"
    assert meta.description == "Meta description"
    assert meta.authors == ("Meta Author",)
    assert meta.tags == ("k1", "k2")
    assert meta.published == "2023-01-01T00:00:00Z"
    assert meta.modified == "2023-05-05T00:00:00Z"
    assert meta.lang == "fr-CA"


def test_title_prefers_h1_over_tool_title() -> None:
    # Docusaurus copies <title> into og:title: that is the tool's title, not metadata.
    result = parse("docusaurus-doc.html")
    assert result.meta.title == "Tutorial Intro"
    assert result.meta.site_name == "My Site"
    meta = page("<article><h1>Real title<a class=headerlink>¶</a></h1></article>",
                "<title>Nav label - Site</title>").meta
    assert (meta.title, meta.site_name) == ("Real title", "Site")


def test_og_title_loses_a_known_site_name() -> None:
    head = ('<meta property="og:site_name" content="Coast"><title>T</title>'
            '<meta property="og:title" content="Tide pools | Coast">')
    assert page("<p>x</p>", head).meta.title == "Tide pools"


@pytest.mark.parametrize(
    ("title", "site_names", "h1", "expected"),
    [
        ("Install — Proj 1.0 documentation", (), None, ("Install", "Proj 1.0 documentation")),
        ("API reference - SphinxProj docs", (), "API reference",
         ("API reference", "SphinxProj docs")),
        ("A - B | Site", (), None, ("A - B", "Site")),
        ("Page - My - Site", ("My - Site",), None, ("Page", "My - Site")),
        ("Site | Page", ("Site",), None, ("Page", "Site")),
        ("Proj", (), None, ("Proj", None)),
        ("Tool title | Coast", ("Coast OG",), None, ("Tool title", "Coast")),
        (None, (), None, (None, None)),
    ],
)
def test_split_title(
    title: str | None, site_names: tuple[str, ...], h1: str | None,
    expected: tuple[str | None, str | None],
) -> None:
    assert split_title(title, site_names=site_names, h1=h1) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [("pt_BR", "pt-BR"), ("en-us", "en-US"), ("EN", "en"), ("zh_hans_cn", "zh-Hans-CN"),
     ("es-419", "es-419"), ("English", None), ("", None), ("en US", None)],
)
def test_normalize_lang(value: str, expected: str | None) -> None:
    assert normalize_lang(value) == expected


def test_lang_precedence_and_bad_values() -> None:
    result = parse_page(
        '<html lang="english"><head><meta property="og:locale" content="pt_BR"></head>'
        "<body><p>x</p></body></html>", url=URL,
    )
    assert result.meta.lang == "pt-BR"
    assert codes(result) == ["content-fallback", "bad-lang"]
    assert parse("sphinx-rtd.html").meta.lang == "pt-BR"
    assert parse("hugo-book.html").meta.lang == "en-US"


def test_canonical_and_image_are_absolute() -> None:
    head = ('<link rel="canonical" href="../other/"><meta property="og:image" content="i.png">'
            '<meta property="og:url" content="https://ignored.example/">')
    meta = page("<p>x</p>", head).meta
    assert meta.canonical == "https://site.example/guide/other/"
    assert meta.image == "https://site.example/guide/page/i.png"
    unsafe = page("<p>x</p>", '<link rel="canonical" href="javascript:alert(1)">'
                  '<meta property="og:image" content="data:image/png;base64,AAAA">').meta
    assert (unsafe.canonical, unsafe.image) == (None, None)
    ftp = page("<p>x</p>", '<link rel="canonical" href="ftp://x.example/a">')
    assert ftp.meta.canonical is None
    assert "bad-url" in codes(ftp)


def test_broken_json_ld_is_reported_and_skipped() -> None:
    head = ('<script type="application/ld+json">{"@type": "Article", "headline": </script>'
            '<script type="application/ld+json">' + "[" * 100000 + "</script>"
            '<meta property="og:title" content="Fallback">')
    result = page("<p>x</p>", head)
    assert result.meta.title == "Fallback"
    assert codes(result).count("bad-json-ld") == 2


def test_json_ld_wrong_types_are_reported_and_skipped() -> None:
    head = """<script type="application/ld+json">{"@type": "BlogPosting", "headline": 42,
      "author": [7, {"name": "Ana"}], "datePublished": "yesterday", "dateModified": 1700000000,
      "keywords": {"a": 1}, "image": [false, "/ok.png"], "inLanguage": ["en"]}</script>
      <meta property="article:published_time" content="2024-01-01">"""
    result = page("<article><h1>H</h1></article>", head)
    meta = result.meta
    assert meta.title == "H"
    assert meta.authors == ("Ana",)
    assert meta.published == "2024-01-01T00:00:00Z"
    assert meta.modified is None
    assert meta.tags == ()
    assert meta.image == "https://site.example/ok.png"
    assert codes(result).count("bad-json-ld") == 4
    assert codes(result).count("bad-date") == 2


def test_json_ld_author_as_plain_text_and_web_page_fallback() -> None:
    head = ('<script type="application/ld+json">{"@type": "WebPage", "name": "Page name",'
            ' "author": "Ana Ruiz"}</script>')
    meta = page("<p>x</p>", head).meta
    assert (meta.title, meta.authors) == ("Page name", ("Ana Ruiz",))


def test_bad_dates_fall_through_to_the_next_source() -> None:
    head = ('<meta property="article:modified_time" content="last tuesday">'
            '<meta name="dcterms.modified" content="2026-03-14 10:30:00">')
    result = page("<p>x</p>", head)
    assert result.meta.modified == "2026-03-14T10:30:00Z"
    assert codes(result) == ["content-fallback", "bad-date"]


def test_theme_dates_and_authors() -> None:
    material = parse("material.html").meta
    assert material.modified is None  # another tool's reading of git: our own git first
    assert material.revision_date == "2026-03-14T00:00:00Z"  # git-revision-date's "March 14, 2026"
    assert material.published is None  # a git creation date is not a publication date
    assert material.tags == ("setup", "pip")
    blog = parse("material-blog.html")
    assert blog.meta.authors == ("Ana Ruiz",)
    assert (blog.meta.published, blog.meta.modified) == (
        "2024-01-31T00:00:00Z", "2024-02-10T00:00:00Z")
    assert [d.severity for d in blog.diagnostics if d.code == "bad-date"] == ["info"]
    assert parse("docusaurus-doc.html").meta.modified == "2024-05-30T10:00:00Z"
    assert parse("docsy.html").meta.modified == "2023-06-05T12:23:46Z"
    minima = parse("jekyll-minima.html").meta
    assert (minima.authors, minima.published) == (("GitHub User",), "2024-01-05T10:00:00Z")


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        ('<span class="git-revision-date-localized-plugin">2026-03-14 10:30:00</span>',
         "2026-03-14T10:30:00Z"),
        (('<span class="git-revision-date-localized-plugin git-revision-date-localized-plugin-'
         'timeago"><span class="timeago" datetime="2026-03-14T12:30:00+02:00"></span></span>'),
         "2026-03-14T10:30:00Z"),
        (('<aside class="md-source-file"><span class="md-source-file__fact">'
         '<time datetime="2026-03-14">March 14</time></span></aside>'), "2026-03-14T00:00:00Z"),
    ],
)
def test_git_revision_date_forms(markup: str, expected: str) -> None:
    assert page(f"<article><p>x</p>{markup}</article>").meta.revision_date == expected


def test_docusaurus_blog_metadata() -> None:
    meta = parse("docusaurus-blog.html").meta
    assert meta.authors == ("Sébastien Lorber", "Yangshun Tay")
    assert meta.tags == ("Facebook", "Hello", "Docusaurus")
    assert meta.image == "https://site.example/img/social-card.jpg"
    assert meta.published == "2021-08-26T00:00:00Z"


def test_article_tags_split_on_commas_and_author_urls_are_skipped() -> None:
    head = ('<meta property="article:tag" content="a, b">'
            '<meta property="article:author" content="https://facebook.com/ana">'
            '<meta name="author" content="Ana">')
    meta = page("<p>x</p>", head).meta
    assert (meta.tags, meta.authors) == (("a", "b"), ("Ana",))


# --- robust parsing ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "document",
    [b"", b"   \n", "", b"\x00\x00", b"<!-- only a comment -->",
     b'<?xml version="1.0" encoding="utf-8"?>'],
)
def test_empty_documents(document: bytes | str) -> None:
    result = parse_page(document, url=URL)
    assert result.content is None
    assert not has_view(result)
    assert codes(result) == ["empty-page"]
    assert result.no_view == "no-content"


@pytest.mark.parametrize(
    "document",
    [
        b"<html><head><title>T</title></head><body><article><h1>Cut",
        b"<article><p>a\x00b</p></article>",
        b"<article><p>caf\xc3\xa9 \xff\xfe bad</p></article>",
        "<article><p>caf\u00e9 \x00</p></article>",
        (b'<?xml version="1.0" encoding="utf-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml">'
        b"<body><article><h1>XHTML</h1></article></body></html>"),
        b"<html><body><article><p>unclosed <b>bold <i>italic</article></div></span>",
        b"\xef\xbb\xbf<article><h1>BOM</h1></article>",
        '\ufeff<?xml version="1.0" encoding="iso-8859-1"?><article><h1>caf\u00e9</h1></article>',
        "<article><p>lone \ud800 surrogate</p></article>",
    ],
)
def test_broken_documents_never_raise(document: bytes | str) -> None:
    result = parse_page(document, url=URL)
    assert result.content is not None
    assert text_of(result)


def test_a_page_is_decoded_by_its_bom_or_meta_charset_else_utf8() -> None:
    assert decode("café".encode()) == "café"
    assert decode(b"caf\xc3\xa9 \xff") == "café \ufffd"
    assert decode(codecs.BOM_UTF8 + "é".encode()) == "é"
    assert decode(codecs.BOM_UTF16_LE + "é<p>".encode("utf-16-le")) == "é<p>"
    assert decode(b'<meta charset="iso-8859-1">caf\xe9 \x80') == '<meta charset="iso-8859-1">café €'
    assert decode(b'<meta charset="utf-16"><p>caf\xc3\xa9') == '<meta charset="utf-16"><p>café'
    assert decode(b'<meta charset="klingon"><p>caf\xc3\xa9') == '<meta charset="klingon"><p>café'
    shift_jis = '<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">日本'
    assert decode(shift_jis.encode("shift_jis")) == shift_jis


def test_declared_charset_is_used_for_the_page() -> None:
    result = parse("plain.html")
    assert "Coffee at the café, naïvely priced at 3 €." in text_of(result)
    assert "My Site" not in text_of(result)  # the banner <header>, h1 and all
    assert "content-fallback" in codes(result)


def test_a_header_h1_naming_the_site_is_not_the_title_of_a_body_fallback_page() -> None:
    # issue 39: a theme without <main> whose header is an <h1> with the site's name
    page = ('<html><head><title>Tide pools — Shore docs</title></head><body>'
            '<div class="header"><h1>Shore docs</h1></div>'
            '<div class="body"><h1>Tide pools</h1><p>Water.</p></div></body></html>')
    result = parse_page(page, url="https://shore.example/pools.html")
    assert result.meta.title == "Tide pools"
    assert result.meta.site_name == "Shore docs"
    home = page.replace("Tide pools — Shore docs", "Shore docs").replace("Tide pools", "Hi")
    assert parse_page(home, url="https://shore.example/").meta.title == "Shore docs"


# --- pages without a view ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "url", "reason"),
    [
        ('<meta http-equiv="refresh" content="0; url=../new/"><p>Redirecting</p>', URL,
         "redirect"),
        ('<meta name="robots" content="noindex, follow"><article><p>x</p></article>', URL,
         "noindex"),
        ('<meta name="robots" content="NONE"><article><p>x</p></article>', URL, "noindex"),
        ("<article><h1>404 - Not found</h1></article>", "https://s.example/404.html",
         "not-found"),
        ("<article><h1>Oops</h1></article>", "https://s.example/docs/404/", "not-found"),
        (('<meta name="robots" content="noindex" /><div class="body" role="main"><h1>Search'
         '</h1><div id="search-results"></div></div>'), "https://s.example/search.html", "search"),
        ('<div role="main"><div id="mkdocs-search-results" class="search-results"></div></div>',
         "https://s.example/search.html", "search"),
        (('<div role="main"><h1>Index</h1><table class="indextable genindextable"><tr><td>a'
         "</td></tr></table></div>"), "https://s.example/genindex.html", "index"),
        ("<div role=main><h1>Index</h1></div>", "https://s.example/genindex-all.html", "index"),
        (('<div role="main"><table class="indextable modindextable"><tr><td>m</td></tr></table>'
         "</div>"), "https://s.example/py-modindex.html", "index"),
    ],
)
def test_pages_without_a_view(document: str, url: str, reason: str) -> None:
    result = parse_page(document, url=url)
    assert result.no_view == reason
    assert not has_view(result)


def test_noindex_can_be_overridden() -> None:
    result = page("<article><p>x</p></article>", '<meta name="robots" content="noindex">')
    assert not has_view(result)
    assert has_view(result, honor_noindex=False)
    redirect = page("<p>x</p>", '<meta http-equiv="Refresh" content="0;URL=/x/">')
    assert not has_view(redirect, honor_noindex=False)


def test_ordinary_pages_have_a_view() -> None:
    # The mkdocs theme has its search results box on every page, outside the content;
    # an auto-refreshing page without a target URL is not a redirect.
    assert parse("mkdocs.html").no_view is None
    result = page("<article><p>x</p></article>",
                  '<meta http-equiv="refresh" content="300"><meta name="robots" content="all">',
                  url="https://s.example/search-tips/")
    assert result.no_view is None


# --- real builds ------------------------------------------------------------------------

REAL_PAGES = sorted((FIXTURES / "pages").glob("*/*.html"))


def _cleaned_fragment(path: Path) -> lxml.html.HtmlElement:
    """The tool's own content fragment for the page, with the same chrome removed."""
    fragment = FIXTURES / "fragments" / path.parent.name / path.name
    document = f'<html><body><div id="fragment">{fragment.read_text("utf-8")}</div></body></html>'
    result = parse_page(document, url=URL, content_selector="#fragment")
    assert result.content is not None
    return result.content


@pytest.mark.skipif(not REAL_PAGES, reason="no real-theme pages under tests/fixtures/pages")
@pytest.mark.parametrize("path", REAL_PAGES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_real_theme_pages(path: Path) -> None:
    result = parse_page(path.read_bytes(), url=URL)
    content = result.content
    assert content is not None
    assert "content-fallback" not in codes(result)
    assert has_view(result)
    original = lxml.html.document_fromstring(path.read_bytes())
    h1 = select(original, "h1")[0]
    title = " ".join(h1.text_content().replace("¶", "").split())
    assert result.meta.title == title
    assert select(content, "h1")
    assert not select(content, "nav, footer, header, aside:not(.footnote-list):not(.footnote)")
    for chrome in select(original, "body > footer, footer, .md-footer, .footer, nav"):
        words = " ".join(chrome.text_content().split())
        if len(words) > 30:
            assert words not in text_of(result)
    # What stays is the page's content as the build tool handed it to plugins.
    expected = "".join(_cleaned_fragment(path).text_content().split())
    assert "".join(content.text_content().split()) == expected


@pytest.mark.parametrize(
    "path", sorted(THEMES.glob("*.html")) + REAL_PAGES, ids=lambda p: f"{p.parent.name}/{p.stem}"
)
def test_class_shortcut_changes_nothing(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = parse_page(path.read_bytes(), url=URL)
    def plain(root: Any, selector: str, source: str | None) -> Any:
        return select(root, selector)

    for module in (extract, contents, metasources):
        monkeypatch.setattr(module, "select_in", plain)
    slow = parse_page(path.read_bytes(), url=URL)
    assert html_of(slow) == html_of(fast)
    assert (slow.meta, slow.no_view, slow.diagnostics) == (fast.meta, fast.no_view,
                                                           fast.diagnostics)


_SELECTORS = sorted({
    *(rule.selector for rule in CONTENT_RULES), *(rule.unless for rule in CONTENT_RULES),
    *(rule.selector for rule in CHROME_RULES), *(rule.keep for rule in CHROME_RULES),
    "[itemprop~=author]", ".md-sidebar--post .md-post__meta time[datetime]",
    "input:not([type=checkbox]), .x", '[content="a,b"], p', "#furo-main-content",
    "[aria-label=Breadcrumbs], .headerlink", "p",
} - {None, ""})
_PAGES = sorted((Path(__file__).parent / "fixtures").rglob("*.html"))


@pytest.mark.parametrize("path", _PAGES, ids=lambda p: p.name)
def test_select_in_answers_as_select_does(path: Path) -> None:
    """Leaving out the selector parts a page's source cannot match changes no answer."""
    text = decode(path.read_bytes())
    root = lxml.html.document_fromstring(text.encode("utf-8"))
    for selector in _SELECTORS:
        assert select_in(root, selector, text.lower()) == select(root, selector), selector


_FULL_PAGES = sorted(THEMES.glob("*.html")) + sorted((FIXTURES / "pages").rglob("*.html"))


@pytest.mark.parametrize("path", _FULL_PAGES, ids=lambda path: path.stem)
def test_the_content_tree_converts_as_its_html_would(path: Path) -> None:
    """``agentprose build`` converts the extracted tree itself: the same Conversion as
    writing the content out and converting that fragment."""
    from agentprose_core.characters import has_unsafe_characters
    from agentprose_core.convert.fragment import convert_element, convert_fragment
    from agentprose_core.convert.tree import detached, to_html
    from agentprose_core.settings import Settings

    text = decode(path.read_bytes())
    written, kept = parse_page(text, url=URL).content, parse_page(text, url=URL).content
    if written is None or kept is None:
        pytest.skip("no content")
    assert not has_unsafe_characters(text)
    views = {"https://site.example/guide/other/": "https://site.example/guide/other.md"}
    as_fragment = convert_fragment(to_html(written), page_url=URL, site_map=views,
                                   settings=Settings())
    assert convert_element(detached(kept), page_url=URL, site_map=views,
                           settings=Settings()) == as_fragment


def test_agentprose_build_cleans_control_characters_as_a_plugin_does(tmp_path: Path) -> None:
    from agentprose_core.build.postbuild import build_site
    from agentprose_core.settings import Settings

    (tmp_path / "index.html").write_text(
        "<html><head><title>T</title></head><body><main><h1>T\x01itle</h1>"
        "<p>x\x07y and \x1fz</p></main></body></html>", encoding="utf-8")
    build_site(tmp_path, base_url="https://site.example/", settings=Settings(workers=False))
    view = (tmp_path / "index.md").read_text(encoding="utf-8")
    assert view.endswith("# Title\n\nxy and z\n")
    index = json.loads((tmp_path / "agentprose.json").read_text(encoding="utf-8"))
    assert index["posts"][0]["headings"][0]["title"] == "Title"


@pytest.mark.parametrize("path", _FULL_PAGES, ids=lambda path: path.stem)
def test_chrome_rules_checked_on_the_content_s_text_find_what_the_page_s_text_finds(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def outcome() -> tuple[object, ...]:
        found = parse_page(path.read_bytes(), url=URL)
        content = lxml.html.tostring(found.content) if found.content is not None else None
        return content, found.meta, found.diagnostics, found.no_view

    narrowed = outcome()
    monkeypatch.setattr(contents, "_text_of_element", lambda text, element: None)
    assert narrowed == outcome()


def test_the_content_s_text_spans_its_lines_and_gives_up_on_carriage_returns() -> None:
    text = ('<html><body>\n<nav class="md-top">n</nav>\n<main>\n<p class="inner">x</p>\n'
            '</main>\n<footer class="after">f</footer>\n</body></html>')
    root = lxml.html.document_fromstring(text)
    main = root.find(".//main")
    own = contents._text_of_element(text, main)
    assert own is not None
    assert "inner" in own
    assert "md-top" not in own
    footer = root.find(".//footer")
    last = contents._text_of_element(text, footer)  # nothing follows: to the end
    assert last is not None
    assert "</html>" in last.text
    assert contents._text_of_element(text.replace("\n", "\r\n"), main) is None
    chrome = page('<main><p>Text</p><a class="md-top" href="#">Back to top</a></main>')
    assert chrome.content is not None
    assert b"Back to top" not in lxml.html.tostring(chrome.content)


def test_a_page_too_deep_to_parse_keeps_what_follows_the_deep_part() -> None:
    from agentprose_core.convert.tree import all_text
    from agentprose_core.extract.page import parse_page

    html = ("<html><head><title>T</title></head><body><main><h1>Top</h1>"
            + "<div>" * 3000 + "deep" + "</div>" * 3000
            + "<h2>After</h2><p>tail text</p></main></body></html>")
    page = parse_page(html, url="https://docs.example.org/deep/")
    assert page.content is not None
    text = all_text(page.content)
    assert "deep" in text
    assert "tail text" in text


def test_a_comment_widget_is_chrome() -> None:
    # ablog's Disqus block, inside the theme's content container after the post
    result = page('<div role="main"><h1>Post</h1><p>Text.</p>'
                  '<div class="section ablog__blog_comments"><div class="section ablog__prev-next">'
                  '<span class="ablog__prev"><a href="a.html">Older post</a></span></div>'
                  '<div class="section ablog__comments">'
                  '<h2>Comments</h2><div id="disqus_thread"></div><noscript>Enable JavaScript'
                  '</noscript><a href="https://disqus.com" class="dsq-brlink">comments powered by'
                  " Disqus</a></div></div></div>")
    assert result.content is not None
    text = result.content.text_content()
    assert "Text." in text
    assert "Comments" not in text
    assert "Disqus" not in text
    assert "Older post" not in text


def test_pagefind_metadata_is_chrome() -> None:
    # PEPs: the title again in <main>, for Pagefind's index, visually hidden
    result = page('<main><span data-pagefind-meta="title:PEP 8" class="visually-hidden">PEP 8'
                  "</span><h1>PEP 8 – Style Guide</h1><p>Text.</p></main>")
    assert result.content is not None
    assert result.content.text_content().count("PEP 8") == 1
