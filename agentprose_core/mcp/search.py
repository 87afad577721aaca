"""Ranked full-text search over a site's posts: BM25 per field, stemming-tolerant.

Each post is four fields (title, headings, summary, body) weighted 3 / 2 / 1.5 / 1.
Scores are BM25 (k1 1.2, b 0.75) per field, summed with the weights; every term's
scores are computed once when the index is built, so a query only adds up the
postings of its terms. Terms are case- and accent-folded, identifiers are split
(``get_page`` and ``BuildConfig`` also give ``get``/``page``, ``build``/``config``) and
words lose their common English endings, so "installing plugins" finds "Install a
plugin".
"""

from __future__ import annotations

import bisect
import heapq
import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentprose_core.mcp.markdown import ANCHOR, opening_anchors, scan, without_markup

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

__all__ = ["FIELD_WEIGHTS", "Document", "Hit", "Passage", "SearchIndex", "best_passage",
           "names_in", "query_terms", "stem", "terms"]

FIELD_WEIGHTS = {"title": 3.0, "headings": 2.0, "summary": 1.5, "body": 1.0}
_K1 = 1.2
_B = 0.75
# The parts of an identifier in a query count less than the identifier itself:
# "send_file" is about send_file, and only a little about sending or files.
_PART_WEIGHT = 0.3

_WORD = re.compile(r"\w+")
# The parts of an identifier: ``HTTPServer`` → HTTP, Server; ``get_page`` → get, page.
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|[^\W\d_A-Za-z]+")


class _Stems(dict[str, str]):
    """Every word's stem, computed once: a site repeats the same few thousand words."""

    def __missing__(self, word: str) -> str:
        value = self[word] = _stem(word)
        return value


def _stem(word: str) -> str:
    """``word`` without a common English ending, when enough of it remains."""
    if len(word) <= 3 or not word.isalpha():
        return word
    for ending, replacement in (("ies", "y"), ("sses", "ss"), ("xes", "x"), ("ches", "ch"),
                                ("shes", "sh"), ("ing", ""), ("edly", ""), ("ed", ""),
                                ("ly", ""), ("s", "")):
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
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def query_terms(query: str) -> dict[str, float]:
    """The terms of a query with their weights: an identifier's parts weigh less than
    the identifier."""
    weights: dict[str, float] = {}
    for word in _WORD.findall(_fold(query)):
        parts = _PART.findall(word)
        if len(parts) > 1:
            weights[word.casefold()] = 1.0
        for part in parts:
            term = stem(part.casefold())
            weights[term] = max(weights.get(term, 0.0),
                                _PART_WEIGHT if len(parts) > 1 else 1.0)
    return weights


def names_in(query: str) -> set[str]:
    """The words of a query that could name an API object: ``send_file``,
    ``Flask.url_for``, ``BuildConfig`` (case-folded)."""
    return {word.casefold() for word in _NAME.findall(query)
            if len(_PART.findall(word)) > 1 or "." in word}


_NAME = re.compile(r"[A-Za-z_][\w.]*\w")


def terms(text: str) -> list[str]:
    """The search terms of ``text``: folded, split, stemmed words, in order.

    An identifier gives its parts and, when it has several, itself as one term, so
    ``get_page`` is found both as a whole and by ``page``.
    """
    found: list[str] = []
    for word in _WORD.findall(_fold(text)):
        parts = _PART.findall(word)
        if len(parts) > 1:
            found.append(word.casefold())
        found.extend(stem(part.casefold()) for part in parts)
    return found


@dataclass(frozen=True)
class Document:
    """One post's text, by field, and the names of the API objects it documents."""

    title: str
    headings: str = ""
    summary: str = ""
    body: str = ""
    names: tuple[str, ...] = ()
    """Heading ids and titles that can name an object (``flask.send_file``)."""


def _object_names(name: str) -> list[str]:
    """What a query may call an object: ``flask.Flask.url_for`` is also
    ``Flask.url_for`` and ``url_for``, case-folded."""
    parts = name.casefold().split(".")
    return [".".join(parts[start:]) for start in range(len(parts))]


@dataclass(frozen=True)
class Hit:
    """One page found by a search: its position, score and the passage that matched."""
    number: int
    """The post's position in the documents the index was built from."""
    score: float


