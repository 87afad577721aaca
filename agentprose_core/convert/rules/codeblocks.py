"""Code blocks and math: recognized in theme markup, rendered by us, byte-exact.

Themes wrap code in many ways (``div.highlight-python``, ``div.language-python``,
``pre > code.language-python``, ``data-lang``, Pygments line-number tables). We find
the language and the plain text, drop line numbers, and hand the engine a placeholder
for a fence we write ourselves, longer than any backtick run inside the code.
"""

from __future__ import annotations

import re
import textwrap
from functools import lru_cache
from typing import TYPE_CHECKING

from lxml import etree

from agentprose_core.convert.fences import SourceFence, fences_of
from agentprose_core.convert.languages import clean_language, language_of_file
from agentprose_core.convert.rules.escape import guard_lines
from agentprose_core.convert.tree import (
    Element,
    ElementIndex,
    all_text,
    classes,
    drop_tag,
    drop_tree,
    marks_line,
    new_element,
    replace,
    select,
    unwrap,
)

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from agentprose_core.convert.placeholders import Placeholders

__all__ = [
    "SourceFence",
    "code_text",
    "drop_line_numbers",
    "fence",
    "fences_of",
    "language_of",
    "replace_code_blocks",
    "replace_math",
]

_LANG_CLASS = re.compile(r"^(?:language|lang|highlight|sourceCode)-([\w+#.-]+)$")
_ANCESTORS_TO_SEARCH = 3
# Classes that name a block's language without a prefix: Sphinx doctests, diagram
# sources, and mkdocstrings-python signatures (whose theme may drop "language-python").
# Sphinx's highlight-default is the project's highlight_language: Python unless set (the
# Sphinx extension names it in the page for projects that set another).
_CLASS_LANGUAGES = {
    "doctest": "pycon", "mermaid": "mermaid", "doc-signature": "python",
    "highlight-default": "python",
}
_NESTED = etree.XPath("ancestor::pre or ancestor::td[contains(@class, 'linenos')]")


def _from_element(element: Element) -> str | None:
    lang = element.get("data-lang") or element.get("data-language")
    if lang:
        return lang
    for cls in classes(element):
        match = _LANG_CLASS.match(cls)
        if match:
            return match.group(1)
    return None


def _wrappers(pre: Element) -> list[Element]:
    """``pre``, its ``<code>``, the elements up to the block's outermost element, and a
    few levels beyond it (a line-number table sits inside ``div.highlight-python``)."""
    found: list[Element] = [pre]
    code = pre.find("code")
    if code is not None:
        found.insert(0, code)
    outer = _block_to_replace(pre)
    element = pre.getparent()
    while outer is not pre and element is not None and element is not outer:
        found.append(element)
        element = element.getparent()
    if outer is not pre:
        found.append(outer)
        element = outer.getparent()
    for _ in range(_ANCESTORS_TO_SEARCH):
        if element is None:
            break
        found.append(element)
        element = element.getparent()
    return found


def language_of(pre: Element) -> str | None:
    """The language of a ``<pre>`` block, from itself, its ``<code>`` or its wrappers."""
    for element in _wrappers(pre):
        for cls in classes(element):
            if cls in _CLASS_LANGUAGES:
                return _CLASS_LANGUAGES[cls]
        lang = _from_element(element)
        if lang is not None:
            return clean_language(lang)
    return None


def fence(code: str, language: str | None) -> str:
    """A fenced code block whose fence is longer than any backtick run in ``code``."""
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{language or ''}\n{code}\n{marks}"


# Diagram sources: a diagram tool reads them, whatever their indentation. Extensions'
# templates indent them as the template is (sphinxcontrib-mermaid), which is noise.
_DIAGRAMS = frozenset({"mermaid", "plantuml", "dot", "graphviz"})


def _diagram_text(text: str) -> str:
    """A diagram's source without the template's indentation and blank edges."""
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return textwrap.dedent("\n".join(lines))


def _is_line_mark(element: Element) -> bool:
    if element.tag == "button":
        return True
    names = element.get("class")
    return bool(names) and _marks_line(names)


_marks_line = lru_cache(maxsize=4096)(marks_line)  # a page's tokens repeat a few dozen values


def drop_line_numbers(root: Element, index: ElementIndex | None = None) -> None:
    """Remove line numbers, copy buttons and annotation marks from every code block
    under ``root``.

    With the ``index`` of ``root``, only the elements it found marked are looked at
    (no pass marks an element after the index is made); without, a walk of the code
    blocks in Python (a ``.//pre//*[...]`` XPath tests every Pygments token too and
    costs four times as much on a typical page).
    """
    if index is not None and index.root is root:
        # Asked again: a pass may have taken an element's class since (links lose theirs).
        marked = [*index.line_marks(), *index.tags("button")]
        found = dict.fromkeys(el for el in marked if _is_line_mark(el) and _in_code(el, root))
    else:
        found = {}  # a <pre> inside a <pre> is walked twice
        for pre in root.iterdescendants("pre"):
            for element in pre.iterdescendants():
                if isinstance(element.tag, str) and _is_line_mark(element):
                    found[element] = None
    for element in found:
        drop_tree(element)


