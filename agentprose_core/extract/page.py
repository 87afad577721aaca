"""The main content of a full themed page, without its chrome, and the page's metadata.

``agentprose build`` post-processes finished sites from any generator, so it gets
whole pages: header, sidebars, footer and all. :func:`parse_page` parses a page once,
picks its main content element by :data:`CONTENT_RULES` (theme containers first, then
generic HTML5 landmarks, then ``<body>``), removes what :data:`CHROME_RULES` lists
from it, and reads the page's metadata (:mod:`.pagemeta` says from where).
"""

from __future__ import annotations

import codecs
import posixpath
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

import lxml.html
from cssselect import SelectorError
from lxml import etree

from agentprose_core.characters import clean_markup
from agentprose_core.convert.shallow import shallow_markup, too_deep
from agentprose_core.convert.tree import PageText, select, select_in, text_of
from agentprose_core.diagnostics import Diagnostic
from agentprose_core.errors import ConfigError
from agentprose_core.extract.headmeta import PageMeta, read_meta

if TYPE_CHECKING:
    from collections.abc import Container, Iterator

__all__ = [
    "CHROME_RULES",
    "CONTENT_RULES",
    "ChromeRule",
    "ContentRule",
    "ExtractedPage",
    "PageMeta",
    "check_selector",
    "decode",
    "has_view",
    "parse_page",
    "without_large_navs",
]


@dataclass(frozen=True)
class ContentRule:
    """Where a theme (or a family of themes) puts a page's main content.

    A ``single`` rule is a generic one: it is used only when exactly one element
    matches and that element holds something. A match that contains an element
    matching ``unless`` is a wrapper around the page, not its content, and is skipped.
    """

    selector: str
    themes: str
    single: bool = False
    unless: str | None = None


# First match wins. Theme containers hold the article only; generic ones come last.
CONTENT_RULES: tuple[ContentRule, ...] = (
    ContentRule("article.md-content__inner", "Material for MkDocs, Zensical"),
    ContentRule("div.theme-doc-markdown", "Docusaurus docs"),
    ContentRule("#__blog-post-container", "Docusaurus blog posts"),
    ContentRule(".rst-content div[itemprop=articleBody]", "Read the Docs (Sphinx, MkDocs)"),
    ContentRule(".rst-content div[role=main]", "Read the Docs, old versions"),
    ContentRule("article.bd-article", "pydata-sphinx-theme, sphinx-book-theme"),
    ContentRule("#furo-main-content, .article-container article[role=main]", "Furo"),
    ContentRule("div.body[role=main]", "Alabaster, Sphinx's classic and basic themes"),
    ContentRule("div.col-md-9[role=main]", "MkDocs default theme"),
    ContentRule("article.book-article", "Hugo Book"),
    ContentRule("main div.td-content", "Docsy (Hugo)", single=True),
    ContentRule("[itemprop~=articleBody]", "microdata: Docusaurus 2 blog, Minima", single=True),
    ContentRule(".post-content", "Jekyll Minima, Hugo PaperMod", single=True),
    ContentRule("main article", "Hugo themes", single=True),
    ContentRule("article", "HTML5 pages", single=True),
    ContentRule("#content", "Hugo, Jekyll", single=True, unless="main, [role=main]"),
    ContentRule(".content", "Hugo, Jekyll", single=True, unless="main, [role=main]"),
    ContentRule(".page-content", "Jekyll", single=True, unless="main, [role=main]"),
    ContentRule("main", "HTML5 pages", single=True),
    ContentRule("[role=main]", "ARIA landmarks", single=True),
)


@dataclass(frozen=True)
class ChromeRule:
    """Elements inside the content that are not content.

    Elements that also match ``keep`` stay. ``keep`` is matched against the whole
    page, so it can look at ancestors outside the content element.
    """

    selector: str
    keep: str | None = None


_HEADINGS = "h1, h2, h3, h4, h5, h6"
# A <header> is the site's banner unless it sits in an article, main or section;
# there it is the article's own header, and one with a heading is content.
_ARTICLE_HEADER = ", ".join(f"{a} header:has({_HEADINGS})" for a in ("article", "main", "section"))

