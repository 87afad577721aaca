"""``llms.txt`` and ``llms-full.txt``.

``llms.txt`` (https://llmstxt.org) is written so that the reference parser,
``llms_txt.parse_llms_file``, returns every value intact::

    # Site name

    > Site description

    A short plain paragraph.

    ## Docs

    - [Title](https://example.com/page.md): Summary.

Choices the format leaves open:

- Sections follow the nav: a page goes under the first title of its ``section`` (its
  top-level nav section), sections in the order they first appear. Pages at the top of
  the nav (no section) come first, under :data:`ROOT_SECTION` ("Docs", the name the
  llmstxt.org examples use). Pages outside the nav go last under ``## Optional``, which
  readers may skip; a nav section itself named "Optional" joins them.
- The ``>`` line is the site description. Without one, it is the summary of the site's
  home page (the site's own words), and failing that a plain statement of what the file
  lists: nothing is invented about the project.
- Every value is written on one line. Square brackets in a title become parentheses,
  because the reference parser cannot read ``]`` inside link text, not even escaped;
  the rare title that would open a code span or an HTML tag running into the summary
  gets a backslash escape. Spaces, parentheses, angle brackets and backslashes in a URL
  are percent-encoded (it still names the same file).

A section of the nav with several pages in a folder of their own also gets an
``llms.txt`` in that folder (:func:`render_section_llms_txt`; which sections, by
:mod:`agentprose_core.records.scopes`), linked from the root file's paragraph.

``llms-full.txt`` is every page's agent view in reading order, each introduced by its
title and canonical URL, entries separated by a blank line::

    # Title

    Source: https://example.com/page/

    The body of the agent view...

The body's own leading ``# Title`` heading is dropped when it says the same as the
title, so it is not read twice. Front matter is not repeated: ``agentprose.json`` and
the ``.md`` files carry it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentprose_core.model import LLMS_FULL_NAME, LLMS_NAME
from agentprose_core.phrases import Phrases, phrases_for
from agentprose_core.records.scopes import (
    OPTIONAL_SECTION,
    ROOT_SECTION,
    group_of,
    groups,
    pages_under,
)
from agentprose_core.records.summaries import one_line, plain_text, summarize
from agentprose_core.render.index import ensure_checked
from agentprose_core.urls import base_url_of, page_key

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from agentprose_core.model import PageRecord, SiteRecord

__all__ = [
    "OPTIONAL_SECTION",
    "ROOT_SECTION",
    "entry_with_body",
    "full_entry",
    "full_entry_head",
    "iter_llms_full_txt",
    "render_llms_full_txt",
    "render_llms_txt",
    "render_section_llms_txt",
]


# What would end a Markdown link destination early (or, for the reference parser, a ")").
_URL_ESCAPES = str.maketrans(
    {
        "\\": "%5C",
        " ": "%20",
        "\t": "%09",
        "\n": "%0A",
        "\r": "%0D",
        "(": "%28",
        ")": "%29",
        "<": "%3C",
        ">": "%3E",
    }
)


# -- llms.txt -----------------------------------------------------------------------


def render_llms_txt(
    site: SiteRecord,
    pages: Sequence[PageRecord],
    *,
    intro: str | None = None,
    sections: Sequence[tuple[str, Sequence[str]]] = (),
    phrases: Phrases | None = None,
    mcp_endpoint: str | None = None,
) -> str:
    """``llms.txt`` for pages that went through :func:`~agentprose_core.render.index.check_pages`.

    ``intro`` replaces the default paragraph under the description. It may span several
    paragraphs but holds no headings: a line starting with ``#`` is escaped, since a
    ``##`` line would open a section for the parser. A blank ``intro`` means the default,
    because the reference parser loses the description when nothing follows it.

    ``sections`` replaces the nav's grouping: each title with the URLs of its pages, in
    the order given; pages in none of them go under ``## Optional``.

    ``phrases``: the fixed sentences, by default those of the site's language.
    ``mcp_endpoint``: the absolute URL of the site's MCP endpoint, named in the paragraph
    as a bare URL (a link would read as one more file of the site).
    """
    ensure_checked(site, pages)
    words = phrases or phrases_for(site.lang)
    name = _inline(site.name) or base_url_of(site.url)
    lines = [f"# {name}", "", f"> {_site_summary(site, pages, name, words)}", "",
             _intro(name, intro, words)]
    lines[-1] += _scopes_sentence(site, words) + _languages_sentence(site, words)
    if mcp_endpoint:
        lines[-1] += f"\n\n{words.llms_mcp} {_url(mcp_endpoint)}"
    for section, members in groups(pages, sections):
        lines += ["", f"## {_inline(section)}", ""]
        lines += [_link_line(page) for page in members]
    return "\n".join(lines) + "\n"


def _scopes_sentence(site: SiteRecord, words: Phrases) -> str:
    """The sentence of the root file's paragraph that links the sections' own files."""
    if not site.scopes:
        return ""
    base = base_url_of(site.url)
    links = ", ".join(f"[{_link_text(title)}]({_url(base + folder + LLMS_NAME)})"
                      for folder, title in site.scopes)
    return f"\n\n{words.llms_sections} {links}."


def _languages_sentence(site: SiteRecord, words: Phrases) -> str:
    """The sentence that links the ``llms.txt`` of the site's other languages."""
    others = [(lang, name, root) for lang, name, root in site.languages if lang != site.lang]
    if not others:
        return ""
    links = ", ".join(f"[{_link_text(name)} ({lang})]({_url(base_url_of(root) + LLMS_NAME)})"
                      for lang, name, root in others)
    return f"\n\n{words.llms_languages} {links}."