class SearchIndex:
    """BM25 over the fields of a list of documents; built once, queried many times."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self.size = len(documents)
        counts = {name: [Counter(terms(getattr(doc, name))) for doc in documents]
                  for name in FIELD_WEIGHTS}
        postings: dict[str, dict[int, float]] = {}
        for name, weight in FIELD_WEIGHTS.items():
            self._add_field(postings, counts[name], weight)
        self._documents = documents
        self._names: dict[str, list[int]] = {}
        self._titles: dict[str, list[int]] = {}
        for number, document in enumerate(documents):
            self._titles.setdefault(" ".join(document.title.casefold().split()),
                                    []).append(number)
        for number, document in enumerate(documents):
            for name in document.names:
                for alias in _object_names(name):
                    found = self._names.setdefault(alias, [])
                    if not found or found[-1] != number:
                        found.append(number)
        # Per term: post numbers in order and their scores, in two lists (less memory
        # than pairs; in order so that one post's score is a bisection away).
        self._postings = {term: (sorted(by_post), [by_post[n] for n in sorted(by_post)])
                          for term, by_post in postings.items()}

    def _add_field(self, postings: dict[str, dict[int, float]], counts: list[Counter[str]],
                   weight: float) -> None:
        lengths = [sum(count.values()) for count in counts]
        average = (sum(lengths) / len(lengths)) if lengths else 0.0
        if not average:
            return
        frequency: Counter[str] = Counter()
        for count in counts:
            frequency.update(count.keys())
        idf = {term: math.log(1 + (self.size - n + 0.5) / (n + 0.5))
               for term, n in frequency.items()}
        for number, (count, length) in enumerate(zip(counts, lengths, strict=True)):
            norm = _K1 * (1 - _B + _B * length / average)
            for term, tf in count.items():
                score = weight * idf[term] * tf * (_K1 + 1) / (tf + norm)
                by_post = postings.setdefault(term, {})
                by_post[number] = by_post.get(number, 0.0) + score

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
                totals[number] = totals.get(number, 0.0) + weight * score
        # A page that documents an object the query names, or whose title the query
        # is, comes first.
        named = {number for name in (names_in(query) if isinstance(query, str) else ())
                 for number in self._names.get(name, ())}
        if isinstance(query, str):
            named.update(self._titles.get(" ".join(query.casefold().split()), ()))
        if named:
            lift = max(totals.values(), default=1.0)
            for number in named:
                totals[number] = totals.get(number, 0.0) + lift
        if allowed is not None:
            keep = set(allowed)
            totals = {number: score for number, score in totals.items() if number in keep}
        best = heapq.nsmallest(limit, totals.items(), key=lambda item: (-item[1], item[0]))
        return [Hit(number, round(score, 4)) for number, score in best]

    def term_scores(self, number: int) -> dict[str, float]:
        """Every term of one post with its score there (what related pages compare)."""
        document = self._documents[number]
        found = {}
        for name in FIELD_WEIGHTS:
            for term in terms(getattr(document, name)):
                if term in found:
                    continue
                numbers, scores = self._postings[term]
                found[term] = scores[bisect.bisect_left(numbers, number)]
        return found


# -- the passage that answers -------------------------------------------------------

SNIPPET_CHARS = 300


@dataclass(frozen=True)
class Passage:
    """The part of a page that matched a query, under its headings."""
    headings: tuple[str, ...]
    """The headings above the passage, outermost first."""
    snippet: str
    anchors: tuple[str, ...] = ()
    """The ids of the nearest anchors above or at the passage (a heading's, or an API
    object's ``<a id>`` at a block's start)."""




def best_passage(markdown: str, query: str) -> Passage:
    """The block of ``markdown`` that holds the most of ``query``'s terms, with the
    headings above it; fenced code counts as one block and its ``#`` lines are not
    headings."""
    wanted = set(terms(query))
    named = names_in(query)
    path: list[tuple[int, str]] = []
    anchors: tuple[str, ...] = ()
    best = Passage((), "")
    best_score = -1
    for level, block in _blocks(markdown):
        if level:
            path = [entry for entry in path if entry[0] < level] + [(level, block)]
            anchors = tuple(ANCHOR.findall(block))
            continue
        opened = opening_anchors(block)
        if opened:
            anchors = opened
        # The words of the block count most, those of its heading next.
        heading_terms = terms(path[-1][1]) if path else []
        score = 2 * len(wanted.intersection(terms(block))) + len(
            wanted.intersection(heading_terms))
        if any(named.intersection(_object_names(ident)) for ident in opened):
            score += 1000  # the entry of the object the query names
        if score > best_score:
            best_score = score
            best = Passage(tuple(title for _, title in path), _snippet(block, wanted), anchors)
    return best


def _blocks(markdown: str) -> Iterable[tuple[int, str]]:
    """The headings (their level and text) and blocks (level 0) of ``markdown``; fenced
    code is one block with the text around it."""
    block: list[str] = []
    for line in scan(markdown):
        if line.level or (not line.code and not line.text.strip()):
            if block:
                yield 0, "\n".join(block)
                block = []
            if line.level:
                yield line.level, line.heading
            continue
        block.append(line.text)
    if block:
        yield 0, "\n".join(block)


def _snippet(block: str, wanted: set[str]) -> str:
    """Up to ``SNIPPET_CHARS`` of ``block`` on one line, starting near its first match."""
    # A link keeps its text: the URL would take the room and may be cut.
    flat = " ".join(without_markup(block).split())
    if len(flat) <= SNIPPET_CHARS:
        return flat
    start = 0
    for match in _WORD.finditer(flat):
        if wanted.intersection(terms(match.group())):
            start = max(0, match.start() - 60)
            break
    if start:
        start = flat.find(" ", start) + 1 or start
    piece = flat[start:start + SNIPPET_CHARS]
    cut = piece.rfind(" ")
    if cut > SNIPPET_CHARS // 2:
        piece = piece[:cut]
    return ("…" if start else "") + piece + "…"