CHROME_RULES: tuple[ChromeRule, ...] = (
    ChromeRule("script, style, noscript, template, link, meta, dialog"),
    ChromeRule("nav, [role=navigation], [role=search], [role=banner], [role=contentinfo]"),
    ChromeRule("header", keep=_ARTICLE_HEADER),
    ChromeRule("footer", keep="blockquote footer, figure footer"),
    # Sphinx (docutils) writes footnotes, `.. sidebar::` and `.. topic::` as <aside>.
    ChromeRule("aside", keep="aside.footnote, aside.footnote-list, aside.sidebar, aside.topic"),
    ChromeRule("button", keep="[role=tab]"),  # sphinx-tabs labels are buttons
    ChromeRule("form"),
    # Inactive panels of content tabs are content (see hidden.py; normalize drops the
    # rest of what is hidden, in the same way for every front-end).
    ChromeRule("[hidden]", keep="[role=tabpanel]"),
    ChromeRule("[aria-hidden=true]", keep="[role=tabpanel]"),
    ChromeRule("[data-ignore]"),
    ChromeRule(".agentprose-ignore"),
    ChromeRule(  # permalinks
        ".headerlink, a.anchor, a.hash-link, a.anchorjs-link, a.anchor-heading,"
        " a.td-heading-self-link, a.subheading-anchor"
    ),
    ChromeRule(  # Material for MkDocs
        "a.md-content__button, .md-source-file, .md-feedback, .md-tags, .md-top, .md-skip,"
        " .md-post__action, #__comments"
    ),
    ChromeRule(  # Furo, pydata-sphinx-theme, Read the Docs, Sphinx
        ".edit-this-page, .view-this-page, .theme-toggle-container, .content-icon-container,"
        " .back-to-top, .skip-to-content, .prev-next-area, .bd-header-article,"
        " .rst-footer-buttons, .rst-breadcrumbs-buttons, .sphinxsidebar"
    ),
    ChromeRule(  # Docusaurus, Docsy, Hugo and Jekyll themes
        ".theme-doc-toc-mobile, .theme-doc-footer, .theme-edit-this-page, .theme-last-updated,"
        " .theme-doc-version-badge, .theme-doc-version-banner, .pagination-nav,"
        " .td-page-meta__lastmod, #top-link, .top-link, #back-to-top"
    ),
    ChromeRule(  # breadcrumbs and cookie notices, whatever the theme; but a heading's
        # id is its slug: a section titled "Cookie consent" is content
        ".breadcrumb, .breadcrumbs, .wy-breadcrumbs, .theme-doc-breadcrumbs, .md-path,"
        " .md-consent, .cookie-notice, #cookie-notice, .cookie-consent, #cookie-consent",
        keep=_HEADINGS,
    ),
    ChromeRule("[aria-label=breadcrumb], [aria-label=breadcrumbs], [aria-label=Breadcrumbs]"),
)