def render_section_llms_txt(
    site: SiteRecord, pages: Sequence[PageRecord], folder: str, title: str, *,
    full: bool = False, phrases: Phrases | None = None,
) -> str:
    """The ``llms.txt`` of the section ``title`` in ``folder`` (llms.txt v2 sub-path
    scoping): every page under the folder, the section's own pages grouped by their
    second-level nav section, the others under Optional. ``full``: the section also has
    an ``llms-full.txt``, which the paragraph links. ``phrases`` as for
    :func:`render_llms_txt`."""
    ensure_checked(site, pages)
    words = phrases or phrases_for(site.lang)
    base = base_url_of(site.url)
    name = _inline(site.name) or base
    under = pages_under(pages, base, folder)
    home_key = page_key(base + folder)
    home = next((page for page in under if page_key(page.url) == home_key), None)
    summary = _inline(home.summary or "") if home else ""
    summary = summary or words.section_summary.format(section=_inline(title), name=name)
    lines = [f"# {name}: {_inline(title)}", "", f"> {summary}", "",
             words.section_intro.format(url=_url(base + folder)) + " "
             + (f"{words.section_full} [{LLMS_FULL_NAME}]"
                f"({_url(base + folder + LLMS_FULL_NAME)}). " if full else "")
             + f"{words.section_site} [{LLMS_NAME}]({_url(base + LLMS_NAME)})."]
    for section, members in _section_groups(under, title):
        lines += ["", f"## {_inline(section)}", ""]
        lines += [_link_line(page) for page in members]
    return "\n".join(lines) + "\n"


def _section_groups(pages: Sequence[PageRecord], title: str) -> list[tuple[str, list[PageRecord]]]:
    grouped: dict[str, list[PageRecord]] = {one_line(title): []}
    optional = []
    for page in pages:
        if group_of(page) != one_line(title):
            optional.append(page)
            continue
        second = one_line(page.section[1]) if len(page.section) > 1 else ""
        grouped.setdefault(second or one_line(title), []).append(page)
    ordered = [*grouped.items(), (OPTIONAL_SECTION, optional)]
    return [(name, members) for name, members in ordered if members]


# A "<" that opens a tag, a comment or an instruction; an "&" that starts an entity;
# with the backslashes before them, which would otherwise escape our escape.
_HTML_START = re.compile(r"(\\*)(<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;))")


def _inline(text: str) -> str:
    """``text`` on one line, with what a Markdown reader would take for HTML escaped
    (a title ``</script><script>…`` stays text where llms.txt is rendered)."""
    line = one_line(text)
    if "<" in line or "&" in line:
        line = _HTML_START.sub(lambda m: m.group(1) * 2 + "\\" + m.group(2), line)
    return line


def _url(url: str) -> str:
    return url.strip().translate(_URL_ESCAPES)


def _site_summary(site: SiteRecord, pages: Sequence[PageRecord], name: str,
                  words: Phrases) -> str:
    """The site description, else the home page's summary, else what the file lists."""
    described = _inline(site.description or "")
    if described:
        return described
    home_key = page_key(base_url_of(site.url))
    home = next((page for page in pages if page_key(page.url) == home_key), None)
    if home is not None:
        summary = _inline(home.summary or "") or _inline(summarize(home.markdown))
        if summary:
            return summary
    return words.llms_summary.format(name=name)


def _intro(name: str, intro: str | None, words: Phrases) -> str:
    text = (intro or "").strip()
    if not text:
        return words.llms_intro.format(name=name)
    return "\n".join(_escape_heading(line) for line in text.splitlines())


