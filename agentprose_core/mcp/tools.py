"""What each tool answers, as text for a model: functions from the site to a string.

Every answer is at most :data:`MAX_CHARS` characters. A page longer than that comes in
parts (:func:`paged`): each part is a slice of the view, so the parts put together are
the view byte for byte. A request a tool cannot answer raises :class:`ValueError`
with a sentence that says what to ask instead; the server turns it into a tool error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentprose_core.mcp.markdown import scan, without_markup
from agentprose_core.mcp.search import Passage, best_passage
from agentprose_core.mcp.site import Heading, LoadedSite, Post
from agentprose_core.search.terms import terms

if TYPE_CHECKING:
    from agentprose_core.search.index import SearchIndex

__all__ = ["MAX_CHARS", "Bodies", "capped", "get_section", "list_pages", "paged", "quoted",
           "related_pages", "search_docs", "site_info", "table_of_contents"]

MAX_CHARS = 20_000
_FOOTER_ROOM = 200
MAX_RESULTS = 100

Bodies = Callable[[Post], str]
"""The Markdown body of a post's view (from the index, else from its view)."""


# -- pages in parts -----------------------------------------------------------------


_CUT_NOTE = "\n\n[Cut at {:,} characters.]"
_QUOTED = 200  # characters of a caller's own text an answer repeats


def capped(text: str, limit: int = MAX_CHARS) -> str:
    """``text`` within ``limit`` characters: every answer and error is (a query of a
    megabyte is not echoed back whole)."""
    if len(text) <= limit:
        return text
    note = _CUT_NOTE.format(limit)
    return text[: limit - len(note)] + note


def quoted(text: str) -> str:
    """A caller's text as an answer repeats it: quoted, and shortened when long."""
    return repr(text if len(text) <= _QUOTED else text[:_QUOTED] + "…")


def _cuts(text: str, size: int) -> list[int]:
    """Where each part of ``text`` starts: at a line start when one is in the second
    half of the part, else after ``size`` characters."""
    starts = [0]
    while len(text) - starts[-1] > size:
        start = starts[-1]
        newline = text.rfind("\n", start + size // 2, start + size)
        starts.append(newline + 1 if newline != -1 else start + size)
    return starts


def part_footer(part: int, count: int, tool: str) -> str:
    return f"\n\n[Part {part} of {count}: call {tool} again with part={part + 1} for the rest.]"


def paged(text: str, part: int, tool: str = "get_page") -> str:
    """Part ``part`` (from 1) of ``text``; the whole text when it fits in one answer."""
    starts = _cuts(text, MAX_CHARS - _FOOTER_ROOM)
    if not 1 <= part <= len(starts):
        raise ValueError(f"part must be between 1 and {len(starts)} for this page")
    end = starts[part] if part < len(starts) else len(text)
    piece = text[starts[part - 1]:end]
    if part < len(starts):
        piece += part_footer(part, len(starts), tool)
    return piece


def _fit(lines: list[str], head: str, more: Callable[[int], str]) -> str:
    """``head`` and as many of ``lines`` as fit in an answer; ``more(shown)`` says how
    to ask for the rest when some are left out."""
    shown: list[str] = []
    size = len(head) + _FOOTER_ROOM
    for line in lines:
        if size + len(line) + 1 > MAX_CHARS:
            break
        shown.append(line)
        size += len(line) + 1
    tail = "" if len(shown) == len(lines) else "\n" + more(len(shown))
    return head + "\n".join(shown) + tail


# -- site_info and list_pages ---------------------------------------------------------


def site_info(site: LoadedSite, built: str, searched: str) -> str:
    """The ``site_info`` tool's answer: the site, its sections and what search reads."""
    lines = [f"# {site.name}", ""]
    if site.description:
        lines += [site.description, ""]
    newest = max((post.modified for post in site.posts), default="")
    lines += [f"- Base URL: {site.url}", f"- Pages: {len(site.posts)}"]
    lines += [f"- Language: {site.lang}"] if site.lang else []
    lines += [f"- Index written: {built}"] if built else []
    lines += [f"- Newest page change: {newest}"] if newest else []
    lines += [f"- Generator: {site.generator}"] if site.generator else []
    lines += [f"- Search covers: {searched}", "", "## Sections", ""]
    for name, count in site.sections():
        lines.append(f"- {name or '(top level)'}: {count} page{'s' if count != 1 else ''}")
    return _fit(lines, "", lambda _shown: "[More sections: use list_pages.]")


_SINCE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2})?Z?)?")


def _since(value: str) -> str:
    value = value.strip()
    if not _SINCE.fullmatch(value):
        raise ValueError(f"since must be a date such as 2026-03-14 or a UTC time such as "
                         f"2026-03-14T10:30:00Z, not {value!r}")
    return value.removesuffix("Z")