# Pages that get no agent view, and how to tell them.
_REDIRECT = re.compile(r"url\s*=", re.IGNORECASE)
_SEARCH_PAGE = "#search-results, #mkdocs-search-results"
_INDEX_PAGE = "table.indextable"
_INDEX_STEMS = ("genindex", "py-modindex", "modindex")

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))
_CHARSET = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)""", re.IGNORECASE)
_WINDOWS_1252 = ("iso-8859-1", "iso8859-1", "latin-1", "latin1", "l1", "ascii", "us-ascii")
_MEDIA = "img, svg, video, picture, table, pre"


@dataclass(frozen=True)
class ExtractedPage:
    """A parsed page: its main content element, its metadata, what went wrong.

    ``content`` is still part of the parsed tree, with the chrome removed. ``no_view``
    says why the page must not get an agent view (``"redirect"``, ``"noindex"``,
    ``"not-found"``, ``"search"``, ``"index"``, ``"no-content"``), None when it should.
    """

    content: lxml.html.HtmlElement | None
    meta: PageMeta
    diagnostics: tuple[Diagnostic, ...] = ()
    no_view: str | None = None


def parse_page(
    document: bytes | str, *, url: str, content_selector: str | None = None
) -> ExtractedPage:
    """Parse a full HTML page and find its main content and metadata.

    Broken input (truncated HTML, NUL bytes, undecodable bytes, bad JSON-LD, bad
    dates) never raises: it is read as far as it goes and reported as diagnostics.
    Only an invalid ``content_selector`` raises :class:`ConfigError`.
    """
    if content_selector is not None:
        check_selector(content_selector)
    diagnostics: list[Diagnostic] = []
    text = decode(document) if isinstance(document, bytes) else document
    root = _parse(text)
    source = PageText(text)  # for select_in: selectors naming classes the page lacks
    if root is None:
        diagnostics.append(Diagnostic("empty-page", "The page is empty.", url))
        return ExtractedPage(None, PageMeta(), tuple(diagnostics), no_view="no-content")
    content = _find_content(root, content_selector, url, diagnostics, source)
    no_view = _no_view(root, content, url, source)
    chrome = [] if content is None else _chrome(content, source, _text_of_element(text, content))
    h1 = _first_heading(content, set(chrome)) if content is not None else None
    meta, meta_diagnostics = read_meta(root, url=url, h1=h1, source=source)
    for element in chrome:
        if element.getparent() is not None:
            element.drop_tree()
    diagnostics.extend(meta_diagnostics)
    return ExtractedPage(content, meta, tuple(diagnostics), no_view)


LARGE_NAV = 16384
"""A ``<nav>`` longer than this many characters is a site's navigation, not content."""
# The "<" outside the alternatives: a quarter faster over a page than one per branch.
_NAV_OR_OPAQUE = re.compile(
    r"<(?:(/?)nav(?=[\s/>])[^>]*>|s(?:cript\b.*?</script|tyle\b.*?</style)\s*>|!--.*?-->)",
    re.IGNORECASE | re.DOTALL,
)


def without_large_navs(text: str) -> str:
    """``text`` with each outermost ``<nav>`` longer than :data:`LARGE_NAV` emptied.

    Themes such as Material render the whole site's navigation into every page: on a
    1,000-page site that is most of each page's bytes, and parsing it costs far more
    than the content. The element stays, empty, with its attributes. Scripts, styles
    and comments are skipped over, so a ``<nav`` inside them is not taken for a tag.
    """
    pieces: list[str] = []
    depth = 0
    opened = (0, 0)  # where the outermost open <nav ...> starts and ends
    kept_until = 0
    for match in _NAV_OR_OPAQUE.finditer(text):
        if match.group(0)[1:4].lower() not in ("nav", "/na"):
            continue
        if match.group(1) != "/":
            if depth == 0:
                opened = (match.start(), match.end())
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0 and match.end() - opened[0] > LARGE_NAV:
                pieces.append(text[kept_until : opened[1]])
                kept_until = match.start()
    pieces.append(text[kept_until:])
    return "".join(pieces)


def has_view(page: ExtractedPage, *, honor_noindex: bool = True) -> bool:
    """True when the page gets an agent view.

    Redirect stubs, 404 and search pages, Sphinx's general and module indexes and
    pages without content never do. Pages marked ``noindex`` for robots don't either,
    unless ``honor_noindex`` is false (a site that is noindex as a whole, say).
    """
    if page.no_view == "noindex":
        return not honor_noindex
    return page.no_view is None


def check_selector(selector: str) -> None:
    """Raise :class:`ConfigError` when ``selector`` is not a CSS selector we can use."""
    try:
        select(lxml.html.Element("div"), selector)
    except (SelectorError, etree.LxmlError) as error:
        raise ConfigError(
            f"agentprose option 'content_selector' is not a valid CSS selector: "
            f"{selector!r} ({error})."
        ) from error


def decode(document: bytes) -> str:
    """A page's bytes as text, as a browser would read them.

    The byte order mark wins, then ``<meta charset>`` (or ``http-equiv``) in the
    first 4 KiB, else UTF-8; bytes that don't decode become U+FFFD.
    """
    for bom, codec in _BOMS:
        if document.startswith(bom):
            return document.decode(codec, errors="replace")
    return document.decode(_declared_charset(document[:4096]), errors="replace")


