"""``Accept`` as regular expressions, for servers that cannot run :func:`~.negotiate.choose`.

nginx's ``map``, Apache's ``RewriteCond``, Caddy's ``expression`` and Vercel's ``routes``
only match patterns, so the choice is written as rules; Markdown is sent when any matches.

1. ``text/markdown`` is listed without a ``q`` or with ``q=1``: nothing can outweigh it, and
   a tie goes to Markdown (``text/html, text/markdown``).
2. ``text/markdown;q=0.D…`` (``D`` from 1 to 9) and the range that would weigh HTML, the
   most specific one listed (``text/html``, else ``text/*``, else ``*/*``), is not above
   it. Weights are compared on the first decimal, the competitor's further digits
   counting: ``text/html;q=0.5, text/markdown;q=0.500`` and
   ``text/markdown;q=0.55, text/html;q=0.5`` both give Markdown.

Where the rules answer HTML although :func:`~.negotiate.choose` answers Markdown:

- Markdown reached only through a wildcard (``text/html;q=0, */*``): the rules look for
  ``text/markdown`` by name.
- Markdown weighted below 0.1 (``text/markdown;q=0.05``).
- Weights sharing the first decimal where the competitor has further digits
  (``text/markdown;q=0.55, text/html;q=0.52`` or ``…0.55`` both).

Where they can answer Markdown to a client that prefers HTML, because parameters are not
read: ``text/markdown`` listed twice (``text/markdown;q=0, text/markdown``), a ``charset``
other than UTF-8, a quoted parameter value holding a comma.

The patterns use only what PCRE (nginx, Apache), RE2 (Caddy) and JavaScript (Vercel)
share, without lookarounds (a rule's patterns are combined with lookaheads for PCRE and
JavaScript, with ``&&`` for Caddy's CEL) and without ``{n,m}`` counts (Caddy would read
the braces as placeholders). They are meant to be matched case-insensitively.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ACCEPT_RULES", "Rule", "markdown_by_rules", "pcre_patterns", "regex_escape"]

_MARKDOWN = r"text/markdown"
_HTML = r"text/html"
_TEXT_ANY = r"text/\*"
_ANY = r"\*/\*"
_START = r"(?:^|,)\s*"
_NO_Q_PARAMS = r"(?:;\s*(?:[^\sq;,][^;,]*|q[^=\s;,][^;,]*)?)*"
_ONE = r"1(?:\.0?0?0?)?"
_SPECIAL = frozenset(".^$*+?()[]{}|\\")


def regex_escape(text: str) -> str:
    """Escape what PCRE, RE2 and JavaScript read as special; unlike :func:`re.escape`,
    nothing more (RE2 refuses an escaped space)."""
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def _listed(media: str) -> str:
    """A member for ``media``, whatever its parameters."""
    return _START + media + r"\s*(?:;[^,]*)?(?:,|$)"


def _unweighted(media: str) -> str:
    """A member for ``media`` with no ``q`` parameter (weight 1)."""
    return _START + media + r"\s*" + _NO_Q_PARAMS + r"\s*(?:,|$)"


def _weighted(media: str, qvalue: str) -> str:
    """A member for ``media`` whose ``q`` matches ``qvalue``."""
    return _START + media + r"\s*(?:;[^;,]*)*;\s*q\s*=\s*" + qvalue + r"\s*(?:[;,]|$)"


def _above(media: str, digit: int) -> str:
    """A member for ``media`` weighted above ``0.D`` (``D`` = ``digit``)."""
    higher = f"|0\\.[{digit + 1}-9]\\d?\\d?" if digit < 9 else ""
    qvalue = f"(?:{_ONE}{higher}|0\\.{digit}(?:[1-9]\\d?|0[1-9]))"
    return f"(?:{_unweighted(media)}|{_weighted(media, qvalue)})"


@dataclass(frozen=True)
class Rule:
    """Markdown when every ``present`` pattern matches and no ``absent`` one does."""

    present: tuple[str, ...]
    absent: tuple[str, ...] = ()

    def matches(self, accept: str) -> bool:
        """True when an ``Accept`` header has every present pattern and no absent one."""
        found = (re.search(p, accept, re.IGNORECASE) for p in self.present)
        missing = (re.search(p, accept, re.IGNORECASE) for p in self.absent)
        return all(found) and not any(missing)

    def pcre(self) -> str:
        """One PCRE (or JavaScript) pattern: lookaheads, or the pattern itself alone."""
        if len(self.present) == 1 and not self.absent:
            return self.present[0]
        return ("^" + "".join(f"(?=.*?{p})" for p in self.present)
                + "".join(f"(?!.*?{p})" for p in self.absent))


def _rules() -> tuple[Rule, ...]:
    rules = [Rule((f"(?:{_unweighted(_MARKDOWN)}|{_weighted(_MARKDOWN, _ONE)})",))]
    for d in range(9, 0, -1):
        markdown = _weighted(_MARKDOWN, f"0\\.{d}\\d?\\d?")
        rules += [
            Rule((markdown, _listed(_HTML)), (_above(_HTML, d),)),
            Rule((markdown, _listed(_TEXT_ANY)), (_listed(_HTML), _above(_TEXT_ANY, d))),
            Rule((markdown,), (_listed(_HTML), _listed(_TEXT_ANY), _above(_ANY, d))),
        ]
    return tuple(rules)


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
