"""The Markdown engines: html-to-markdown (the default, native code) and markdownify
(pure Python), each set up once with the options that give our Markdown style, and
the fallback from one to the other when one fails on a page.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from agentprose_core.convert.plaintext import text_of
from agentprose_core.diagnostics import Diagnostic

__all__ = ["Engine", "available_engine", "engine", "run_engine"]

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

        # markdownify calls every converter as (el, text, parent_tags=...): the names stay.
        def convert_mark(self, el: Any, text: str, parent_tags: Any) -> str:  # noqa: ARG002
            return f"=={text}==" if text.strip() else text

        def convert_sub(self, el: Any, text: str, parent_tags: Any) -> str:  # noqa: ARG002
            return f"<sub>{text}</sub>" if text.strip() else text

        def convert_sup(self, el: Any, text: str, parent_tags: Any) -> str:  # noqa: ARG002
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
def engine(name: str) -> tuple[Engine, tuple[Diagnostic, ...]]:
    """The engine ``name`` (made once), or markdownify with a warning when
    html-to-markdown can't be imported."""
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
    _, notes = engine(name)
    return ("markdownify" if notes else name), notes


_NEVER_CAUGHT = (KeyboardInterrupt, SystemExit, GeneratorExit, MemoryError)


def run_engine(document: str, name: str, page_url: str) -> tuple[str, tuple[Diagnostic, ...]]:
    """The engine's Markdown for ``document``; if it fails on this page (html-to-markdown
    panics as a BaseException), the other engine's, with a warning naming the page."""
    convert, notes = engine(name)
    try:
        return convert(document), notes
    except BaseException as error:  # a Rust panic is no Exception; the rest is re-raised
        if isinstance(error, _NEVER_CAUGHT):
            raise
        failure = f"{type(error).__name__}: {' '.join(str(error).split())[:200]}"
    used, _ = available_engine(name)
    other = "markdownify" if used == "html-to-markdown" else "html-to-markdown"
    try:
        converted, instead = engine(other)[0](document), f"with {other} instead"
    except Exception:  # both engines failed: its text, so that the build goes on
        converted, instead = text_of(document), "as plain text (both engines failed)"
    note = Diagnostic(
        "engine-failed",
        f"the {used} engine failed on this page ({failure}); it was converted {instead}. "
        "Please report the page to agentprose.",
        location=page_url,
    )
    return converted, (*notes, note)
