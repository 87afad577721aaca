"""A ``pagegen.Page`` as MkDocs Markdown (Material, pymdownx) or as Sphinx reST."""

from __future__ import annotations

import posixpath
import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pagegen import Block, Page, Span

__all__ = ["render_markdown", "render_rst"]


def _join(parts: list[str]) -> str:
    return " ".join(parts).replace(" .", ".")


def _indent(text: str, by: int) -> str:
    return textwrap.indent(text, " " * by, lambda line: bool(line.strip()))


# --- Markdown ------------------------------------------------------------------------


class _Writer:
    """What both source formats share: a block goes to its ``b_<kind>`` method."""

    def span(self, span: Span) -> str:
        raise NotImplementedError

    def spans(self, spans: list[Span]) -> str:
        return _join([self.span(span) for span in spans])

    def block(self, block: Block) -> str:
        return getattr(self, "b_" + block[0])(*block[1:])

    def document(self, page: Page) -> str:
        return "\n\n".join(self.block(block) for block in page.blocks) + "\n"


class _Markdown(_Writer):
    def __init__(self, page: Page) -> None:
        self.here = posixpath.dirname(page.stem) or "."

    def href(self, stem: str, anchor: str) -> str:
        path = posixpath.relpath(f"{stem}.md", self.here)
        return f"{path}#{anchor}" if anchor else path

    def span(self, span: Span) -> str:
        kind = span[0]
        if kind == "c":
            return f"`{span[1]}`"
        if kind == "b":
            return f"**{span[1]}**"
        if kind == "l":
            return f"[{span[1]}]({self.href(span[2], span[3])})"
        if kind == "f":
            return f"[`{span[1]}`]({self.href(span[2], span[3])})"
        return span[1]

    def b_h(self, level: int, text: str, anchor: str) -> str:
        return f"{'#' * level} {text}"

    def b_p(self, spans: list[Span]) -> str:
        return self.spans(spans)

    def b_list(self, ordered: bool, items: list[list[Span]]) -> str:
        marks = [f"{i}." if ordered else "-" for i in range(1, len(items) + 1)]
        pairs = zip(marks, items, strict=True)
        return "\n".join(f"{mark} {self.spans(item)}" for mark, item in pairs)

    def b_code(self, lang: str, text: str) -> str:
        return f"```{lang}\n{text}\n```"

    def b_tabs(self, tabs: list[tuple[str, str, str]]) -> str:
        return "\n\n".join(f'=== "{label}"\n\n{_indent(self.b_code(lang, text), 4)}'
                           for label, lang, text in tabs)

    def b_table(self, header: list[list[Span]], rows: list[list[list[Span]]]) -> str:
        lines = ["| " + " | ".join(self.spans(cell) for cell in header) + " |",
                 "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(self.spans(cell) for cell in row) + " |" for row in rows]
        return "\n".join(lines)

    def b_admon(self, kind: str, title: str, body: list[Block], collapsible: bool) -> str:
        inner = "\n\n".join(self.block(block) for block in body)
        return f'{"???" if collapsible else "!!!"} {kind} "{title}"\n\n{_indent(inner, 4)}'

    def b_func(self, qualname: str, params: list[tuple[str, str, str, str]], rtype: str,
               rdesc: str) -> str:
        signature = ", ".join(f"{n}: {t}" + (f" = {d}" if d else "") for n, t, d, _ in params)
        name = qualname.rsplit(".", 1)[1]
        rows = "\n".join(f"| `{n}` | `{t}` | {desc}. | `{d or 'required'}` |"
                         for n, t, d, desc in params)
        return (f"```python\ndef {name}({signature}) -> {rtype}\n```\n\n"
                f"**Parameters:**\n\n| Name | Type | Description | Default |\n"
                f"|---|---|---|---|\n{rows}\n\n**Returns:** `{rtype}`: {rdesc}.")

    def b_children(self, children: list[tuple[str, str]]) -> str:
        return "\n".join(f"- [{title}]({self.href(stem, '')})" for stem, title in children)


def render_markdown(page: Page) -> str:
    """The page's ``.md`` source."""
    return _Markdown(page).document(page)


# --- reST ----------------------------------------------------------------------------

_UNDERLINE = {1: "=", 2: "-", 3: "~"}


def _label(stem: str, anchor: str) -> str:
    return f"{stem.replace('/', '-')}-{anchor}"


class _Rst(_Writer):
    def __init__(self, page: Page) -> None:
        self.page = page

    def span(self, span: Span) -> str:
        kind = span[0]
        if kind == "c":
            return f"``{span[1]}``"
        if kind == "b":
            return f"**{span[1]}**"
        if kind == "l" and span[3]:
            return f":ref:`{span[1]} <{_label(span[2], span[3])}>`"
        if kind == "l":
            return f":doc:`{span[1]} </{span[2]}>`"
        if kind == "f":
            return f":py:func:`{span[1]}`"
        return span[1]

    def b_h(self, level: int, text: str, anchor: str) -> str:
        line = _UNDERLINE[level] * len(text)
        label = f".. _{_label(self.page.stem, anchor)}:\n\n" if anchor else ""
        return f"{label}{text}\n{line}"

    def b_p(self, spans: list[Span]) -> str:
        return self.spans(spans)

    def b_list(self, ordered: bool, items: list[list[Span]]) -> str:
        return "\n".join(f"{'#.' if ordered else '-'} {self.spans(item)}" for item in items)

    def b_code(self, lang: str, text: str) -> str:
        return f".. code-block:: {lang}\n\n{_indent(text, 3)}"

    def b_tabs(self, tabs: list[tuple[str, str, str]]) -> str:
        items = "\n\n".join(f".. tab-item:: {label}\n\n{_indent(self.b_code(lang, text), 3)}"
                            for label, lang, text in tabs)
        return f".. tab-set::\n\n{_indent(items, 3)}"

    def b_table(self, header: list[list[Span]], rows: list[list[list[Span]]]) -> str:
        lines = [".. list-table::", "   :header-rows: 1", ""]
        for row in [header, *rows]:
            cells = [self.spans(cell) for cell in row]
            lines.append(f"   * - {cells[0]}")
            lines += [f"     - {cell}" for cell in cells[1:]]
        return "\n".join(lines)

    def b_admon(self, kind: str, title: str, body: list[Block], collapsible: bool) -> str:
        inner = _indent("\n\n".join(self.block(block) for block in body), 3)
        if collapsible:
            return f".. dropdown:: {title}\n\n{inner}"
        if kind == "seealso":
            return f".. seealso::\n\n{inner}"
        return f".. admonition:: {title}\n   :class: {kind}\n\n{inner}"

    def b_func(self, qualname: str, params: list[tuple[str, str, str, str]], rtype: str,
               rdesc: str) -> str:
        signature = ", ".join(f"{n}: {t}" + (f" = {d}" if d else "") for n, t, d, _ in params)
        fields = [f":param {n}: {desc}.\n:type {n}: {t}" for n, t, _, desc in params]
        body = "\n".join([f"{rdesc.capitalize()}.", "", *fields, f":returns: {rdesc}.",
                          f":rtype: {rtype}"])
        return f".. py:function:: {qualname}({signature}) -> {rtype}\n\n{_indent(body, 3)}"

    def b_children(self, children: list[tuple[str, str]]) -> str:
        here = posixpath.dirname(self.page.stem) or "."
        names = [posixpath.relpath(stem, here) for stem, _ in children]
        return ".. toctree::\n   :maxdepth: 2\n\n" + "\n".join(f"   {n}" for n in names)


def render_rst(page: Page) -> str:
    """The page's ``.rst`` source."""
    return _Rst(page).document(page)
