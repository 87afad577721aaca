"""Content HTML to Markdown: normalize, then an engine, then our finishing rules.

:func:`convert_fragment` is a pure function of picklable values, so callers can run it
in worker processes and cache it by a hash of its inputs.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from lxml import etree

from agentprose_core.convert.normalize import normalize
from agentprose_core.convert.placeholders import Placeholders, leftover, splice
from agentprose_core.convert.rules.codeblocks import SourceFence
from agentprose_core.convert.slugs import anchor_ids
from agentprose_core.convert.tree import BLOCK_TAGS, Element, parse_fragment, to_html
from agentprose_core.diagnostics import Diagnostic
from agentprose_core.model import Conversion, Heading
from agentprose_core.preprocess import run_preprocess
from agentprose_core.settings import Settings

__all__ = ["Conversion", "available_engine", "convert_element", "convert_fragment"]

Engine = Callable[[str], str]


def _html_to_markdown_engine() -> Engine:
    import html_to_markdown

    options = html_to_markdown.ConversionOptions(
        heading_style="atx",
        bullets="-",
        list_indent_width=2,
        escape_asterisks=False,
        escape_underscores=False,
        escape_misc=False,
        autolinks=False,
        expand_abbreviations=False,
        include_blockquote_citations=False,
        extract_metadata=False,
        newline_style="backslash",
        code_block_style="backticks",
        hidden_content="all",
        whitespace_mode="normalized",
        highlight_style="double_equal",
        # No Markdown syntax for these that GitHub renders; inline HTML reads fine.
        preserve_tags=["sub", "sup"],
    )

    def public(document: str) -> str:
        return str(html_to_markdown.convert(document, options).content)

    return _native_engine(options, public) or public


# A document whose Markdown shows each option we give html-to-markdown (but
# extract_metadata, which changes no Markdown) set otherwise.
_PROBE = (
    '<h2>T</h2><p>a*b_c  [d] <a href="https://x.org">https://x.org</a> <abbr title="Ex">E'
    "</abbr><br>e <mark>m</mark> H<sub>2</sub>O<sup>1</sup></p><div hidden>h</div>"
    '<ul><li>i<ul><li>j</li></ul></li></ul><blockquote cite="https://q.org"><p>q</p>'
    '</blockquote><pre><code class="language-py">x  =  1</code></pre>'
)


def _native_engine(options: Any, public: Engine) -> Engine | None:
    """html-to-markdown's native call with ``options`` built for it once: its public
    ``convert`` builds them again for every page, 0.15-0.25 ms of a 5 ms conversion.

    A private API, so None (and the ``public`` call) when it is missing, fails, or
    answers :data:`_PROBE` otherwise than ``public`` does; tests/test_engine_calls.py
    holds the two to the same bytes on every golden page.
    """
    try:
        from html_to_markdown import _html_to_markdown as native
        from html_to_markdown.api import _to_rust_conversion_options

        native_options = _to_rust_conversion_options(options)

        def run(document: str) -> str:
            return str(native.convert(html=document, options=native_options, visitor=None).content)

        agrees = run(_PROBE) == public(_PROBE)
    except (ImportError, AttributeError, TypeError, ValueError):
        return None
    return run if agrees else None


def _markdownify_engine() -> Engine:
    import markdownify

    class _Converter(markdownify.MarkdownConverter):
        def convert_td(self, el: Any, text: str, parent_tags: Any) -> str:
            # markdownify's stub file omits the table methods it has.
            base = super().convert_td  # type: ignore[misc]
            return str(base(el, text.replace("|", "\\|"), parent_tags))

        def convert_th(self, el: Any, text: str, parent_tags: Any) -> str:
            base = super().convert_th  # type: ignore[misc]
            return str(base(el, text.replace("|", "\\|"), parent_tags))

        def convert_mark(self, el: Any, text: str, parent_tags: Any) -> str:
            return f"=={text}==" if text.strip() else text

        def convert_sub(self, el: Any, text: str, parent_tags: Any) -> str:
            return f"<sub>{text}</sub>" if text.strip() else text

        def convert_sup(self, el: Any, text: str, parent_tags: Any) -> str:
            return f"<sup>{text}</sup>" if text.strip() else text

    converter = _Converter(
        heading_style="ATX",
        bullets="-",
        escape_asterisks=False,
        escape_underscores=False,
        escape_misc=False,
        autolinks=False,
        newline_style="BACKSLASH",
        table_infer_header=True,
        strip=["abbr"],
    )

    def run(document: str) -> str:
        return str(converter.convert(document))

    return run


@cache
def _engine(name: str) -> tuple[Engine, tuple[Diagnostic, ...]]:
    if name == "html-to-markdown":
        try:
            return _html_to_markdown_engine(), ()
        except ImportError as error:
            note = Diagnostic(
                "engine-fallback",
                f"html-to-markdown cannot be imported ({error}); using markdownify, which is "
                "slower. Install html-to-markdown (Python 3.11+) for the fast engine.",
            )
            return _markdownify_engine(), (note,)
    return _markdownify_engine(), ()


def available_engine(name: str) -> tuple[str, tuple[Diagnostic, ...]]:
    """The engine that ``name`` really gets here, and the warning if it fell back."""
    _, notes = _engine(name)
    return ("markdownify" if notes else name), notes


_BLANK_RUNS = re.compile(r"\n{3,}")


def _is_quote(line: str) -> bool:
    return line.lstrip().startswith(">")


def _separate_quotes(lines: list[str], separator: str) -> list[str]:
    """A blank line wherever a blockquote meets other text, as every style guide wants."""
    out: list[str] = []
    for given in lines:
        content = given.lstrip(" >")
        # The separator becomes a blank line where it stands, its quote marks kept.
        line = given[: len(given) - len(content)].rstrip() if content == separator else given
        if out and not line.lstrip(" >") and out[-1] == line:
            continue  # one blank line (in a quote: one line of marks) is enough
        if out and out[-1].strip() and line.strip() and _is_quote(out[-1]) != _is_quote(line):
            out.append("")
        out.append(line)
    return out


_QUOTE_MARKS = re.compile(r"[ >]*")
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
    if ">" in markdown or separator in markdown:  # else there is nothing to separate
        markdown = "\n".join(_separate_quotes(markdown.split("\n"), separator))
    if "\n\n\n" in markdown:
        markdown = _BLANK_RUNS.sub("\n\n", markdown)
    return markdown.strip("\n") + "\n" if markdown.strip() else ""


_NEVER_CAUGHT = (KeyboardInterrupt, SystemExit, GeneratorExit, MemoryError)


def _run_engine(document: str, name: str, page_url: str) -> tuple[str, tuple[Diagnostic, ...]]:
    """The engine's Markdown for ``document``; if it fails on this page (html-to-markdown
    panics as a BaseException), the other engine's, with a warning naming the page."""
    engine, notes = _engine(name)
    try:
        return engine(document), notes
    except BaseException as error:  # a Rust panic is no Exception; the rest is re-raised
        if isinstance(error, _NEVER_CAUGHT):
            raise
        failure = f"{type(error).__name__}: {' '.join(str(error).split())[:200]}"
    used, _ = available_engine(name)
    other = "markdownify" if used == "html-to-markdown" else "html-to-markdown"
    try:
        converted, instead = _engine(other)[0](document), f"with {other} instead"
    except Exception:  # both engines failed: its text, so that the build goes on
        converted, instead = _text_of(document), "as plain text (both engines failed)"
    note = Diagnostic(
        "engine-failed",
        f"the {used} engine failed on this page ({failure}); it was converted {instead}. "
        "Please report the page to agentprose.",
        location=page_url,
    )
    return converted, (*notes, note)