def _in_code(element: Element, root: Element) -> bool:
    """True when a ``<pre>`` below ``root`` holds ``element`` (which is below ``root``)."""
    for ancestor in element.iterancestors():
        if ancestor is root:
            return False
        if ancestor.tag == "pre":
            return True
    return False


def code_text(pre: Element) -> str:
    """The text of a code block as the page shows it (after :func:`drop_line_numbers`),
    blank lines at either end included: without the newline right after ``<pre>``
    (HTML's parsers drop it, lxml's keeps it) and without the one that ends its last
    line (the fence's own)."""
    for br in pre.iter("br"):
        br.tail = "\n" + (br.tail or "")
    text = all_text(pre).replace("\r\n", "\n")
    if text.startswith("\n") and (pre.text or "").startswith("\n"):
        text = text[1:]
    return text[:-1] if text.endswith("\n") else text


def _block_to_replace(pre: Element) -> Element:
    """The element a code block stands in: a line-number table, else the ``<pre>``."""
    element: Element | None = pre
    while element is not None:
        if element.tag == "table" and "highlighttable" in classes(element):
            return element
        element = element.getparent()
    return pre


def _code_blocks(root: Element) -> Iterator[Element]:
    # Line-number tables hold two <pre>: one of numbers, one of code.
    for pre in list(root.iter("pre")):
        if not _NESTED(pre):
            yield pre


def _title_inside(block: Element) -> str | None:
    """The title pymdownx puts in a line-number table's header row, if any."""
    if block.tag != "table":
        return None
    found = select(block, "th.filename, .filename")
    return " ".join(all_text(found[0]).split()) if found else None


def replace_code_blocks(
    root: Element,
    placeholders: Placeholders,
    *,
    source_fences: Sequence[SourceFence] = (),
    index: ElementIndex | None = None,
) -> int:
    """Swap every code block for a placeholder paragraph. Returns how many there were.

    ``source_fences`` are the page source's fenced blocks (see :func:`fences_of`): a
    block whose language the theme left out of the HTML gets the language of the
    source fence with the same code. ``index``, the index of ``root``, spares a walk.
    """
    drop_line_numbers(root, index)
    count = 0
    blocks = list(_code_blocks(root))
    texts = [code_text(pre) for pre in blocks]
    hints = _FenceHints(source_fences, texts)
    under = _blocks_under(blocks)
    for pre, text in zip(blocks, texts, strict=True):
        target = _block_to_replace(pre)
        explicit = language_of(pre)
        title = _title_inside(target)
        named = None if explicit else _language_of_named_file(target, title, under)
        from_source = hints.language_for(text)  # asked for every block: it keeps the order
        language = explicit or from_source or named
        shown = _diagram_text(text) if language in _DIAGRAMS else text
        block = new_element("p", placeholders.block(fence(shown, language)))
        replace(target, block)
        if title:  # a line-number table holds the block's title in a <th>
            block.addprevious(new_element("p", title))
        count += 1
    return count


def _blocks_under(blocks: Sequence[Element]) -> dict[Element, int]:
    """How many of ``blocks`` each of their near wrappers holds."""
    counts: dict[Element, int] = {}
    for pre in blocks:
        element: Element | None = pre
        for _ in range(_ANCESTORS_TO_SEARCH + 3):
            if element is None:
                break
            counts[element] = counts.get(element, 0) + 1
            element = element.getparent()
    return counts


def _language_of_named_file(block: Element, title: str | None,
                            blocks_under: dict[Element, int]) -> str | None:
    """The language of the file a block's title or caption names: pymdownx's
    ``span.filename``, a Sphinx ``code-block-caption``, mkdocstrings' ``Source code in
    x.py`` summary (a titled quote by now), a line-number table's title row. Only a
    wrapper of this one block is looked in, never one that holds another block."""
    if title:
        return language_of_file(title)
    element: Element | None = block
    for _ in range(_ANCESTORS_TO_SEARCH + 1):
        if element is None or blocks_under.get(element, 0) > 1:
            return None
        # (not among a <pre>'s own children: its code's tokens, hundreds of them)
        for child in element if element.tag != "pre" else ():
            if not _CAPTIONS.isdisjoint(classes(child)):
                return language_of_file(all_text(child))
        if element.tag in ("details", "blockquote") and len(element):
            return language_of_file(all_text(element[0]))  # its summary, or title
        element = element.getparent()
    return None


