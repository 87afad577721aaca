"""``llms.txt`` and ``llms-full.txt``, and the one-sentence page summaries they use.

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

from agentprose_core.render.index import ensure_checked
from agentprose_core.urls import base_url_of, page_key

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from agentprose_core.model import PageRecord, SiteRecord

__all__ = [
    "OPTIONAL_SECTION",
    "ROOT_SECTION",
    "iter_llms_full_txt",
    "render_llms_full_txt",
    "render_llms_txt",
    "summarize",
]

ROOT_SECTION = "Docs"
OPTIONAL_SECTION = "Optional"

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
) -> str:
    """``llms.txt`` for pages that went through :func:`~agentprose_core.render.index.check_pages`.

    ``intro`` replaces the default paragraph under the description. It may span several
    paragraphs but holds no headings: a line starting with ``#`` is escaped, since a
    ``##`` line would open a section for the parser. A blank ``intro`` means the default,
    because the reference parser loses the description when nothing follows it.

    ``sections`` replaces the nav's grouping: each title with the URLs of its pages, in
    the order given; pages in none of them go under ``## Optional``.
    """
    ensure_checked(site, pages)
    name = _one_line(site.name) or base_url_of(site.url)
    lines = [f"# {name}", "", f"> {_site_summary(site, pages, name)}", "", _intro(name, intro)]
    groups = _given_sections(pages, sections) if sections else _sections(pages)
    for section, members in groups:
        lines += ["", f"## {section}", ""]
        lines += [_link_line(page) for page in members]
    return "\n".join(lines) + "\n"


def _site_summary(site: SiteRecord, pages: Sequence[PageRecord], name: str) -> str:
    """The site description, else the home page's summary, else what the file lists."""
    described = _one_line(site.description or "")
    if described:
        return described
    home_key = page_key(base_url_of(site.url))
    home = next((page for page in pages if page_key(page.url) == home_key), None)
    if home is not None:
        summary = _one_line(home.summary or "") or summarize(home.markdown)
        if summary:
            return summary
    return f"Markdown versions of the pages of {name}."


def _intro(name: str, intro: str | None) -> str:
    text = (intro or "").strip()
    if not text:
        return (
            f"Each link below leads to a page of {name} as Markdown. The pages follow "
            "the site's reading order, grouped by its sections."
        )
    return "\n".join(_escape_heading(line) for line in text.splitlines())


def _escape_heading(line: str) -> str:
    stripped = line.lstrip()
    if not stripped.startswith("#"):
        return line
    return line[: len(line) - len(stripped)] + "\\" + stripped


def _sections(pages: Sequence[PageRecord]) -> list[tuple[str, list[PageRecord]]]:
    """The pages grouped as llms.txt lists them: root pages, nav sections, Optional."""
    groups: dict[str, list[PageRecord]] = {ROOT_SECTION: []}
    for page in pages:
        groups.setdefault(_section_of(page), []).append(page)
    optional = groups.pop(OPTIONAL_SECTION, [])
    ordered = [*groups.items(), (OPTIONAL_SECTION, optional)]
    return [(name, members) for name, members in ordered if members]


def _given_sections(
    pages: Sequence[PageRecord], sections: Sequence[tuple[str, Sequence[str]]]
) -> list[tuple[str, list[PageRecord]]]:
    by_url = {page_key(page.url): page for page in pages}
    placed: set[str] = set()
    groups: list[tuple[str, list[PageRecord]]] = []
    for title, urls in sections:
        keys = [key for key in map(page_key, urls) if key in by_url and key not in placed]
        members = [by_url[key] for key in keys]
        placed.update(page_key(page.url) for page in members)
        groups.append((_one_line(title) or ROOT_SECTION, members))
    rest = [page for page in pages if page_key(page.url) not in placed]
    groups.append((OPTIONAL_SECTION, rest))
    return [(name, members) for name, members in groups if members]


def _section_of(page: PageRecord) -> str:
    if not page.in_nav:
        return OPTIONAL_SECTION
    top = _one_line(page.section[0]) if page.section else ""
    return top or ROOT_SECTION


def _link_line(page: PageRecord) -> str:
    url = page.markdown_url.strip().translate(_URL_ESCAPES)
    summary = _one_line(page.summary or "")
    return f"- [{_link_text(page.title)}]({url})" + (f": {summary}" if summary else "")


def _link_text(title: str) -> str:
    """``title`` on one line as link text that no reader can take past its ``]``.

    Square brackets become parentheses: the reference parser stops at any ``]``, even an
    escaped one. A backtick run with no partner in the title and a ``<`` with no ``>``
    after it are backslash-escaped, or a partner later on the line (in the summary)
    would pull the link into a code span or an HTML tag; a trailing backslash, which
    would escape the closing bracket, is doubled. Other titles are written as they are.
    """
    text = _one_line(title).replace("[", "(").replace("]", ")")
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


