"""The agent view's YAML front matter, written so YAML 1.1 and 1.2 loaders agree.

Every string is double-quoted with only the escapes both YAML versions share, so no
value can turn into a boolean, a number, a date or a folded line.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentprose_core.model import INDEX_NAME, LLMS_NAME, PageRecord
from agentprose_core.phrases import phrases_for

if TYPE_CHECKING:
    from agentprose_core.settings import Settings

__all__ = ["quote", "render_front_matter", "render_view", "view_directive"]

# Characters YAML 1.1 (PyYAML) reads as line breaks or refuses in a stream, plus the
# quote and backslash; everything else is written as itself (UTF-8, unescaped).
_NAMED = {
    "\"": "\\\"",
    "\\": "\\\\",
    "\n": "\\n",
    "\t": "\\t",
    "\r": "\\r",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def _printable(ch: str) -> bool:
    code = ord(ch)
    return (
        0x20 <= code <= 0x7E
        or 0xA0 <= code <= 0xD7FF
        or (0xE000 <= code <= 0xFFFD and code != 0xFEFF)
        or 0x10000 <= code <= 0x10FFFF
    )


def _escape(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    if _printable(ch):
        return ch
    code = ord(ch)
    if 0xD800 <= code <= 0xDFFF:  # a lone surrogate cannot be UTF-8
        return "\\uFFFD"
    return f"\\x{code:02X}" if code <= 0xFF else f"\\u{code:04X}"


# Every character _escape changes: the named ones and the non-printable ones.
_ESCAPED = re.compile(r'["\\\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]')


def quote(value: str) -> str:
    """A YAML double-quoted scalar that loads back to exactly ``value``."""
    return '"' + _ESCAPED.sub(lambda match: _escape(match.group()), value) + '"'


def render_front_matter(page: PageRecord) -> str:
    """The ``---`` block of a page's agent view, keys in the documented order."""
    lines = ["---", f"title: {quote(page.title)}",
             f"canonical: {quote(page.canonical or page.url)}"]
    lines.append(f"modified: {quote(page.modified)}")
    if page.published:
        lines.append(f"published: {quote(page.published)}")
    if len(page.authors) == 1:
        lines.append(f"author: {quote(page.authors[0])}")
    elif page.authors:
        lines.append("author:")
        lines.extend(f"  - {quote(name)}" for name in page.authors)
    for key in ("lang", "version", "latest"):
        value = getattr(page, key)
        if value:
            lines.append(f"{key}: {quote(value)}")
    if page.translations:
        lines.append("translations:")
        for lang, url in page.translations:
            lines += [f"  - lang: {quote(lang)}", f"    url: {quote(url)}"]
    for key in ("prev", "next"):
        value = getattr(page, key)
        if value:
            lines.append(f"{key}: {quote(value)}")
    lines.append("---")
    return "\n".join(lines) + "\n"


def view_directive(base_url: str, settings: Settings, lang: str | None = None) -> str:
    """The line after a view's front matter that points agents at the rest of the site:
    ``> Site index: [llms.txt](…) · [agentprose.json](…)``, naming only the files the
    build writes; empty when the ``directive`` setting is off or it writes neither. Its
    label is in ``lang``, the page's language (:mod:`agentprose_core.phrases`).

    ``base_url`` is the site's base URL with its trailing slash. The line belongs to the
    view file only: ``agentprose.json`` and ``llms-full.txt`` carry the bodies without it.
    """
    if not settings.directive:
        return ""
    links = []
    if settings.llms_txt:
        links.append(f"[{LLMS_NAME}]({base_url}{LLMS_NAME})")
    if settings.index:
        links.append(f"[{INDEX_NAME}]({base_url}{INDEX_NAME})")
    label = phrases_for(lang, settings.phrases).site_index
    return f"> {label} {' · '.join(links)}" if links else ""


def render_view(page: PageRecord, directive: str = "") -> str:
    """The whole agent view: front matter, the ``directive`` line (if any) after a blank
    line, a blank line, the Markdown body."""
    body = page.markdown.strip("\n")
    head = render_front_matter(page) + (f"\n{directive}\n" if directive else "")
    return head + ("\n" + body + "\n" if body else "")
