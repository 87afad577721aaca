"""Content HTML to Markdown: normalize, then an engine, then our finishing rules.

:func:`convert_fragment` is a pure function of picklable values, so callers can run it
in worker processes and cache it by a hash of its inputs.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING

from agentprose_core.convert.engines import available_engine, run_engine
from agentprose_core.convert.flatcode import flat_code_tokens
from agentprose_core.convert.normalize import normalize
from agentprose_core.convert.placeholders import Placeholders, leftover, splice
from agentprose_core.convert.plaintext import plain_conversion
from agentprose_core.convert.slugs import anchor_ids
from agentprose_core.convert.tree import Element, parse_fragment, to_html
from agentprose_core.diagnostics import Diagnostic
from agentprose_core.model import Conversion, Heading
from agentprose_core.preprocess import run_preprocess

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from agentprose_core.convert.rules.codeblocks import SourceFence
    from agentprose_core.settings import Settings

__all__ = ["Conversion", "available_engine", "convert_element", "convert_fragment"]

_BLANK_RUNS = re.compile(r"\n{3,}")


def _separate_quotes(lines: list[str], separator: str) -> list[str]:
    """A blank line wherever a blockquote meets other text, as every style guide wants.
    Each line is looked at once: whether it shows anything and whether it is a quote's
    are carried to the next (pages have thousands of lines)."""
    out: list[str] = []
    shown = quoted = False  # of out[-1]
    for given in lines:
        line = given
        if separator in given:
            content = given.lstrip(" >")
            # The separator becomes a blank line where it stands, its quote marks kept.
            if content == separator:
                line = given[: len(given) - len(content)].rstrip()
        if out and out[-1] == line and not line.lstrip(" >"):
            continue  # one blank line (in a quote: one line of marks) is enough
        stripped = line.lstrip()
        shows, quote = bool(stripped), stripped.startswith(">")
        if shown and shows and quoted != quote:
            out.append("")
        out.append(line)
        shown, quoted = shows, quote
    return out


_QUOTE_MARKS = re.compile(r"[ >]*")
# A line that is a quote's (``_is_quote``): at the start, or after a newline.
_QUOTE_FIRST = re.compile(r"\s*>")
_QUOTE_LINE = re.compile(r"\n\s*>")
# A table row in a quote: at the start, or after a newline (a pattern that starts with
# a literal is searched for that character first; ``^`` with MULTILINE tries every
# position, a tenth of a millisecond a page).
_QUOTED_ROW_FIRST = re.compile(r" *>[ >]*\|")
_QUOTED_ROW = re.compile(r"\n *>[ >]*\|")


def _end_tables(lines: list[str]) -> list[str]:
    """A blank line after every pipe table: html-to-markdown leaves none inside a
    blockquote, and the next line then reads as one more row."""
    out: list[str] = []
    for line in lines:
        if out:
            marks = _QUOTE_MARKS.match(out[-1])
            quote = marks.group() if marks else ""
            last, this = out[-1][len(quote):], line[len(quote):]
            if last.startswith("|") and this.strip() and not this.startswith("|") \
                    and line.startswith(quote):
                out.append(quote.rstrip())
        out.append(line)
    return out


def _finish(markdown: str, separator: str) -> str:
    """Our layout rules on the engine's output, before code goes back in."""
    markdown = markdown.replace("\r\n", "\n").replace("\u00a0", " ")
    if " \n" in markdown or "\t\n" in markdown or markdown.endswith((" ", "\t")):
        # No spaces or tabs at the end of a line (str methods: a regex is 5x slower).
        markdown = "\n".join(line.rstrip(" \t") for line in markdown.split("\n"))
    if _QUOTED_ROW_FIRST.match(markdown) or _QUOTED_ROW.search(markdown):
        # a table in a quote, where an engine leaves it open
        markdown = "\n".join(_end_tables(markdown.split("\n")))
    if separator in markdown or _QUOTE_FIRST.match(markdown) or _QUOTE_LINE.search(markdown):
        # else there is nothing to separate (the blank lines it would fold, the next
        # step folds)
        markdown = "\n".join(_separate_quotes(markdown.split("\n"), separator))
    if "\n\n\n" in markdown:
        markdown = _BLANK_RUNS.sub("\n\n", markdown)
    return markdown.strip("\n") + "\n" if markdown.strip() else ""


