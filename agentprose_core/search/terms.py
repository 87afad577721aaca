"""The terms search compares: words folded, identifiers split, common endings dropped.

Terms are lower-cased and stripped of accents (``Café`` → ``cafe``), identifiers give
their parts (``get_page`` and ``BuildConfig`` also give ``get``/``page``,
``build``/``config``) and words lose their common English endings, so "installing
plugins" finds "Install a plugin".

Every rule here is one a JavaScript engine computes the same way (the remote MCP
endpoint ranks with the same terms): Unicode's default lower-casing, NFKD with the
nonspacing marks (``Mn``) removed, words as runs of letters, digits and ``_``.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["PART_WEIGHT", "names_in", "object_names", "query_terms", "stem", "terms"]

PART_WEIGHT = 0.3
"""What the parts of an identifier in a query count for: "send_file" is about send_file,
and only a little about sending or files."""

_WORD = re.compile(r"\w+")
# The parts of an identifier: ``HTTPServer`` → HTTP, Server; ``get_page`` → get, page.
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|[^\W\d_A-Za-z]+")
_NAME = re.compile(r"[A-Za-z_][\w.]*\w")
_ENDINGS = (("ies", "y"), ("sses", "ss"), ("xes", "x"), ("ches", "ch"), ("shes", "sh"),
            ("ing", ""), ("edly", ""), ("ed", ""), ("ly", ""), ("s", ""))


class _Stems(dict[str, str]):
    """Every word's stem, computed once: a site repeats the same few thousand words."""

    def __missing__(self, word: str) -> str:
        value = self[word] = _stem(word)
        return value


def _stem(word: str) -> str:
    """``word`` without a common English ending, when enough of it remains."""
    if len(word) <= 3 or not word.isalpha():
        return word
    for ending, replacement in _ENDINGS:
        if word.endswith(ending) and not word.endswith("ss"):
            stemmed = word[: -len(ending)] + replacement
            if len(stemmed) >= 3:
                return _undouble(stemmed) if ending in ("ing", "ed") else stemmed
    return word


def _undouble(word: str) -> str:
    """``runn`` → ``run``, ``stopp`` → ``stop``; ``install`` keeps its ``ll``."""
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
        return word[:-1]
    return word


_STEMS = _Stems()


def stem(word: str) -> str:
    """The stem search compares: ``installing``, ``installed`` and ``installs`` → ``install``."""
    return _STEMS[word]


def _fold(text: str) -> str:
    """``text`` without accents: decomposed (NFKD), its nonspacing marks left out."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if unicodedata.category(char) != "Mn")


def query_terms(query: str) -> dict[str, float]:
    """The terms of a query with their weights, in the order they come: an identifier's
    parts weigh less than the identifier."""
    weights: dict[str, float] = {}
    for word in _WORD.findall(_fold(query)):
        parts = _PART.findall(word)
        if len(parts) > 1:
            weights[word.lower()] = 1.0
        for part in parts:
            term = stem(part.lower())
            weights[term] = max(weights.get(term, 0.0),
                                PART_WEIGHT if len(parts) > 1 else 1.0)
    return weights


def names_in(query: str) -> set[str]:
    """The words of a query that could name an API object: ``send_file``,
    ``Flask.url_for``, ``BuildConfig`` (lower-cased)."""
    return {word.lower() for word in _NAME.findall(query)
            if len(_PART.findall(word)) > 1 or "." in word}


def object_names(name: str) -> list[str]:
    """What a query may call an object: ``flask.Flask.url_for`` is also
    ``Flask.url_for`` and ``url_for``, lower-cased."""
    parts = name.lower().split(".")
    return [".".join(parts[start:]) for start in range(len(parts))]


def terms(text: str) -> list[str]:
    """The search terms of ``text``: folded, split, stemmed words, in order.

    An identifier gives its parts and, when it has several, itself as one term, so
    ``get_page`` is found both as a whole and by ``page``.
    """
    found: list[str] = []
    for word in _WORD.findall(_fold(text)):
        parts = _PART.findall(word)
        if len(parts) > 1:
            found.append(word.lower())
        found.extend(stem(part.lower()) for part in parts)
    return found
