"""``Accept`` as regular expressions, for servers that cannot run :func:`~.negotiate.choose`.

nginx's ``map``, Apache's ``RewriteCond`` and Caddy's ``expression`` only match patterns, so
the choice is written as a few rules; Markdown is sent when any rule matches.

1. ``text/markdown`` is listed without a ``q`` or with ``q=1``: nothing can outweigh it, and
   a tie goes to Markdown (``text/html, text/markdown``).
2. ``text/markdown;q=0.D…`` (``D`` from 1 to 9) and no ``text/html``, ``text/*`` or ``*/*``
   with a higher weight. Weights are compared digit by digit on the first decimal and
   the rest of the competitor's weight: ``text/html;q=0.5, text/markdown;q=0.500`` and
   ``text/markdown;q=0.55, text/html;q=0.5`` both give Markdown.

What the rules cannot see, where they answer HTML although :func:`~.negotiate.choose`
answers Markdown (never the other way round, except the wildcard case below):

- Markdown reached only through a wildcard (``text/html;q=0, */*``, ``text/*;q=0.9,
  text/html;q=0.5``): the rules look for ``text/markdown`` by name.
- Markdown weighted below 0.1 (``text/markdown;q=0.05``).
- Two weights that share the first decimal where Markdown's has more digits than the
  competitor's and still wins or ties (``text/markdown;q=0.55, text/html;q=0.52``).
- A wildcard listed above Markdown while ``text/html`` is listed below it
  (``text/markdown;q=0.5, text/*;q=0.9, text/html;q=0.1``): ``choose`` takes the most
  specific range, the rules any competitor.
- Parameters are not read: ``text/markdown;charset=latin-1`` counts as Markdown, and a
  quoted parameter value holding a comma can split a member.

The patterns use only what PCRE (nginx, Apache) and RE2 (Caddy, Go) share, and no
``{n,m}`` counts (Caddy would read the braces as placeholders); they are meant to be
matched case-insensitively.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ACCEPT_RULES", "Rule", "markdown_by_rules", "pcre_patterns", "regex_escape"]

_MARKDOWN = r"text/markdown"
_COMPETITOR = r"(?:text/html|text/\*|\*/\*)"
_START = r"(?:^|,)\s*"
_NO_Q_PARAMS = r"(?:;\s*(?:[^\sq;,][^;,]*|q[^=\s;,][^;,]*)?)*"
_ONE = r"1(?:\.0?0?0?)?"
_SPECIAL = frozenset(".^$*+?()[]{}|\\")


def regex_escape(text: str) -> str:
    """Escape what PCRE, RE2 and JavaScript read as special; unlike :func:`re.escape`,
    nothing more (RE2 refuses an escaped space)."""
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def _unweighted(media: str) -> str:
    """A member for ``media`` with no ``q`` parameter (weight 1)."""
    return _START + media + r"\s*" + _NO_Q_PARAMS + r"\s*(?:,|$)"


def _weighted(media: str, qvalue: str) -> str:
    """A member for ``media`` whose ``q`` matches ``qvalue``."""
    return _START + media + r"\s*(?:;[^;,]*)*;\s*q\s*=\s*" + qvalue + r"\s*(?:[;,]|$)"


def _above(digit: int) -> str:
    """A qvalue greater than ``0.D`` (``D`` = ``digit``): ``0.D1``…, ``0.E``… or 1."""
    higher = f"|0\\.[{digit + 1}-9]\\d?\\d?" if digit < 9 else ""
    return f"(?:{_ONE}{higher}|0\\.{digit}(?:[1-9]\\d?|0[1-9]))"


@dataclass(frozen=True)
class Rule:
    """Markdown when ``present`` matches and ``absent`` (if any) does not."""

    present: str
    absent: str | None = None

    def matches(self, accept: str) -> bool:
        if not re.search(self.present, accept, re.IGNORECASE):
            return False
        return self.absent is None or not re.search(self.absent, accept, re.IGNORECASE)

    def pcre(self) -> str:
        """One PCRE pattern for the rule (with a negative lookahead for ``absent``)."""
        if self.absent is None:
            return self.present
        return f"^(?=.*?{self.present})(?!.*?{self.absent})"


def _rules() -> tuple[Rule, ...]:
    full = Rule(f"(?:{_unweighted(_MARKDOWN)}|{_weighted(_MARKDOWN, _ONE)})")
    weighted = tuple(
        Rule(_weighted(_MARKDOWN, f"0\\.{d}\\d?\\d?"),
             f"(?:{_unweighted(_COMPETITOR)}|{_weighted(_COMPETITOR, _above(d))})")
        for d in range(9, 0, -1)
    )
    return (full, *weighted)


ACCEPT_RULES: tuple[Rule, ...] = _rules()


def pcre_patterns() -> tuple[str, ...]:
    """The rules as PCRE patterns, any of which means Markdown (nginx ``map``, Apache)."""
    return tuple(rule.pcre() for rule in ACCEPT_RULES)


def markdown_by_rules(accept: str | None) -> bool:
    """What a server configured with :data:`ACCEPT_RULES` sends: True for Markdown.

    >>> markdown_by_rules("text/html, text/markdown")
    True
    >>> markdown_by_rules("text/html;q=0.5, text/markdown;q=0.500")
    True
    >>> markdown_by_rules("*/*")
    False
    """
    return accept is not None and any(rule.matches(accept) for rule in ACCEPT_RULES)
