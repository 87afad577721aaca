"""Where a themed page's main content is, and what inside it is chrome.

:data:`CONTENT_RULES` name the element that holds a page's content (theme containers
first, then generic HTML5 landmarks; :func:`find_content` falls back to ``<body>``),
:data:`CHROME_RULES` what inside it is not content (:func:`find_chrome`). Both work
on a page :mod:`.page` parsed, and skip the selectors whose names the page's source
lacks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import lxml.html
from cssselect import SelectorError
from lxml import etree

from agentprose_core.convert.tree import PageText, select, select_in, text_of
from agentprose_core.diagnostics import Diagnostic
from agentprose_core.errors import ConfigError

if TYPE_CHECKING:
    from collections.abc import Container, Iterator

__all__ = [
    "CHROME_RULES",
    "CONTENT_RULES",
    "ChromeRule",
    "ContentRule",
    "check_selector",
    "fallbacks_together",
    "find_chrome",
    "find_content",
    "first_heading",
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
    # A block for agents only is content however it is hidden; one for people only never.
    ChromeRule("[hidden]", keep="[role=tabpanel], [data-agent-only], .agent-only"),
    ChromeRule("[aria-hidden=true]", keep="[role=tabpanel], [data-agent-only], .agent-only"),
    ChromeRule("[data-ignore], [data-human-only], .human-only"),
    ChromeRule("[data-pagefind-meta], [data-pagefind-ignore]"),  # for the search index
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
    ChromeRule(  # what a blog theme adds after a post: links to the posts before and
        # after it, and comment widgets (ablog's Disqus block, giscus, utterances)
        ".ablog__prev-next, .ablog__comments, #disqus_thread, a.dsq-brlink, .giscus,"
        " .giscus-frame, .utterances, #isso-thread"
    ),
)

_MEDIA = "img, svg, video, picture, table, pre"


def check_selector(selector: str) -> None:
    """Raise :class:`ConfigError` when ``selector`` is not a CSS selector we can use."""
    try:
        select(lxml.html.Element("div"), selector)
    except (SelectorError, etree.LxmlError) as error:
        raise ConfigError(
            f"agentprose option 'content_selector' is not a valid CSS selector: "
            f"{selector!r} ({error})."
        ) from error


# --- the content element ----------------------------------------------------------


def find_content(
    root: lxml.html.HtmlElement, selector: str | None, url: str,
    diagnostics: list[Diagnostic], source: Container[str],
) -> lxml.html.HtmlElement | None:
    """The element that holds the page's content: the one ``selector`` names when
    given, else the first of :data:`CONTENT_RULES` that matches, else ``<body>``; what
    went wrong is added to ``diagnostics``. ``source`` is the page's :class:`PageText`."""
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
        url,
    ))
    return body


def fallbacks_together(diagnostics: list[Diagnostic], pages: int) -> list[Diagnostic]:
    """``diagnostics`` with every page's ``content-fallback`` as one warning for the
    site, naming the first few pages: a theme without ``<main>`` has none on any page."""
    fallen = [d.location or "" for d in diagnostics if d.code == "content-fallback"]
    if not fallen:
        return diagnostics
    named = ", ".join(fallen[:_NAMED]) + (
        f" and {len(fallen) - _NAMED} more" if len(fallen) > _NAMED else "")
    together = Diagnostic(
        "content-fallback",
        f"{len(fallen)} of {pages} pages have no known content container (<main>, "
        f"<article>, a theme's content element), so all of <body> became their views, "
        f"header and navigation included, and their titles may be the site's name: "
        f"{named}. Set `content_selector` (`--content-selector`) to the element that "
        "holds the content.")
    kept = [d for d in diagnostics if d.code != "content-fallback"]
    return [together, *kept]


_NAMED = 5


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


def find_chrome(
    content: lxml.html.HtmlElement, text: str, source: Container[str],
) -> list[lxml.html.HtmlElement]:
    """The elements under ``content`` that the rules remove, in document order.

    ``text`` is the page's HTML and ``source`` its :class:`PageText`: rules are looked
    for in ``content`` only if the part of ``text`` that holds it names what they need,
    their ``keep`` exceptions anywhere in the page."""
    page = content.getroottree().getroot()
    own = _text_of_element(text, content)
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


def first_heading(
    content: lxml.html.HtmlElement, chrome: set[lxml.html.HtmlElement], *, not_: str | None = None
) -> str | None:
    """The text of the first ``<h1>`` that stays, without permalinks and other chrome;
    with ``not_``, the first whose text is not that (case aside)."""
    for h1 in content.iter("h1"):
        if any(a in chrome for a in h1.iterancestors()) or h1 in chrome:
            continue
        text = " ".join("".join(_text_without(h1, chrome)).split())
        if text and (not_ is None or text.casefold() != not_.casefold()):
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

