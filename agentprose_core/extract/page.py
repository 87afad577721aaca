"""The main content of a full themed page, without its chrome, and the page's metadata.

``agentprose build`` post-processes finished sites from any generator, so it gets
whole pages: header, sidebars, footer and all. :func:`parse_page` decodes and parses a
page once, picks its main content element and removes the chrome inside it (the rules
are in :mod:`.content`), reads the page's metadata (:mod:`.headmeta` says from where),
and says whether the page gets an agent view.
"""

from __future__ import annotations

import codecs
import posixpath
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

import lxml.html
from lxml import etree

from agentprose_core.characters import clean_markup
from agentprose_core.convert.flatcode import flat_code_tokens
from agentprose_core.convert.shallow import shallow_markup, too_deep
from agentprose_core.convert.tree import PageText, select_in
from agentprose_core.diagnostics import Diagnostic
from agentprose_core.extract.content import (
    check_selector,
    find_chrome,
    find_content,
    first_heading,
)
from agentprose_core.extract.headmeta import PageMeta, read_meta

if TYPE_CHECKING:
    from collections.abc import Container

__all__ = [
    "LARGE_NAV",
    "ExtractedPage",
    "decode",
    "has_view",
    "parse_page",
    "without_large_navs",
]


# Pages that get no agent view, and how to tell them.
_REDIRECT = re.compile(r"url\s*=", re.IGNORECASE)
_SEARCH_PAGE = "#search-results, #mkdocs-search-results"
_INDEX_PAGE = "table.indextable"
_INDEX_STEMS = ("genindex", "py-modindex", "modindex")

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))
_CHARSET = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)""", re.IGNORECASE)
_WINDOWS_1252 = ("iso-8859-1", "iso8859-1", "latin-1", "latin1", "l1", "ascii", "us-ascii")


@dataclass(frozen=True)
class ExtractedPage:
    """A parsed page: its main content element, its metadata, what went wrong.

    ``content`` is still part of the parsed tree, with the chrome removed. ``no_view``
    says why the page must not get an agent view (``"redirect"``, ``"noindex"``,
    ``"not-found"``, ``"search"``, ``"index"``, ``"no-content"``, ``"template"``), None
    when it should.
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
    Only an invalid ``content_selector`` raises :class:`~agentprose_core.errors.ConfigError`.
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
    if _is_template(source):
        # A theme's template copied into the site (docs/theme/main.html), not a page.
        diagnostics.append(Diagnostic(
            "not-a-page", "This HTML file is a template ({% … %} or {{ … }}, no <html> or "
            "<body>), not a page, so it gets no agent view.", url, severity="info"))
        return ExtractedPage(None, PageMeta(), tuple(diagnostics), no_view="template")
    content = find_content(root, content_selector, url, diagnostics, source)
    no_view = _no_view(root, content, url, source)
    chrome = [] if content is None else find_chrome(content, text, source)
    h1 = first_heading(content, set(chrome)) if content is not None else None
    meta, meta_diagnostics = read_meta(root, url=url, h1=h1, source=source)
    if content is not None and h1 is not None and _header_title(meta, h1, diagnostics):
        # All of <body>: its first <h1> was the theme's header, naming the site.
        later = first_heading(content, set(chrome), not_=h1)
        meta, meta_diagnostics = read_meta(root, url=url, h1=later, source=source)
    for element in chrome:
        if element.getparent() is not None:
            element.drop_tree()
    diagnostics.extend(meta_diagnostics)
    return ExtractedPage(content, meta, tuple(diagnostics), no_view)


def _header_title(meta: PageMeta, h1: str, diagnostics: list[Diagnostic]) -> bool:
    """True when the title read is an ``<h1>`` that names the site, in a page whose
    content fell back to the whole body."""
    return (meta.title == h1 and meta.site_name is not None
            and h1.casefold() == meta.site_name.casefold()
            and any(d.code == "content-fallback" for d in diagnostics))


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
    data = flat_code_tokens(clean_markup(text)).lstrip("\ufeff").encode("utf-8", errors="replace")
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



# --- pages without a view -------------------------------------------------------------


def _is_template(source: Container[str]) -> bool:
    """True for a Jinja, Liquid or Go template: template tags, and none of the parts
    (``<!doctype``, ``<html>``, ``<body>``) a generator's page has at least one of."""
    return ("{%" in source or "{{" in source) and not any(
        part in source for part in ("<!doctype", "<html", "<body"))


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