def _page_line(post: Post) -> str:
    details = [f"modified {post.modified}"] if post.modified else []
    details += [f"published {post.published}"] if post.published else []
    details += [" › ".join(post.section)] if post.section else []
    summary = f": {post.summary}" if post.summary else ""
    return f"- [{post.title}]({post.url}){summary} ({'; '.join(details)})"


def list_pages(site: LoadedSite, *, section: str = "", tag: str = "", since: str = "",
               limit: int = 50, offset: int = 0) -> str:
    """The pages in reading order, filtered by section name, tag and change time."""
    limit = max(1, min(limit, MAX_RESULTS * 2))
    offset = max(0, offset)
    posts = site.posts
    if section:
        wanted = section.lower()
        posts = [p for p in posts if any(name.lower() == wanted for name in p.section)]
    if tag:
        wanted = tag.lower()
        posts = [p for p in posts if any(name.lower() == wanted for name in p.tags)]
    if since:
        start = _since(since)
        posts = [p for p in posts if p.modified.removesuffix("Z")[: len(start)] >= start]
    chosen = posts[offset:offset + limit]
    if not chosen:
        return "No pages match." if not posts else (
            f"No pages from offset {offset}: {len(posts)} match.")
    head = f"Pages {offset + 1}–{offset + len(chosen)} of {len(posts)}, in reading order:\n\n"
    lines = [_page_line(post) for post in chosen]

    def more(shown: int) -> str:
        return f"[More: call list_pages again with offset={offset + shown}.]"

    answer = _fit(lines, head, more)
    if offset + len(chosen) < len(posts) and answer.endswith(lines[-1]):
        answer += "\n\n" + more(len(chosen))
    return answer


# -- one page: outline and sections ---------------------------------------------------


def table_of_contents(post: Post, body: str | None) -> str:
    """The page's outline from the index, else from its body's headings."""
    headings = post.headings or tuple(mark.heading for mark in _marks(body or "", ()))
    head = f"# {post.title}\n\n{post.url}\n\n"
    if not headings:
        return head + "(The page has no headings.)"
    top = min(heading.level for heading in headings)
    lines = [f"{'  ' * (heading.level - top)}- {heading.title}"
             + (f" (#{heading.id})" if heading.id else "") for heading in headings]
    return _fit(lines, head, lambda _shown: "[The outline goes on: use get_page.]")




@dataclass(frozen=True)
class _Mark:
    line: int
    heading: Heading
    anchors: tuple[str, ...] = ()


_WORDS = re.compile(r"\w+")


def _words(title: str) -> str:
    """A heading's words only, case-folded: what two spellings of one title share (an
    emoji or a symbol the index leaves out, punctuation, emphasis)."""
    return " ".join(_WORDS.findall(_plain(title).lower()))


def _plain(title: str) -> str:
    """A heading's words without Markdown: anchors, links, code and emphasis marks."""
    text = without_markup(title)
    return " ".join(text.replace("`", "").replace("**", "").replace("\\", "").split())


def _marks(body: str, known: tuple[Heading, ...]) -> list[_Mark]:
    """The body's headings, and its lines that start with an anchor the index lists as
    a heading (API objects), with their line numbers; fenced code is skipped."""
    levels = {heading.id: heading for heading in known if heading.id}
    # A heading written without an anchor takes the id the index gives its title.
    unclaimed: dict[tuple[int, str], str] = {}
    for heading in known:
        if heading.id:
            unclaimed.setdefault((heading.level, _words(heading.title)), heading.id)
    found: list[_Mark] = []
    for line in scan(body):
        # Of a heading's several anchors, the id the index gives it names it.
        listed = next((levels[ident] for ident in line.anchors if ident in levels), None)
        if line.level:
            level, title = line.level, _plain(line.heading)
            ident = listed.id if listed else (
                line.anchors[0] if line.anchors else unclaimed.pop((level, _words(title)), ""))
            found.append(_Mark(line.number, Heading(level, title, ident), line.anchors))
        elif listed is not None and not line.code:
            found.append(_Mark(line.number, Heading(listed.level, listed.title, listed.id),
                               line.anchors))
    return found


def _matches(mark: _Mark, wanted: str) -> bool:
    """Whether ``wanted`` (an id, ``#id`` or a title) names the heading ``mark``."""
    heading = mark.heading
    if wanted.removeprefix("#") in (heading.id, *mark.anchors) and wanted.strip("#"):
        return True
    return heading.title.lower() in (wanted.lower(), _plain(wanted).lower()) or (
        bool(_words(wanted)) and _words(heading.title) == _words(wanted))