def _one_line(text: str) -> str:
    return " ".join(text.split())


# -- llms-full.txt ------------------------------------------------------------------


def render_llms_full_txt(site: SiteRecord, pages: Sequence[PageRecord]) -> str:
    """``llms-full.txt`` for checked pages, as one string."""
    return "".join(iter_llms_full_txt(site, pages))


def iter_llms_full_txt(site: SiteRecord, pages: Sequence[PageRecord]) -> Iterator[str]:
    """``llms-full.txt`` one page at a time, so a large site is never one string.

    The pages are checked now, before the first piece is produced.
    """
    ensure_checked(site, pages)
    return (("\n" if number else "") + _full_entry(page) for number, page in enumerate(pages))


def _full_entry(page: PageRecord) -> str:
    title = _one_line(page.title)
    body = _without_title(page.markdown.strip("\n"), title)
    head = f"# {title}\n\nSource: {page.url}\n"
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
    if heading != title and _one_line(_plain(heading)) != _one_line(_plain(title)):
        return body
    return rest.lstrip("\n")


# -- summaries ----------------------------------------------------------------------


def summarize(markdown: str, max_chars: int = 200) -> str:
    """The first sentence of the first prose paragraph of ``markdown``, as plain text.

    Headings, code, tables, lists, blockquotes (admonitions among them), HTML, math
    blocks and image-only paragraphs are passed over, as is a paragraph that ends with
    a colon: it introduces what follows rather than saying what the page is about.
    Links keep their text, images and emphasis marks go. A sentence longer than
    ``max_chars`` is cut at a word and ends with "…". Returns "" when there is no prose.
    """
    if max_chars < 1:
        raise ValueError(f"max_chars must be at least 1, not {max_chars}.")
    in_labelled = False  # after a tab's or a term's bold label, until the next heading
    for paragraph, before in _prose_paragraphs(markdown):
        if paragraph is None:  # a heading
            in_labelled = False
            continue
        if _LABEL.match(paragraph):  # a tab's or a term's bold label, not prose
            in_labelled = True
            continue
        if in_labelled or before in ("code", "math"):  # a tab's text; a block's caption
            continue
        text = _plain(paragraph)
        sentence = _first_sentence(text) if text and not text.endswith(":") else ""
        if _is_sentence(_MATH.sub("", sentence)):
            return _clip(sentence, max_chars)
    return ""