def _text_of(document: str) -> str:
    return _as_paragraphs(_block_text(parse_fragment(document)))


_NOT_TEXT = frozenset({"script", "style", "template"})


def _block_text(root: Element) -> str:
    """The text of ``root``, each block (heading, paragraph, item, cell, …) apart from
    the next by a blank line; walked without recursion (a page can be deep)."""
    parts: list[str] = []
    for event, element in etree.iterwalk(root, events=("start", "end")):
        tag = element.tag if isinstance(element.tag, str) else None
        block = tag in BLOCK_TAGS or tag in ("td", "th", "tr", "br")
        if event == "start":
            if block:
                parts.append("\n\n")
            if tag is not None and tag not in _NOT_TEXT and element.text:
                parts.append(element.text)
            continue
        if block:
            parts.append("\n\n")
        if element is not root and element.tail:
            parts.append(element.tail)
    return "".join(parts)


_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]<>#|~$!&])")
_LINE_START_MARKER = re.compile(r"^(\d*)([-+=.)])")


def _as_paragraphs(text: str) -> str:
    """Plain text as Markdown paragraphs that read as text only: each block's words on
    one line, every character Markdown could take for syntax escaped."""
    paragraphs = []
    for part in text.split("\n\n"):
        words = " ".join(part.split())
        if words:
            escaped = _MARKDOWN_PUNCTUATION.sub(r"\\\1", words)
            paragraphs.append(_LINE_START_MARKER.sub(r"\1\\\2", escaped))
    return "\n\n".join(paragraphs) + "\n" if paragraphs else ""


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
        return _plain_conversion(root, page_url, error)


_ANY_TOKEN = re.compile(r"AgPr(?:\d+q)?(?:SEPX|X\d*X?)")


def _plain_conversion(root: Element, page_url: str, error: Exception) -> Conversion:
    """The view of a page the rules failed on: its text, as far as they had left it
    (without the placeholders they had put in), one paragraph a block."""
    failure = f"{type(error).__name__}: {' '.join(str(error).split())[:200]}"
    markdown = _as_paragraphs(_ANY_TOKEN.sub("", _block_text(root)))
    note = Diagnostic(
        "engine-failed",
        f"agentprose's converter failed on this page ({failure}); its view is the page's "
        "plain text. Please report the page to agentprose.", location=page_url)
    return Conversion(markdown=markdown, headings=(), diagnostics=(note,))


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
    converted, notes = _run_engine(document, settings.converter, page_url)
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
    again, again_notes = _run_engine(document, other, page_url)
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
    root = parse_fragment(fragment)
    return convert_element(
        root, page_url=page_url, site_map=site_map, settings=settings,
        source_fences=source_fences,
    )