def get_section(post: Post, body: str, heading: str, part: int = 1) -> str:
    """One section of the page: from the heading (or anchored API object) named by id
    or title to the next one of the same or a higher level."""
    if not heading.strip():
        raise ValueError("heading is empty: give a heading's id or title "
                         "(table_of_contents lists them)")
    marks = _marks(body, post.headings)
    chosen = next((i for i, mark in enumerate(marks) if _matches(mark, heading.strip())),
                  None)
    if chosen is None:
        names = ", ".join(repr(mark.heading.id or mark.heading.title) for mark in marks[:40])
        raise ValueError(f"{post.title} has no section {quoted(heading)}; its sections: "
                         f"{names or 'none'}")
    mark = marks[chosen]
    end = next((later.line for later in marks[chosen + 1:]
                if later.heading.level <= mark.heading.level), None)
    lines = body.split("\n")
    text = "\n".join(lines[mark.line:end]).strip("\n")
    link = f"{post.url}#{mark.heading.id}" if mark.heading.id else post.url
    return paged(f"From {post.title} ({link}):\n\n{text}\n", part, "get_section")


# -- search_docs and related_pages ------------------------------------------------------


def _fragment(post: Post, passage: Passage) -> str:
    """The page URL with the id of the passage's anchor or innermost heading, when the
    index lists it (not for the page's title)."""
    ids = {heading.id: heading for heading in post.headings if heading.id}
    listed = next((ident for ident in passage.anchors if ident in ids), None)
    if listed is not None:
        return f"{post.url}#{listed}" if ids[listed].level > 1 else post.url
    if passage.headings:
        wanted = _plain(passage.headings[-1]).lower()
        for heading in ids.values():
            if heading.level > 1 and heading.title.lower() == wanted:
                return f"{post.url}#{heading.id}"
    return post.url


def _path(post: Post, passage: Passage) -> str:
    """Section › page › headings, without a name repeated next to itself."""
    names: list[str] = []
    for name in (*post.section, post.title, *(_plain(t) for t in passage.headings)):
        if not names or names[-1] != name:
            names.append(name)
    return " › ".join(names)


def search_docs(site: LoadedSite, index: SearchIndex, bodies: Bodies, query: str, *,
                limit: int = 10) -> str:
    """The ``search_docs`` tool's answer: the best ``limit`` pages for ``query``."""
    if not terms(query):
        raise ValueError("query has no words to search for")
    limit = max(1, min(limit, MAX_RESULTS))
    hits = index.search(query, limit)
    if not hits:
        return f"Nothing on {site.name} matches {quoted(query)}."
    lines = []
    for rank, hit in enumerate(hits, 1):
        post = site.posts[hit.number]
        body = bodies(post)
        passage = best_passage(body, query)
        lines.append(f"{rank}. [{post.title}]({_fragment(post, passage)})"
                     f" (score {hit.score})\n   {_path(post, passage)}\n   {passage.snippet}")
    head = f"{len(hits)} result{'s' if len(hits) != 1 else ''} for {quoted(query)}:\n\n"
    return _fit(lines, head, lambda shown: f"[{len(hits) - shown} more left out.]")


def related_pages(site: LoadedSite, index: SearchIndex, links: Sequence[Sequence[int]],
                  post: Post, limit: int = 5) -> str:
    """Pages near ``post``: links either way, shared section and tags, shared words."""
    limit = max(1, min(limit, MAX_RESULTS))
    scores: dict[int, float] = {}
    reasons: dict[int, list[str]] = {}

    def add(number: int, score: float, why: str) -> None:
        if number != post.number:
            scores[number] = scores.get(number, 0.0) + score
            reasons.setdefault(number, []).append(why)

    for number in links[post.number]:
        add(number, 3.0, "linked from this page")
    for number, targets in enumerate(links):
        if post.number in targets:
            add(number, 3.0, "links to this page")
    for other in site.posts:
        if post.section and other.section[:1] == post.section[:1]:
            same = other.section == post.section
            add(other.number, 2.0 if same else 1.0,
                f"same section ({' › '.join(other.section if same else other.section[:1])})")
        shared = {tag.lower() for tag in post.tags} & {t.lower() for t in other.tags}
        if shared:
            add(other.number, min(len(shared), 3), f"tags: {', '.join(sorted(shared))}")
    own = index.term_scores(post.number)
    top = sorted(own, key=lambda term: (-own[term], term))[:15]
    hits = [hit for hit in index.search(top, limit * 4 + 1) if hit.number != post.number]
    if hits and hits[0].score > 0:  # words every page has score 0: they relate none
        best = hits[0].score
        for hit in hits:
            add(hit.number, 2.0 * hit.score / best, "shares words")
    ranked = sorted(scores, key=lambda number: (-scores[number], number))[:limit]
    if not ranked:
        return f"No pages related to {post.title} were found."
    lines = [f"- [{site.posts[n].title}]({site.posts[n].url}): {'; '.join(reasons[n])}"
             for n in ranked]
    return _fit(lines, f"Pages related to {post.title} ({post.url}):\n\n",
                lambda _shown: "[More left out.]")
