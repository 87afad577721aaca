"""Content negotiation between a page's HTML and its agent view (RFC 9110, section 12).

Weights are kept in thousandths (``q=0.8`` is ``800``) so that comparisons are exact.

Our rules on top of the RFC:

- Markdown wins when its weight is higher than HTML's, or equal to it when the client
  named ``text/markdown`` itself (``text/html, text/markdown``: a tie goes to Markdown).
- A weight that comes only from a wildcard (``*/*``, ``text/*``) never breaks a tie in
  Markdown's favour: a generic client is treated like a browser and gets HTML.
- When the client accepts neither (``text/markdown;q=0``, ``application/json``), we send
  HTML anyway. RFC 9110 lets a server disregard ``Accept`` instead of answering ``406``;
  a page that always answers is kinder to crawlers and to people following a link.
  :attr:`Choice.acceptable` tells the two cases apart.
- Parameters of a media range count for precedence; only ``charset`` is matched (our
  representations are UTF-8), others such as Markdown's ``variant`` are not checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "HTML",
    "MARKDOWN",
    "Choice",
    "MediaRange",
    "choose",
    "parse_accept",
    "weight_of",
]

HTML = "text/html"
MARKDOWN = "text/markdown"

_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_QVALUE = re.compile(r"0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?")
_CHARSET = "utf-8"


@dataclass(frozen=True)
class MediaRange:
    """One member of an ``Accept`` field: ``type/subtype;params;q=weight``."""

    type: str
    subtype: str
    params: tuple[tuple[str, str], ...] = ()
    weight: int = 1000
    """The ``q`` value in thousandths: 0 (never) to 1000."""

    @property
    def specificity(self) -> tuple[int, int, int]:
        """Higher is more specific: a concrete type, a concrete subtype, parameters."""
        return (self.type != "*", self.subtype != "*", len(self.params))

    def matches(self, media_type: str) -> bool:
        """True when this range covers ``media_type`` (a UTF-8 ``type/subtype``)."""
        kind, sub = media_type.split("/", 1)
        if self.type not in ("*", kind) or self.subtype not in ("*", sub):
            return False
        return all(value.lower() == _CHARSET for name, value in self.params if name == "charset")


@dataclass(frozen=True)
class Choice:
    """Which representation to send and whether the client asked for it."""

    media_type: str
    """:data:`MARKDOWN` or :data:`HTML`."""
    acceptable: bool = True
    """False when ``Accept`` ruled out both and HTML is sent as the default."""

    @property
    def markdown(self) -> bool:
        """True when the answer is the agent view."""
        return self.media_type == MARKDOWN


def _split(text: str, separator: str) -> list[str]:
    """Split on ``separator`` outside quoted strings (which may hold commas, semicolons)."""
    parts: list[str] = []
    current: list[str] = []
    quoted = escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif quoted and char == "\\":
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == separator and not quoted:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return parts


def _unquote(value: str) -> str | None:
    """A parameter value: a token, or a quoted string without its quotes and escapes."""
    if _TOKEN.fullmatch(value):
        return value
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return re.sub(r"\\(.)", r"\1", value[1:-1])
    return None


def _qvalue(value: str) -> int | None:
    """``0.8`` -> 800; None unless it is a qvalue of RFC 9110 (at most three decimals)."""
    if not _QVALUE.fullmatch(value):
        return None
    whole, _, decimals = value.partition(".")
    return int(whole) * 1000 + int((decimals + "000")[:3])


def _parse_range(member: str) -> MediaRange | None:
    """One member of the field, or None when it is malformed."""
    pieces = _split(member, ";")
    kind, slash, sub = pieces[0].strip().partition("/")
    if not (slash and _TOKEN.fullmatch(kind) and _TOKEN.fullmatch(sub)):
        return None
    if kind == "*" and sub != "*":
        return None
    params: list[tuple[str, str]] = []
    weight = 1000
    for piece in pieces[1:]:
        if not piece.strip():
            continue  # "text/html;;q=1": an empty parameter is allowed
        name, equals, raw = (p.strip() for p in piece.partition("="))
        value = _unquote(raw)
        if not (equals and _TOKEN.fullmatch(name)) or value is None:
            return None
        if name.lower() == "q":
            q = _qvalue(raw)  # a bare qvalue: never quoted
            if q is None:
                return None
            weight = q
        else:
            params.append((name.lower(), value))
    return MediaRange(kind.lower(), sub.lower(), tuple(params), weight)


def parse_accept(header: str) -> tuple[MediaRange, ...]:
    """The media ranges of an ``Accept`` field value, in order; malformed members are dropped.

    >>> [(r.type, r.subtype, r.weight) for r in parse_accept("text/*;q=0.5, nonsense")]
    [('text', '*', 500)]
    """
    ranges = (_parse_range(member) for member in _split(header, ","))
    return tuple(r for r in ranges if r is not None)


def weight_of(ranges: tuple[MediaRange, ...], media_type: str) -> MediaRange | None:
    """The most specific range matching ``media_type``; the first one listed on a tie."""
    best: MediaRange | None = None
    for candidate in ranges:
        if candidate.matches(media_type) and (
            best is None or candidate.specificity > best.specificity
        ):
            best = candidate
    return best


def choose(accept: str | None) -> Choice:
    """Markdown or HTML for a page that has both, from the request's ``Accept``.

    No ``Accept``, or one with no valid member, means any type: HTML.

    >>> choose("text/markdown, text/html;q=0.8").media_type
    'text/markdown'
    >>> choose("*/*").media_type
    'text/html'
    """
    ranges = parse_accept(accept) if accept is not None else ()
    if not ranges:
        return Choice(HTML)
    markdown, html = weight_of(ranges, MARKDOWN), weight_of(ranges, HTML)
    q_markdown = markdown.weight if markdown else 0
    q_html = html.weight if html else 0
    named = markdown is not None and markdown.subtype != "*"
    if q_markdown and (q_markdown > q_html or (q_markdown == q_html and named)):
        return Choice(MARKDOWN)
    return Choice(HTML, acceptable=q_html > 0)
