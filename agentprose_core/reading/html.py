"""A page's discovery links read back: the ``<link>`` elements of its head and the
links at the top of its body.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser

__all__ = ["HeadLink", "body_top_links", "head_links"]


@dataclass(frozen=True)
class HeadLink:
    """A ``<link>`` of a page's head: its rel tokens, type and href."""

    rel: frozenset[str]
    type: str
    href: str


class _HeadParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[HeadLink] = []
        self.done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done:
            return
        if tag == "body":
            self.done = True
        elif tag == "link":
            values = {name: value or "" for name, value in attrs}
            self.links.append(HeadLink(
                rel=frozenset(values.get("rel", "").lower().split()),
                type=values.get("type", "").split(";")[0].strip().lower(),
                href=values.get("href", "").strip(),
            ))

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self.done = True


_BODY_OPEN = re.compile(r"<body(?:\s[^>]*)?>", re.IGNORECASE)
# Quoted or not: a minifier (mkdocs-minify-plugin) drops the quotes it can.
_HREF = re.compile(r"""<a\s[^>]*?href\s*=\s*(?:"([^"]+)"|'([^']+)'|([^\s"'=<>`]+))""",
                   re.IGNORECASE)


def body_top_links(html: str, size: int = 4096) -> list[str]:
    """The ``href`` of the links in the first ``size`` characters of a page's body."""
    opened = _BODY_OPEN.search(html)
    if opened is None:
        return []
    return [unescape("".join(groups))
            for groups in _HREF.findall(html, opened.end(), opened.end() + size)]


def head_links(html: str) -> list[HeadLink]:
    """The ``<link>`` elements before the page's body."""
    parser = _HeadParser()
    parser.feed(html)
    parser.close()
    return parser.links
