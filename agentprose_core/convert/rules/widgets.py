"""Theme widgets turned into plain semantic HTML the engines render the same way.

Admonitions and collapsible ``details`` become blockquotes that start with
``**Type: Title**``; content tabs become a labelled sequence; definition lists a bold
term and its text (footnotes: :mod:`.footnotes`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentprose_core.convert.rules.anchors import ANCHOR_ATTRIBUTE
from agentprose_core.convert.tree import (
    Element,
    ElementIndex,
    as_blocks,
    classes,
    drop_tag,
    drop_tree,
    new_element,
    replace,
    select,
    text_of,
    unwrap,
)

if TYPE_CHECKING:
    from agentprose_core.convert.placeholders import Placeholders

__all__ = [
    "ADMONITION_TYPES",
    "rewrite_admonitions",
    "rewrite_definition_lists",
    "rewrite_figures",
    "rewrite_tabs",
    "rewrite_task_lists",
    "separate_blockquotes",
]

ADMONITION_TYPES = (
    "note", "abstract", "summary", "tldr", "info", "todo", "tip", "hint", "important",
    "success", "check", "done", "question", "help", "faq", "warning", "caution", "attention",
    "failure", "fail", "missing", "danger", "error", "bug", "example", "quote", "cite",
    "seealso", "admonition-todo",
)
_LABELS = {"seealso": "See also", "admonition-todo": "Todo", "tldr": "TL;DR", "faq": "FAQ"}
_TITLE_SELECTOR = "p.admonition-title, div.admonition-title, p.topic-title, summary"


LIST_SEPARATOR = "<!-- -->"
"""Between two lists of one kind: CommonMark would otherwise merge them into one."""


_WRAPPERS = frozenset({"div", "section", "article"})  # no Markdown of their own
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def _rendered_next(block: Element, root: Element) -> tuple[Element, Element | None]:
    """The element that ends where ``block`` does (``block``, or the wrappers it is the
    last of), and the first block rendered after it, through wrappers."""
    end = block
    while end.getnext() is None and not (end.tail or "").strip():
        parent = end.getparent()
        if parent is None or parent is root or parent.tag not in _WRAPPERS:
            break
        end = parent
    following = end.getnext()
    if (end.tail or "").strip():
        return end, None
    while following is not None and following.tag in _WRAPPERS and len(following) \
            and not (following.text or "").strip():
        following = following[0]
    return end, following


def separate_blockquotes(root: Element, placeholders: Placeholders) -> None:
    """Keep adjacent blockquotes (two admonitions in a row), and adjacent lists of one
    kind, from merging into one, also when each sits in a wrapper of its own (Sphinx's
    toctree-wrapper divs). Inside a quote, a blank line after each list and heading:
    html-to-markdown leaves none there, and the next paragraph joins the last item."""
    for block in list(root.iter("blockquote", "ul", "ol", *_HEADINGS)):
        end, following = _rendered_next(block, root)
        if following is None:
            continue
        if following.tag == block.tag == "blockquote":
            end.addnext(new_element("p", placeholders.separator))
        elif following.tag == block.tag:
            end.addnext(new_element("p", placeholders.block(LIST_SEPARATOR)))
        elif block.tag != "blockquote" and next(block.iterancestors("blockquote"), None) \
                is not None:
            end.addnext(new_element("p", placeholders.separator))


def _admonition_type(element: Element) -> str | None:
    for cls in classes(element):
        if cls in ADMONITION_TYPES:
            return _LABELS.get(cls, cls.capitalize())
    return None


def _heading_text(kind: str | None, title: str) -> str:
    if not kind:
        return title
    if not title or title.casefold() == kind.casefold():
        return kind
    return f"{kind}: {title}"


_TITLE_MARKUP = frozenset({"code", "a", "em", "i", "kbd", "samp", "var", "tt", "sub", "sup"})


def _title_markup(label: str, title: str, title_element: Element | None) -> Element:
    """``**Type: Title**``, the title's code and links kept."""
    if title_element is None or (label != title and not label.endswith(": " + title)) or \
            not any(el.tag in _TITLE_MARKUP for el in title_element.iterdescendants()):
        return new_element("strong", label)
    strong = new_element("strong", label[: len(label) - len(title)] +
                         (title_element.text or "").lstrip())
    strong.extend(list(title_element))
    if len(strong):
        strong[-1].tail = (strong[-1].tail or "").rstrip() or None
    return strong


def _as_blockquote(element: Element, *, kind: str | None) -> None:
    title_element = next(
        (child for child in element if child in select(element, _TITLE_SELECTOR)), None
    )
    title = text_of(title_element) if title_element is not None else ""
    if title_element is not None:
        drop_tree(title_element)  # its children can still move into the quote's title
    quote = new_element("blockquote")
    # No title element at all (`!!! note ""`): the author chose a box without a title.
    label = _heading_text(kind, title) if title_element is not None else ""
    if label:
        paragraph = new_element("p")
        paragraph.append(_title_markup(label, title, title_element))
        quote.append(paragraph)
    quote.extend(as_blocks(element))
    replace(element, quote)


def rewrite_admonitions(index: ElementIndex) -> None:
    """Admonitions (MkDocs, Material, Sphinx) and ``details`` as titled blockquotes."""
    boxes = index.classes("admonition", tags=("div", "aside"))
    candidates = sorted(
        [*boxes, *index.tags("details"), *index.classes("topic", tags=("div", "aside"))],
        key=index.position,
    )
    # Innermost first, so that nested admonitions nest as blockquotes.
    for element in reversed(candidates):
        kind = _admonition_type(element)
        if kind is None and element.tag == "details":
            kind = None
        _as_blockquote(element, kind=kind)