_CAPTIONS = frozenset({"filename", "code-block-caption"})


def _key(code: str) -> str:
    return " ".join(code.split())[:300]


class _FenceHints:
    """Source fences matched to HTML blocks by their code, in order."""

    def __init__(self, fences: Sequence[SourceFence], codes: Sequence[str]) -> None:
        self._fences = [(fence.language, _key(fence.code)) for fence in fences]
        self._next = 0
        # What the HTML's blocks hold: a source fence whose code is none of them rendered
        # no <pre> (a superfences custom fence, a diagram) and holds no place in the order.
        self._rendered = {_key(code) for code in codes} if fences else set()

    def language_for(self, code: str) -> str | None:
        key = _key(code)
        for position in range(self._next, len(self._fences)):
            language, fence_key = self._fences[position]
            if fence_key == key:
                self._next = position + 1
                return clean_language(language)
        for position in range(self._next, len(self._fences)):
            language, fence_key = self._fences[position]
            if _INCLUDE.search(fence_key):
                # The source fence pulls its code in from a file (snippets, an include
                # macro): its code is not the block's, its place in the order is.
                self._next = position + 1
                return clean_language(language)
            if fence_key in self._rendered:
                return None  # a fence of a later block: this one is not from the source
        return None


# Lines that pull a file into a fence: pymdownx.snippets, mkdocs-include-markdown and
# macros ({% include %}), FastAPI's {* file *} and {! file !}.
_INCLUDE = re.compile(r"--8<--|\{[*!]|\{%\s*include|^!include")


_MATH_INLINE_CLASSES = ("arithmatex", "math", "katex", "MathJax_Preview")
_MATH_BLOCK_CLASSES = ("arithmatex", "math", "katex-display", "math-display")


def _tex_of(element: Element, *, display: bool) -> str | None:
    annotation = next(
        (el for el in element.iter("{*}annotation") if el.get("encoding") == "application/x-tex"),
        None,
    )
    if annotation is not None:
        tex = all_text(annotation).strip()
        return f"$${tex}$$" if display else f"${tex}$"
    if element.tag == "math":  # MathML: its TeX, else its text is plain text
        tex = element.get("alttext", "")
        if not tex:
            return None
        return f"$${tex}$$" if display else f"${tex}$"
    number = None
    for extra in select(element, "span.eqno"):
        number = all_text(extra).replace("¶", "").strip().strip("()") or None
    for extra in select(element, "a.headerlink, span.eqno"):
        drop_tree(extra)
    for embedded in list(element.iter("iframe", "object", "embed", "video", "audio")):
        drop_tree(embedded)  # their text is for browsers that cannot show them, not TeX
    tex = all_text(element).strip()
    if number and display and tex.endswith(("\\]", "$$")):  # keep "(1)" as TeX sees it
        closing = 2
        tex = f"{tex[:-closing].rstrip()} \\tag{{{number}}}{tex[-closing:]}"
    return tex


_DELIMITERS = ("\\[", "\\(", "$", "\\begin")


# Sphinx wraps display math of several lines in a split environment for MathJax.
_SPHINX_SPLIT = re.compile(r"\A\\\[\s*\\begin\{split\}(.*)\\end\{split\}\s*\\\]\Z", re.DOTALL)


def _delimited(tex: str, mark: str) -> str:
    """TeX between its delimiters (a theme may leave them out), without the wrapper
    Sphinx adds for MathJax, its lines guarded."""
    split = _SPHINX_SPLIT.match(tex.strip())
    if split:
        tex = f"\\[{split.group(1)}\\]"
    if tex.strip() and not tex.lstrip().startswith(_DELIMITERS):
        tex = f"{mark}{tex.strip()}{mark}"
    return guard_lines(tex)


def replace_math(index: ElementIndex, placeholders: Placeholders) -> None:
    """Keep math as the TeX the author wrote, out of reach of Markdown escaping (its
    lines that could start a Markdown block indented, which TeX does not see)."""
    for element in index.classes(*_MATH_BLOCK_CLASSES, tags=("div",)):
        tex = _tex_of(element, display=True) if index.attached(element) else None
        if tex is not None:
            replace(element, new_element("p", placeholders.block(_delimited(tex, "$$"))))
    inline = [*index.classes(*_MATH_INLINE_CLASSES, tags=("span",)), *index.tags("math")]
    for element in inline:
        tex = _tex_of(element, display=False) if index.attached(element) else None
        if tex is not None:
            unwrap(element, placeholders.inline(_delimited(tex, "$")))
        elif index.attached(element):
            drop_tag(element)

