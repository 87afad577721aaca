"""The line at the top of a page's ``<body>`` that points agents at its view.

Many fetchers drop the ``<head>`` (and its ``<link>`` tags) before a model reads the page,
so each page with a view also starts its body with one short line linking the view and
the ``llms.txt`` that covers the page::

    <div data-agentprose-hint style="…">For AI agents: <a href="…/tide-pools.md"
    tabindex="-1">this page as Markdown</a>, <a href="…/llms.txt" tabindex="-1">llms.txt</a>
    </div>

What it costs people, kept small on purpose:

- It is visually hidden with the clip technique, not ``display: none`` or ``hidden``:
  fetchers that drop what a browser would not show would drop those too, and hiding
  text from everyone but robots reads as cloaking to search engines.
- Screen readers read it once, first, in six words and two links; ``aria-hidden`` would
  spare them that, but readers that clean up HTML for models (Readability and its ports)
  drop ``aria-hidden`` content, which is the audience of the line.
- Its links are out of the tab order (``tabindex="-1"``): a keyboard user never lands
  on something they cannot see.
- It is outside the page's content, so no content extractor (ours included) takes it
  for part of the article.
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING
from urllib.parse import quote

from agentprose_core.model import LLMS_NAME
from agentprose_core.phrases import phrases_for
from agentprose_core.records.scopes import describedby_url
from agentprose_core.urls import base_url_of

if TYPE_CHECKING:
    from agentprose_core.model import PageRecord, SiteRecord
    from agentprose_core.settings import Settings

__all__ = [
    "HINT_MARKER", "body_hint", "hint_position", "insert_hint", "insert_hint_bytes",
    "without_hint",
]

HINT_MARKER = "data-agentprose-hint"
_URL_SAFE = ":/?#[]@!$&'()*+,;=%~"
_STYLE = ("position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;"
          "clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0")
# <body> with any attributes, quoted values holding ">" included.
_BODY = r"""<body(?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?>"""
_BODY_TEXT = re.compile(_BODY, re.IGNORECASE)
_BODY_BYTES = re.compile(_BODY.encode(), re.IGNORECASE)
_HINT_BYTES = re.compile(rb"<div " + HINT_MARKER.encode() + rb"[\s>].*?</div>\n?", re.DOTALL)


def body_hint(page: PageRecord, site: SiteRecord, settings: Settings) -> str:
    """The hint's HTML for a page, or ``""`` when the ``body_hint`` setting is off."""
    if not settings.body_hint:
        return ""
    words = phrases_for(page.lang or site.lang, settings.phrases)
    view = f'<a href="{_href(page.markdown_url)}" tabindex="-1">{_text(words.page_as_markdown)}'
    links = [view + "</a>"]
    if settings.llms_txt:
        llms = describedby_url(page.url, base_url_of(site.url), site.scopes)
        links.append(f'<a href="{_href(llms)}" tabindex="-1">{LLMS_NAME}</a>')
    return (f'<div {HINT_MARKER} style="{_STYLE}">{_text(words.for_agents)} '
            f'{", ".join(links)}</div>')


# The hint is ASCII only, so that it is the same bytes in a page of any encoding (MkDocs
# adds it to text, Sphinx to the encoded file): URLs percent-encoded, words in other
# scripts as character references.
def _href(url: str) -> str:
    return escape(quote(url, safe=_URL_SAFE))


def _text(words: str) -> str:
    return escape(words).encode("ascii", "xmlcharrefreplace").decode("ascii")


def hint_position(document: str, start: int = 0) -> int | None:
    """Where the hint goes in ``document``: just after its ``<body>`` tag (searched from
    ``start``); None when there is no body tag or the page has a hint already."""
    at = document.find("<body", start)
    if at < 0:
        at = document.lower().find("<body", start)
    opened = _BODY_TEXT.match(document, at) if at >= 0 else None
    if opened is None or HINT_MARKER in document[opened.end():opened.end() + 4096]:
        return None
    return opened.end()


def insert_hint(document: str, hint: str, start: int = 0) -> str | None:
    """``document`` with ``hint`` right after its ``<body>`` tag (searched from
    ``start``), or None when there is no body tag or the page has a hint already."""
    at = hint_position(document, start) if hint else None
    if at is None:
        return None
    # The hint and its newline go right after the tag, so that taking them out
    # (:func:`without_hint`) gives back the page byte for byte.
    return f"{document[:at]}{hint}\n{document[at:]}"


def insert_hint_bytes(document: bytes, hint: str) -> bytes | None:
    """:func:`insert_hint` for a page as bytes (whatever its encoding is ASCII-compatible)."""
    if not hint:
        return None
    opened = _BODY_BYTES.search(document)
    marker = HINT_MARKER.encode()
    if opened is None or marker in document[opened.end():opened.end() + 4096]:
        return None
    payload = hint.encode("ascii") + b"\n"
    return document[:opened.end()] + payload + document[opened.end():]


def without_hint(document: bytes) -> bytes:
    """``document`` without the hint an earlier run added (for ``agentprose build``,
    which decorates pages another tool wrote, and may run again with another base URL)."""
    if HINT_MARKER.encode() not in document:
        return document
    return _HINT_BYTES.sub(b"", document, count=1)