def _escape_heading(line: str) -> str:
    stripped = line.lstrip()
    if not stripped.startswith("#"):
        return line
    return line[: len(line) - len(stripped)] + "\\" + stripped


def _link_line(page: PageRecord) -> str:
    url = _url(page.markdown_url)
    summary = _inline(page.summary or "")
    return f"- [{_link_text(page.title)}]({url})" + (f": {summary}" if summary else "")


def _link_text(title: str) -> str:
    """``title`` on one line as link text that no reader can take past its ``]``.

    Square brackets become parentheses: the reference parser stops at any ``]``, even an
    escaped one. A backtick run with no partner in the title and a ``<`` with no ``>``
    after it are backslash-escaped, or a partner later on the line (in the summary)
    would pull the link into a code span or an HTML tag; a trailing backslash, which
    would escape the closing bracket, is doubled. Other titles are written as they are.
    """
    text = _inline(title).replace("[", "(").replace("]", ")")
    pieces: list[str] = []
    at = 0
    while at < len(text):
        piece, at = _link_text_piece(text, at)
        pieces.append(piece)
    return "".join(pieces)


_BACKTICKS = re.compile(r"`+")
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _link_text_piece(text: str, at: int) -> tuple[str, int]:
    """The piece of ``text`` that starts at ``at``, made safe, and where the next starts."""
    char = text[at]
    if char == "\\":
        if at + 1 == len(text):
            return "\\\\", at + 1
        if text[at + 1] in _ASCII_PUNCTUATION:
            return text[at : at + 2], at + 2  # an escape the writer meant: keep it whole
    elif char == "`":
        run = len(text) - at - len(text[at:].lstrip("`"))
        end = _closing_run(text, at + run, run)
        return ("\\`" * run, at + run) if end is None else (text[at:end], end)
    elif char == "<" and ">" not in text[at:]:
        return "\\<", at + 1
    return char, at + 1


def _closing_run(text: str, start: int, length: int) -> int | None:
    """Where the code span opened by a run of ``length`` backticks ends, if it does."""
    for run in _BACKTICKS.finditer(text, start):
        if len(run.group()) == length:
            return run.end()
    return None


# -- llms-full.txt ------------------------------------------------------------------


def render_llms_full_txt(site: SiteRecord, pages: Sequence[PageRecord]) -> str:
    """``llms-full.txt`` for checked pages, as one string."""
    return "".join(iter_llms_full_txt(site, pages))


def iter_llms_full_txt(site: SiteRecord, pages: Sequence[PageRecord], *,
                       entries: Callable[[PageRecord], str] | None = None) -> Iterator[str]:
    """``llms-full.txt`` one page at a time, so a large site is never one string.

    The pages are checked now, before the first piece is produced. ``entries`` gives
    each page's :func:`full_entry` when the caller keeps them (a rebuild does).
    """
    ensure_checked(site, pages)
    entry = entries or full_entry
    return (("\n" if number else "") + entry(page) for number, page in enumerate(pages))


def full_entry(page: PageRecord) -> str:
    """``page``'s entry in ``llms-full.txt``: its title, its URL, its body."""
    head, body_start = full_entry_head(page)
    return entry_with_body(head, body_start, page)


def full_entry_head(page: PageRecord) -> tuple[str, int]:
    """What ``page``'s entry holds before its body, and where in its Markdown (less the
    blank lines around it) the body starts: after a first heading that repeats the
    title, which the entry's own heading says already."""
    title = one_line(page.title)
    markdown = page.markdown.strip("\n")
    body = _without_title(markdown, title)
    head = f"# {_inline(title)}\n\nSource: {page.canonical or page.url}\n"
    return head, len(markdown) - len(body)


def entry_with_body(head: str, body_start: int, page: PageRecord) -> str:
    """An entry of ``llms-full.txt`` from its head and ``page``'s body
    (:func:`full_entry_head`)."""
    body = page.markdown.strip("\n")[body_start:]
    return head + (f"\n{body}\n" if body else "")


_ATX_H1 = re.compile(r"#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*")


def _without_title(body: str, title: str) -> str:
    """``body`` without a first ``# heading`` that repeats ``title``."""
    first, _, rest = body.partition("\n")
    match = _ATX_H1.fullmatch(first)
    if match is None:
        return body
    # The same text needs no comparing as plain text (every page of a 1,000-page site,
    # and a tenth of writing llms-full.txt).
    heading = match.group(1)
    if heading != title and one_line(plain_text(heading)) != one_line(plain_text(title)):
        return body
    return rest.lstrip("\n")
