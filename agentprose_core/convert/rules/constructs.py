"""What the converter knows, and what it does with the rest.

Media (video, audio, iframes, embeds) become a link to their source, so an agent knows
they are there. Any other element the converter has no rule for keeps its text, and
the page reports it once per kind, so users can tell us or add a ``preprocess`` hook.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentprose_core import urls
from agentprose_core.convert.tree import (
    all_text,
    drop_tag,
    drop_tree,
    new_element,
    replace,
)
from agentprose_core.diagnostics import Diagnostic

if TYPE_CHECKING:
    from agentprose_core.convert.tree import Element

__all__ = ["KNOWN_TAGS", "rewrite_media", "unknown_constructs"]

KNOWN_TAGS = frozenset({
    "a", "abbr", "address", "article", "aside", "b", "bdi", "bdo", "big", "blockquote", "br",
    "caption", "center", "cite", "code", "col", "colgroup", "data", "dd", "del", "details",
    "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "font", "footer", "h1", "h2",
    "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "i", "img", "ins", "kbd", "label", "li",
    "main", "mark", "ol", "p", "picture", "pre", "q", "rp", "rt", "ruby", "s", "samp",
    "section", "small", "source", "span", "strike", "strong", "sub", "summary", "sup",
    "table", "tbody", "td", "tfoot", "th", "thead", "time", "tr", "tt", "u", "ul", "var",
    "wbr", "html", "body", "nobr", "meter", "progress", "output", "legend", "fieldset",
})
_MEDIA = {"video": "src", "audio": "src", "iframe": "src", "embed": "src", "object": "data"}


def rewrite_media(root: Element, page_url: str) -> None:
    """Video, audio, frames and embeds as a link to what they show."""
    for element in list(root.iter(*_MEDIA)):
        source = element.get(_MEDIA[str(element.tag)]) or next(
            (s.get("src") for s in element.iter("source") if s.get("src")), None
        )
        label = element.get("title") or element.get("aria-label") or str(element.tag)
        if not source or urls.unsafe_scheme(source):
            # A frame's or a player's own text is for browsers that cannot show it; an
            # object's fallback content is what it shows instead.
            if element.tag in ("object", "embed"):
                drop_tag(element)
            else:
                drop_tree(element)
            continue
        link = new_element("a", label)
        link.set("href", urls.resolve(source, page_url))
        parent = element.getparent()
        if parent is not None and parent.tag in ("p", "span", "a", "em", "strong"):
            replace(element, link)
        else:  # media stand on their own, as a paragraph
            paragraph = new_element("p")
            paragraph.append(link)
            replace(element, paragraph)


def unknown_constructs(root: Element) -> list[Diagnostic]:
    """One note per kind of element the converter has no rule for (its text is kept),
    among those that hold text: an empty one (a placeholder another plugin of an older
    version left, as mkdocstrings' ``<backlinks>``) loses nothing."""
    unknown = sorted({str(el.tag) for el in root.iter() if isinstance(el.tag, str)
                      and el.tag not in KNOWN_TAGS and all_text(el).strip()})
    return [
        Diagnostic(
            "unknown-construct",
            f"<{tag}> is not a construct agentprose knows: its text is kept as plain text. "
            "A 'preprocess' hook can rewrite it, or mark it data-ignore to leave it out.",
            severity="warning" if _HTML_LIKE.fullmatch(tag) else "info",
        )
        for tag in unknown
    ]


# A name that could be an HTML element of a kind we should know. A custom element
# (``<py-script>``: a hyphen) shows its text in a browser, as the view does; a name
# with a dot is text that only looks like a tag (``<httpx._client.UseClientDefault
# object>`` in a signature): neither is the site author's to fix, so neither warns.
_HTML_LIKE = re.compile(r"[a-z][a-z0-9]*")