def convert_element(
    root: Element,
    *,
    page_url: str,
    site_map: Mapping[str, str],
    settings: Settings,
    source_fences: Sequence[SourceFence] = (),
) -> Conversion:
    """Convert a parsed content element (changed in place) to Markdown. A failure of
    one of the rules on this page does not stop the build: the view is the page's
    plain text, with a warning naming the page."""
    if settings.preprocess:
        run_preprocess(settings.preprocess, root, page_url)
    try:
        return _converted(root, page_url=page_url, site_map=site_map, settings=settings,
                          source_fences=source_fences)
    except Exception as error:  # a bug of ours on this page: never the whole build
        return plain_conversion(root, page_url, error)


def _converted(
    root: Element,
    *,
    page_url: str,
    site_map: Mapping[str, str],
    settings: Settings,
    source_fences: Sequence[SourceFence],
) -> Conversion:
    normalized = normalize(
        root, page_url=page_url, site_map=site_map, source_fences=source_fences
    )
    document = to_html(normalized.root)
    converted, notes = run_engine(document, settings.converter, page_url)
    placeholders = normalized.placeholders
    markdown, stray = leftover(
        splice(_finish(converted, placeholders.separator), placeholders), placeholders
    )
    if stray:  # the invariant every output rests on: no internal token reaches a reader
        markdown, fallback = _without_stray(document, normalized.placeholders,
                                            markdown=markdown, stray=stray,
                                            page_url=page_url, converter=settings.converter)
        notes = (*notes, *fallback)
    return Conversion(
        markdown=markdown,
        headings=normalized.headings,
        # every note names its page, whichever tool logs it
        diagnostics=tuple(note if note.location else dataclasses.replace(note, location=page_url)
                          for note in (*notes, *normalized.diagnostics)),
        unanchored=_unanchored(normalized.ids, normalized.headings, markdown),
    )


def _without_stray(document: str, placeholders: Placeholders, *, markdown: str, stray: int,
                   page_url: str, converter: str) -> tuple[str, tuple[Diagnostic, ...]]:
    """The Markdown of a page whose engine lost some of the converter's placeholders
    (its markup split or dropped them): the other engine's, where it splices every one
    back; else ``markdown``, without them. Either way a warning names the page."""
    used, _ = available_engine(converter)
    other = "markdownify" if used == "html-to-markdown" else "html-to-markdown"
    again, again_notes = run_engine(document, other, page_url)
    retried, still = leftover(splice(_finish(again, placeholders.separator), placeholders),
                              placeholders)
    if not still:
        return retried, (*again_notes, Diagnostic(
            "placeholder-leak",
            f"the {used} engine lost {stray} internal placeholder(s) of the converter on "
            f"this page, so it was converted with {other} instead (nothing is missing). "
            "Please report the page to agentprose.", location=page_url))
    return markdown, (Diagnostic(
        "placeholder-leak",
        f"{stray} internal placeholder(s) of the converter were left in this page's "
        "Markdown by both engines and removed; some of its text may be missing from the "
        "view. Please report the page to agentprose.", location=page_url),)


def _unanchored(ids: frozenset[str], headings: tuple[Heading, ...],
                markdown: str) -> tuple[str, ...]:
    """The content's ids that its view cannot be linked by: a heading's id is (its slug
    is the id, or an anchor carries it), an ``<a id>`` anchor's is."""
    if not ids:
        return ()
    left = ids - {heading.id for heading in headings}
    if left and "<a id=" in markdown:
        left -= anchor_ids(markdown)
    return tuple(sorted(left))


def convert_fragment(
    fragment: str,
    *,
    page_url: str,
    site_map: Mapping[str, str],
    settings: Settings,
    source_fences: Sequence[SourceFence] = (),
) -> Conversion:
    """Convert the content HTML a build tool holds for one page to Markdown."""
    if not fragment.strip():
        return Conversion(markdown="", headings=())
    root = parse_fragment(flat_code_tokens(fragment))
    return convert_element(
        root, page_url=page_url, site_map=site_map, settings=settings,
        source_fences=source_fences,
    )