_WORDS = re.compile(r"[^\W\d_]+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_MATH = re.compile(r"\$[^$]*\$|\\\(.*?\\\)")


def _is_sentence(text: str) -> bool:
    """Two words at least (or a few CJK characters): one word is a fragment after a
    colon ("allow."), a label or a file name, not what a page is about."""
    return len(_WORDS.findall(text)) >= 2 or len(_CJK.findall(text)) >= 4


_FENCE = re.compile(r"(`{3,}|~{3,}|\$\$)")
_LABEL = re.compile(r"^\*\*[^*]+\*\*:?$")
_NOT_PROSE = re.compile(
    r"""(?x)
    \#{1,6}(?:\s|$)                   # heading
    | [>|<]                           # blockquote, table, HTML
    | `{3,} | ~{3,} | \$\$ | \\\[      # code fence, display math
    | (?:[-*+]|\d{1,9}[.)])(?:\s|$)    # list item
    | ([-*_])(?:[ \t]*\1){2,}[ \t]*$    # thematic break
    | \[[^\]]+\]:\s                   # link reference definition
    """
)


def _prose_paragraphs(markdown: str) -> Iterator[tuple[str | None, str]]:
    """Runs of plain text lines, each joined into one line, in document order, with
    what comes right after each (``"code"``, ``"math"`` or ``""``); None for a heading."""
    lines: list[str] = []
    ended: str | None = None  # a paragraph a blank line ended: what follows tells more
    fence: str | None = None
    in_html = False
    for line in _without_front_matter(markdown).split("\n"):
        stripped = line.strip()
        if ended is not None and stripped:
            opens = _opened_fence(stripped) if not _is_prose(line, continuing=False) else None
            yield ended, "math" if opens in ("$$", "\\]") else "code" if opens else ""
            ended = None
        if in_html:  # an HTML block (a complex table) runs to the next blank line
            in_html = bool(stripped)
        elif fence is not None:
            fence = None if stripped.startswith(fence) else fence
        elif not lines and _HTML_START.match(stripped):
            in_html = True
        elif _is_prose(line, continuing=bool(lines)):
            lines.append(stripped)
        else:
            if lines:
                ended, lines = " ".join(lines), []
                if stripped:  # not a blank line: a block starts right after the text
                    yield ended, ""
                    ended = None
            fence = _opened_fence(stripped)
            if _HEADING.match(stripped):
                yield None, ""
    if lines or ended is not None:
        yield (ended if ended is not None else " ".join(lines)), ""


_HEADING = re.compile(r"#{1,6}(?:\s|$)")


_HTML_START = re.compile(r"</?[A-Za-z][\w-]*(\s|/?>|$)")


def _is_prose(line: str, *, continuing: bool) -> bool:
    """True for a line of paragraph text (four-space indents are code, unless continuing)."""
    stripped = line.strip()
    if not stripped or _NOT_PROSE.match(stripped):
        return False
    return continuing or not line.startswith(("    ", "\t"))


def _opened_fence(stripped: str) -> str | None:
    """The marker that closes the fence ``stripped`` opens, or None."""
    if stripped.startswith("\\["):  # display math over several lines
        return None if stripped.endswith("\\]") else "\\]"
    match = _FENCE.match(stripped)
    if match is None:
        return None
    marker = match.group(1)
    if marker == "$$" and len(stripped) > 2 and stripped.endswith("$$"):
        return None  # $$ x $$ on one line
    return marker


def _without_front_matter(markdown: str) -> str:
    if not markdown.startswith("---\n"):
        return markdown
    end = markdown.find("\n---\n", 3)
    return markdown if end < 0 else markdown[end + len("\n---\n") :]


# Inline code, backslash escapes and inline math are set aside before the other rules
# run, so that their characters never read as Markdown syntax.
_PROTECTED = re.compile(r"(`+)(.+?)\1|\\([!-/:-@\[-`{-~])|(\$[^$\s][^$]*\$)")
_INLINE_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"!\[[^\]]*\](?:\((?:[^()]|\([^()]*\))*\)|\[[^\]]*\])"), ""),  # images
    (re.compile(r"\[\^[^\]]+\]"), ""),  # footnote references
    (re.compile(r"\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)"), r"\1"),  # inline links
    (re.compile(r"\[([^\]]+)\]\[[^\]]*\]"), r"\1"),  # reference links
    (re.compile(r"<((?:https?|mailto):[^>\s]+)>"), r"\1"),  # autolinks
    (re.compile(r"<br\s*/?>", re.IGNORECASE), " "),  # line breaks
    (re.compile(r"</?[A-Za-z][^>]*>"), ""),  # other inline HTML
    (re.compile(r"(?<!\w)(\*\*|__)(?=\S)(.+?)(?<=\S)\1(?!\w)"), r"\2"),  # strong
    (re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*"), r"\1"),  # strong inside a word
    (re.compile(r"(?<!\w)([*_])(?=\S)(.+?)(?<=\S)\1(?!\w)"), r"\2"),  # emphasis
    (re.compile(r"~~(?=\S)(.+?)(?<=\S)~~"), r"\1"),  # strikethrough
)


def _plain(markdown: str) -> str:
    """Inline Markdown as the text a reader sees, on one line."""
    kept: list[str] = []

    def set_aside(match: re.Match[str]) -> str:
        code, escaped, math = match.group(2), match.group(3), match.group(4)
        kept.append(code.strip() if code is not None else escaped or math)
        return f"\x00{len(kept) - 1}\x00"

    text = _PROTECTED.sub(set_aside, markdown.replace("\x00", ""))
    for pattern, replacement in _INLINE_RULES:
        text = pattern.sub(replacement, text)
    text = re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], text)
    return _one_line(text)


_SENTENCE_END = re.compile(r"[.!?…]+[\"'”’)\]]*(?=\s+(\S))|[。！？]")
_INITIALISM = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]|[A-Z]")
_ABBREVIATIONS = frozenset({"cf", "dr", "fig", "mr", "mrs", "ms", "no", "st", "vs"})


def _first_sentence(text: str) -> str:
    """``text`` up to its first sentence end; abbreviations such as "e.g." do not count."""
    for match in _SENTENCE_END.finditer(text):
        following = match.group(1)
        mid_sentence = following is not None and (
            following.islower() or _abbreviation(text[: match.start()])
        )
        if not mid_sentence:
            return text[: match.end()]
    return text


def _abbreviation(before: str) -> bool:
    words = before.split()
    word = words[-1].lstrip("(\"'“‘") if words else ""
    return bool(_INITIALISM.fullmatch(word)) or word.lower() in _ABBREVIATIONS


def _clip(text: str, max_chars: int) -> str:
    if len(text) <= max_chars:
        return text
    cut = text[: max_chars - 1]
    if not text[max_chars - 1].isspace() and " " in cut:
        cut = cut.rsplit(" ", 1)[0]  # do not end on half a word
    return cut.rstrip(" ,;:-–—") + "…"