def _declared_charset(head: bytes) -> str:
    match = _CHARSET.search(head)
    if not match:
        return "utf-8"
    label = match.group(1).decode("ascii", errors="replace").lower()
    if label in _WINDOWS_1252:
        return "cp1252"  # what browsers do with these labels
    if label.startswith(("utf-16", "utf-32")):
        return "utf-8"  # a <meta> that can be read as ASCII is not UTF-16
    try:
        return codecs.lookup(label).name
    except LookupError:
        return "utf-8"


# Every element an HtmlElement, chosen in C: lxml.html's own lookup calls Python for
# each element Python touches (a fifth of converting a page of highlighted code) to
# pick form classes nothing here uses.
_HTML_ELEMENTS = etree.ElementDefaultClassLookup(
    element=lxml.html.HtmlElement, comment=lxml.html.HtmlComment,
    pi=lxml.html.HtmlProcessingInstruction, entity=lxml.html.HtmlEntity,
)


def _parse(text: str) -> lxml.html.HtmlElement | None:
    # lxml gets UTF-8 with the encoding said explicitly, so that no declaration in the
    # page (<meta charset>, <?xml encoding?>) can make it decode the text a second time.
    # No output may hold a control character or a noncharacter: none enters the tree.
    data = clean_markup(text).lstrip("\ufeff").encode("utf-8", errors="replace")
    if not data.strip():
        return None
    parser = etree.HTMLParser(  # collect_ids=False: see tree._PARSER
        encoding="utf-8", remove_comments=True, remove_pis=True, huge_tree=True,
        collect_ids=False,
    )
    parser.set_element_class_lookup(_HTML_ELEMENTS)
    try:
        root: lxml.html.HtmlElement = lxml.html.document_fromstring(data, parser=parser)
        if too_deep(parser.error_log):  # libxml2 dropped all after the deep point
            data = shallow_markup(data.decode("utf-8")).encode("utf-8")
            root = lxml.html.document_fromstring(data, parser=parser)
    except (etree.LxmlError, ValueError):
        return None
    return root


# --- the content element ----------------------------------------------------------


def _find_content(
    root: lxml.html.HtmlElement, selector: str | None, url: str,
    diagnostics: list[Diagnostic], source: Container[str],
) -> lxml.html.HtmlElement | None:
    if selector is not None:
        found = select(root, selector)
        if not found:
            diagnostics.append(Diagnostic(
                "no-content", f"No element matches the content selector {selector!r}.", url
            ))
        return found[0] if found else None
    for rule in CONTENT_RULES:
        element = _match(root, rule, source)
        if element is not None:
            return element
    body = root.find("body")
    if body is None:
        diagnostics.append(Diagnostic("no-content", "The page has no <body>.", url))
        return None
    diagnostics.append(Diagnostic(
        "content-fallback",
        "No known content container on this page: using all of <body>. "
        "Set `content_selector` to the element that holds the content.",
        url, severity="info",
    ))
    return body


def _match(
    root: lxml.html.HtmlElement, rule: ContentRule, source: Container[str]
) -> lxml.html.HtmlElement | None:
    found = select_in(root, rule.selector, source)
    if rule.unless:
        found = [element for element in found if not select_in(element, rule.unless, source)]
    if not rule.single:
        return found[0] if found else None
    if len(found) == 1 and (text_of(found[0]) or select(found[0], _MEDIA)):
        return found[0]
    return None


# --- chrome --------------------------------------------------------------------------


def _chrome(
    content: lxml.html.HtmlElement, source: Container[str], own: Container[str] | None,
) -> list[lxml.html.HtmlElement]:
    """The elements under ``content`` that the rules remove, in document order.

    ``source`` is the page's text, ``own`` the part of it that holds ``content`` (None
    when not known): rules are looked for in ``content`` only if it names what they
    need, their ``keep`` exceptions anywhere in the page."""
    page = content.getroottree().getroot()
    inside = own if own is not None else source
    doomed: dict[lxml.html.HtmlElement, None] = {}
    for rule in CHROME_RULES:
        found = [e for e in _chrome_matches(content, rule.selector, inside) if e is not content]
        kept = set(select_in(page, rule.keep, source)) if found and rule.keep else set()
        doomed.update((element, None) for element in found if element not in kept)
    return sorted(doomed, key=_document_order)


