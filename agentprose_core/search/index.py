"""Ranked full-text search over a site's posts: BM25 per field, scores computed once.

Each post is four fields (title, headings, summary, body) weighted 3 / 2 / 1.5 / 1.
Scores are BM25 (k1 1.2, b 0.75) per field, summed with the weights and kept as whole
numbers of :data:`SCORE_UNIT` ths: a query only adds up the postings of its terms, and
a JavaScript engine that reads the same postings adds up the same numbers in the same
order, so both rank alike to the last bit. :meth:`SearchIndex.to_data` gives what the
build writes (``agentprose-search.json``, :mod:`agentprose_core.render.searchfile`) and
:meth:`SearchIndex.from_data` reads it back.
"""

from __future__ import annotations

import bisect
import heapq
import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentprose_core.search.terms import names_in, object_names, query_terms, terms

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

__all__ = ["FIELD_WEIGHTS", "SCORE_UNIT", "Document", "Hit", "SearchIndex", "document_of"]

FIELD_WEIGHTS = {"title": 3.0, "headings": 2.0, "summary": 1.5, "body": 1.0}
SCORE_UNIT = 10_000
"""Scores are kept as whole numbers of this fraction of a point (four decimals, what an
answer shows)."""
_K1 = 1.2
_B = 0.75


@dataclass(frozen=True)
class Document:
    """One post's text, by field, and the names of the API objects it documents."""

    title: str
    headings: str = ""
    summary: str = ""
    body: str = ""
    names: tuple[str, ...] = ()
    """Heading ids and titles that can name an object (``flask.send_file``)."""


def document_of(title: str, headings: Iterable[tuple[str, str]], summary: str,
                body: str) -> Document:
    """A post's document from its title, its headings (title, id), summary and body:
    a heading id with a dot names an API object (``flask.Flask.url_for``)."""
    listed = list(headings)
    return Document(title, " ".join(text for text, _ in listed), summary, body,
                    tuple(ident for _, ident in listed if "." in ident))


@dataclass(frozen=True)
class Hit:
    """One page found by a search: its position and score."""
    number: int
    """The post's position in the documents the index was built from."""
    score: float


def _field_scores(counts: list[Counter[str]], weight: float, size: int,
                  postings: dict[str, dict[int, float]]) -> None:
    """Add one field's BM25 scores, weighted, to ``postings``."""
    lengths = [sum(count.values()) for count in counts]
    average = (sum(lengths) / len(lengths)) if lengths else 0.0
    if not average:
        return
    frequency: Counter[str] = Counter()
    for count in counts:
        frequency.update(count.keys())
    idf = {term: math.log(1 + (size - n + 0.5) / (n + 0.5)) for term, n in frequency.items()}
    for number, (count, length) in enumerate(zip(counts, lengths, strict=True)):
        norm = _K1 * (1 - _B + _B * length / average)
        for term, tf in count.items():
            score = weight * idf[term] * tf * (_K1 + 1) / (tf + norm)
            by_post = postings.setdefault(term, {})
            by_post[number] = by_post.get(number, 0.0) + score


class SearchIndex:
    """Postings of whole-number scores, object names and titles; queried many times."""

    def __init__(self, size: int, postings: Mapping[str, tuple[list[int], list[int]]],
                 names: Mapping[str, list[int]], titles: Mapping[str, list[int]]) -> None:
        self.size = size
        self._postings = postings
        """Per term: post numbers in order and their scores, in two lists (less memory
        than pairs; in order so that one post's score is a bisection away)."""
        self._names = names
        self._titles = titles

    @classmethod
    def build(cls, documents: Sequence[Document]) -> SearchIndex:
        """The index of ``documents``, in their order."""
        postings: dict[str, dict[int, float]] = {}
        for name, weight in FIELD_WEIGHTS.items():
            counts = [Counter(terms(getattr(doc, name))) for doc in documents]
            _field_scores(counts, weight, len(documents), postings)
        names: dict[str, list[int]] = {}
        titles: dict[str, list[int]] = {}
        for number, document in enumerate(documents):
            titles.setdefault(" ".join(document.title.lower().split()), []).append(number)
            for name in document.names:
                for alias in object_names(name):
                    found = names.setdefault(alias, [])
                    if not found or found[-1] != number:
                        found.append(number)
        return cls(len(documents), {
            term: (sorted(by_post), [round(by_post[n] * SCORE_UNIT) for n in sorted(by_post)])
            for term, by_post in sorted(postings.items())}, names, titles)

    def to_data(self) -> dict[str, Any]:
        """The index as JSON data (``agentprose-search.json``'s ``size``, ``terms``,
        ``names`` and ``titles``), keys sorted."""
        return {"size": self.size,
                "terms": {term: [numbers, scores] for term, (numbers, scores)
                          in sorted(self._postings.items())},
                "names": dict(sorted(self._names.items())),
                "titles": dict(sorted(self._titles.items()))}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> SearchIndex:
        """The index :meth:`to_data` gave (the caller checked its shape)."""
        return cls(int(data["size"]),
                   {term: (list(pair[0]), list(pair[1])) for term, pair in data["terms"].items()},
                   data["names"], data["titles"])

    def search(self, query: str | Sequence[str], limit: int,
               allowed: Iterable[int] | None = None) -> list[Hit]:
        """The ``limit`` best posts for ``query`` (text, or terms already made), best
        first, ties in reading order; ``allowed`` limits the posts considered."""
        wanted = query_terms(query) if isinstance(query, str) else dict.fromkeys(query, 1.0)
        totals: dict[int, float] = {}
        for term, weight in wanted.items():
            found = self._postings.get(term)
            if found is None:
                continue
            for number, score in zip(*found, strict=True):
                totals[number] = totals.get(number, 0) + weight * score
        # A page that documents an object the query names, or whose title the query
        # is, comes first.
        named = {number for name in (names_in(query) if isinstance(query, str) else ())
                 for number in self._names.get(name, ())}
        if isinstance(query, str):
            named.update(self._titles.get(" ".join(query.lower().split()), ()))
        if named:
            lift = max(totals.values(), default=SCORE_UNIT)
            for number in sorted(named):
                totals[number] = totals.get(number, 0) + lift
        if allowed is not None:
            keep = set(allowed)
            totals = {number: score for number, score in totals.items() if number in keep}
        best = heapq.nsmallest(limit, totals.items(), key=lambda item: (-item[1], item[0]))
        return [Hit(number, round(score / SCORE_UNIT, 4)) for number, score in best]

    def term_scores(self, number: int) -> dict[str, int]:
        """Every term of one post with its score there (what related pages compare), in
        the terms' order."""
        found = {}
        for term, (numbers, scores) in self._postings.items():
            at = bisect.bisect_left(numbers, number)
            if at < len(numbers) and numbers[at] == number:
                found[term] = scores[at]
        return found