def _material_tabs(index: ElementIndex) -> None:
    for tab_set in index.classes("tabbed-set", tags=("div",)):
        labels = [(_label_text(label), label.get("for") or "")
                  for label in select(tab_set, "label")]
        blocks = select(tab_set, "div.tabbed-block") or [
            child for child in tab_set if "tabbed-content" in classes(child)
        ]
        _labelled_sequence(tab_set, labels, blocks)


def _sphinx_design_tabs(index: ElementIndex) -> None:
    for tab_set in index.classes("sd-tab-set", tags=("div",)):
        labels = [(_label_text(label), "") for label in tab_set
                  if "sd-tab-label" in classes(label)]
        blocks = [child for child in tab_set if "sd-tab-content" in classes(child)]
        _labelled_sequence(tab_set, labels, blocks)


def _sphinx_tabs(index: ElementIndex) -> None:
    for tab_set in index.classes("sphinx-tabs", tags=("div",)):
        labels = [(_label_text(tab), "") for tab in select(tab_set, "[role=tab]")]
        blocks = select(tab_set, "[role=tabpanel]")
        _labelled_sequence(tab_set, labels, blocks)


# Icon fonts (Font Awesome) draw their glyphs from Unicode's private use areas.
_PRIVATE_USE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")


def _label_text(label: Element) -> str:
    """A tab's label as words: an icon font's glyph says nothing to a reader, its
    ``title`` or ``aria-label`` does."""
    text = " ".join(_PRIVATE_USE.sub("", text_of(label)).split())
    if text:
        return text
    for element in label.iter():
        named = element.get("title") or element.get("aria-label")
        if named and named.strip():
            return " ".join(named.split())
    return text_of(label)


def _labelled_sequence(
    tab_set: Element, labels: list[tuple[str, str]], blocks: list[Element]
) -> None:
    if len(labels) != len(blocks):
        return  # not the markup we know: leave it to the generic rules, text kept
    sequence = new_element("div")
    for (label, ident), block in zip(labels, blocks, strict=True):
        paragraph = new_element("p")
        if ident:  # Material links a tab by its radio input's id: the anchor goes here
            paragraph.set("id", ident)
        paragraph.append(new_element("strong", label))
        sequence.append(paragraph)
        if "hidden" in block.attrib:
            del block.attrib["hidden"]
        sequence.append(block)
    replace(tab_set, sequence)


def rewrite_tabs(index: ElementIndex) -> None:
    """Content tabs (Material, sphinx-design, sphinx-tabs): each label, then its panel."""
    _material_tabs(index)
    _sphinx_design_tabs(index)
    _sphinx_tabs(index)


def rewrite_definition_lists(index: ElementIndex) -> None:
    """Definition lists, glossaries and field lists: a bold term, then its text."""
    for dl in reversed(index.tags("dl")):
        if dl.getparent() is None:
            continue
        block = new_element("div")
        for child in dl:
            if child.tag == "dt":
                anchor = child.get(ANCHOR_ATTRIBUTE)
                paragraph = _signature(child) if "sig" in classes(child) else _term(child)
                if anchor:  # where the term starts, before its code or bold text
                    paragraph.text = anchor + (paragraph.text or "")
                block.append(paragraph)
            elif child.tag == "dd":
                block.extend(as_blocks(child))
        replace(dl, block)


def _term(term: Element) -> Element:
    paragraph = new_element("p")
    strong = new_element("strong")
    strong.text = term.text
    strong.extend(list(term))
    paragraph.append(strong)
    return paragraph


def _signature(term: Element) -> Element:
    """An API signature (Sphinx ``dt.sig``) as one line of inline code, then the link
    to its source when viewcode adds one."""
    source = next((link.get("href") for link in term.iter("a")
                   if select(link, ".viewcode-link") and link.get("href")), None)
    for extra in select(term, "a.headerlink, .viewcode-link"):
        drop_tree(extra)
    for arrow in select(term, ".sig-return-icon"):
        arrow.text = "->"
    paragraph = new_element("p")
    paragraph.append(new_element("code", text_of(term)))
    if source:
        link = new_element("a", "[source]")
        link.set("href", source)
        link.text = "source"
        paragraph[-1].tail = " ("
        paragraph.append(link)
        link.tail = ")"
    return paragraph


def rewrite_figures(index: ElementIndex) -> None:
    """Figure captions as plain paragraphs under the image (engines italicize the whole
    caption, which breaks on emphasis or several paragraphs inside it)."""
    for caption in index.tags("figcaption"):
        parent = caption.getparent()
        if parent is None:
            continue
        at = parent.index(caption)
        blocks = as_blocks(caption)
        parent.remove(caption)
        for offset, block in enumerate(blocks):
            parent.insert(at + offset, block)
    for classifier in index.classes("classifier", tags=("span",)):
        classifier.text = " : " + (classifier.text or "")


def rewrite_task_lists(index: ElementIndex, placeholders: Placeholders) -> None:
    """Checkboxes of task lists as ``[x]``/``[ ]``, out of reach of text escaping."""
    boxes = [el for el in index.tags("input") if el.get("type") == "checkbox"]
    for box in boxes:
        mark = "[x]" if box.get("checked") is not None else "[ ]"
        unwrap(box, placeholders.inline(mark) + " ")
    for box in index.classes("task-list-control", "task-list-indicator", tags=("label",)):
        drop_tag(box)