def _text_of_element(text: str, element: lxml.html.HtmlElement) -> PageText | None:
    """The lines of ``text`` from ``element``'s start tag to the start tag of the
    element that follows it: all of its HTML and a little more. None when the parser's
    line numbers cannot be trusted to match ``text``'s lines (carriage returns)."""
    following = next(element.itersiblings(), None)
    for ancestor in element.iterancestors():
        if following is not None:
            break
        following = next(ancestor.itersiblings(), None)
    first = element.sourceline
    last = following.sourceline if following is not None else None
    if "\r" in text or first is None or (last is not None and last < first):
        return None
    start = _line_start(text, first)
    return PageText(text[start:_line_start(text, last + 1, start, first)] if last else text[start:])


def _line_start(text: str, line: int, offset: int = 0, at_line: int = 1) -> int:
    """Where line number ``line`` (1 is the first) of ``text`` starts, counting from
    ``offset``, the start of line ``at_line``."""
    for _ in range(line - at_line):
        offset = text.find("\n", offset) + 1
        if offset == 0:
            return len(text)
    return offset


def _document_order(element: lxml.html.HtmlElement) -> tuple[int, ...]:
    """A key that sorts elements of one tree in document order: the child indexes on
    the way down (cheaper than numbering the whole tree for a few elements)."""
    path = []
    child = element
    for parent in element.iterancestors():
        path.append(parent.index(child))
        child = parent
    return tuple(reversed(path))


_BARE_TAG = re.compile(r"[a-z][a-z0-9]*")


def _chrome_matches(
    content: lxml.html.HtmlElement, selector: str, source: Container[str]
) -> list[lxml.html.HtmlElement]:
    """What ``selector`` matches under ``content``, in no particular order: its bare-tag
    parts by a walk in C, the rest as CSS (skipped when the page lacks their names)."""
    parts = [part.strip() for part in selector.split(",")]
    tags = [part for part in parts if _BARE_TAG.fullmatch(part)]
    rest = ", ".join(part for part in parts if not _BARE_TAG.fullmatch(part))
    found: list[lxml.html.HtmlElement] = list(content.iter(*tags)) if tags else []
    return found + (select_in(content, rest, source) if rest else [])


def _first_heading(
    content: lxml.html.HtmlElement, chrome: set[lxml.html.HtmlElement]
) -> str | None:
    """The text of the first ``<h1>`` that stays, without permalinks and other chrome."""
    for h1 in content.iter("h1"):
        if any(a in chrome for a in h1.iterancestors()) or h1 in chrome:
            continue
        text = " ".join("".join(_text_without(h1, chrome)).split())
        if text:
            return text
    return None


def _text_without(
    element: lxml.html.HtmlElement, chrome: set[lxml.html.HtmlElement]
) -> Iterator[str]:
    if element.text:
        yield element.text
    for child in element:
        if child not in chrome and isinstance(child.tag, str):
            yield from _text_without(child, chrome)
        if child.tail:
            yield child.tail


# --- pages without a view -------------------------------------------------------------


def _no_view(
    root: lxml.html.HtmlElement, content: lxml.html.HtmlElement | None, url: str,
    source: Container[str],
) -> str | None:
    """Why the page gets no agent view; ``noindex`` last, since it can be overridden."""
    noindex = False
    for meta in root.iter("meta"):
        value = (meta.get("content") or "").lower()
        if (meta.get("http-equiv") or "").lower() == "refresh" and _REDIRECT.search(value):
            return "redirect"
        if (meta.get("name") or "").lower() == "robots":
            noindex = noindex or bool({"noindex", "none"} & set(re.split(r"[\s,]+", value)))
    stem = posixpath.splitext(posixpath.basename(unquote(urlsplit(url).path).rstrip("/")))[0]
    if stem == "404":
        return "not-found"
    if content is None:
        return "no-content"
    if select_in(content, _SEARCH_PAGE, source):
        return "search"
    if stem.startswith(_INDEX_STEMS) or select_in(content, _INDEX_PAGE, source):
        return "index"
    return "noindex" if noindex else None
