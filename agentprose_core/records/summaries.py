"""One-sentence page summaries, from the page's agent view, for ``llms.txt`` and
``agentprose.json`` when a page gives no description of its own."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["one_line", "plain_text", "summarize"]


def summarize(markdown: str, max_chars: int = 200) -> str:
    """The first sentence of the first prose paragraph of ``markdown``, as plain text.

    Headings, code, tables, lists, blockquotes (admonitions among them), HTML, math
    blocks and image-only paragraphs are passed over, as is a paragraph that ends with
    a colon (it introduces what follows rather than saying what the page is about); a
    short release banner or "label: value" line is the summary only when no later
    paragraph gives one.
    Links keep their text, images and emphasis marks go. A sentence longer than
    ``max_chars`` is cut at a word and ends with "…". Returns "" when there is no prose.
    """
    if max_chars < 1:
        raise ValueError(f"max_chars must be at least 1, not {max_chars}.")
    in_labelled = False  # after a tab's or a term's bold label, until the next heading
    banner = ""
    for paragraph, before in _prose_paragraphs(markdown):
        if paragraph is None:  # a heading
            in_labelled = False
            continue
        if _LABEL.match(paragraph):  # a tab's or a term's bold label, not prose
            in_labelled = True
            continue
        if in_labelled or before in ("code", "math"):  # a tab's text; a block's caption
            continue
        text = plain_text(paragraph)
        sentence = _first_sentence(text) if text and not text.endswith(":") else ""
        if not _is_sentence(_MATH.sub("", sentence)):
            continue
        if not _is_banner(text):
            return _clip(sentence, max_chars)
        banner = banner or sentence  # the summary only if nothing else says more
    return _clip(banner, max_chars) if banner else ""


_RELEASE = re.compile(r"(?:release|version|latest release|new in)\b", re.IGNORECASE)
_BANNER_WORDS = 6


def _is_banner(text: str) -> bool:
    """A short line that states a release or a fact, not what the page is about: a
    release banner ("Release v2.34.2.", "Version 3.0 is out") or a "label: value" line
    ("PyPI package name: pytest"), as home pages start with."""
    if len(_WORDS.findall(text)) > _BANNER_WORDS:
        return False
    label, colon, value = _URL.sub("", text).partition(":")
    return bool(_RELEASE.match(text)) or bool(colon and label.strip() and 0 < len(
        value.split()) <= 2)


_WORDS = re.compile(r"[^\W\d_]+")


@cache
def _cjk() -> re.Pattern[str]:
    """CJK characters; compiled when first needed (2 ms: a class this wide is compiled
    code point by code point), which a site in a Latin script never is."""
    return re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


_MATH = re.compile(r"\$[^$]*\$|\\\(.*?\\\)")


def _is_sentence(text: str) -> bool:
    """Two words at least (or a few CJK characters): one word is a fragment after a
    colon ("allow."), a label or a file name, not what a page is about; nor is a URL."""
    text = _URL.sub("", text)
    return len(_WORDS.findall(text)) >= 2 or len(_cjk().findall(text)) >= 4


_URL = re.compile(r"\b(?:[a-z][a-z0-9+.-]*://|www\.)\S+", re.IGNORECASE)


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
    in_html = in_list = False
    for line in _without_front_matter(markdown).split("\n"):
        stripped = line.strip()
        # A list runs over its items' indented lines (and blank lines between them).
        in_list = fence is None and not in_html and (_LIST_ITEM.match(line) is not None or (
            in_list and (not stripped or line[:1] in (" ", "\t"))))
        if in_list and not lines:
            continue
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
_LIST_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")


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


def one_line(text: str) -> str:
    """``text`` with every run of whitespace, newlines included, as one space."""
    return " ".join(text.split())


def plain_text(markdown: str) -> str:
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
    return one_line(text)


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
