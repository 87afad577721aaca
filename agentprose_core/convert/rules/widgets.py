"""Theme widgets turned into plain semantic HTML the engines render the same way.

Admonitions and collapsible ``details`` become blockquotes that start with
``**Type: Title**``; content tabs become a labelled sequence; footnotes become
``[^n]`` markers and definitions; definition lists a bold term and its text.
"""

from __future__ import annotations

import re

from agentprose_core.convert.placeholders import Placeholders
from agentprose_core.convert.rules.anchors import ANCHOR_ATTRIBUTE, anchor
from agentprose_core.convert.tree import (
    BLOCK_TAGS,
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

__all__ = [
    "ADMONITION_TYPES",
    "rewrite_admonitions",
    "rewrite_definition_lists",
    "rewrite_figures",
    "rewrite_footnotes",
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


def _footnote_label(text: str) -> str:
    """The label of a footnote marker or note: what its first brackets hold (a label
    that a translator follows with its back-references, ``[8] (1, 2, 3)``), else its
    text, without spaces."""
    bracketed = _BRACKETED.match(text)
    return "".join((bracketed.group(1) if bracketed else text).split()).strip("[]") or "?"


_BRACKETED = re.compile(r"\s*\[([^\]]*)\]")


def rewrite_footnotes(index: ElementIndex, placeholders: Placeholders) -> None:
    """Footnote markers as ``[^n]`` and their notes as ``[^n]: text`` paragraphs."""
    refs = [
        *index.classes("footnote-ref", "footnote-reference", tags=("a",)),
        *index.attributes("role", "doc-noteref"),
    ]
    for ref in dict.fromkeys(refs):
        # A <span> in its place rather than its text joined to the text before it: a
        # paragraph of thousands of markers would copy a growing string for each one.
        marker = new_element("span", placeholders.inline(f"[^{_footnote_label(text_of(ref))}]"))
        holder = ref.getparent()
        replace(holder if holder is not None and holder.tag == "sup" and len(holder) == 1
                else ref, marker)
    for container in index.classes("footnote", tags=("div",)):  # Python-Markdown
        # Python-Markdown numbers its notes by position, as the markers show them.
        notes = [(str(n), item) for n, item in enumerate(select(container, "ol > li"), 1)]
        _footnote_definitions(container, notes, placeholders)
    _rewrite_citations(index, placeholders)
    linked = _linked_in_page(index)  # a note that a link names, not a marker: anchored
    for container in index.classes("footnote-list", "footnote", tags=("aside", "dl")):
        notes = []
        for note in select(container, "aside.footnote, [role=doc-footnote]"):
            label = _note_label(note)
            notes.append((_footnote_label(text_of(label) if label is not None else ""), note))
            if label is not None:
                drop_tree(label)
            for body in note.findall("dd"):  # a translator's <dt> label and <dd> text
                drop_tag(body)
        _footnote_definitions(container, notes, placeholders, linked=linked)


def _linked_in_page(index: ElementIndex) -> frozenset[str]:
    """The ids the page's own links name (the footnote markers are rewritten by now)."""
    return frozenset(href[1:] for link in index.tags("a")
                     if link.getparent() is not None
                     and (href := link.get("href") or "").startswith("#"))


def _note_label(note: Element) -> Element | None:
    """A footnote's label: docutils' ``span.label``, or a site translator's ``dt``."""
    return next((child for child in note if child.tag in ("span", "dt")
                 and ("label" in classes(child) or child.tag == "span")), None)


def _rewrite_citations(index: ElementIndex, placeholders: Placeholders) -> None:
    """Docutils citations (``[CIT2002]``) as footnotes labelled with their name."""
    entries = [*index.classes("citation", tags=("div",)),
               *index.attributes("role", "doc-biblioentry")]
    entries = list(dict.fromkeys(entries))
    labels: dict[str, str] = {}
    notes = []
    for entry in entries:
        label = _note_label(entry)  # a span, or a translator's <dt> (PEPs)
        name = _footnote_label(text_of(label) if label is not None else "")
        if label is not None:
            drop_tree(label)  # with its link back to where the citation is cited
        for body in entry.findall("dd"):
            drop_tag(body)
        labels[entry.get("id", "")] = name
        notes.append((name, entry))
    for link in index.tags("a") if labels else ():
        target = (link.get("href") or "").lstrip("#")
        if (link.get("href") or "").startswith("#") and target in labels:
            unwrap(link, placeholders.inline(f"[^{labels[target]}]"))
    for container in index.classes("citation-list", tags=("div",)):
        # A citation is linked from other pages (sphinxcontrib-bibtex's references
        # page): its anchor is kept even where docutils numbered it (id3).
        _footnote_definitions(container, [(n, e) for n, e in notes if e.getparent() is container],
                              placeholders, linked_from_elsewhere=True)


_DOCUTILS_AUTOMATIC_ID = re.compile(r"id\d+")


def _footnote_definitions(
    container: Element,
    notes: list[tuple[str, Element]],
    placeholders: Placeholders,
    *,
    linked_from_elsewhere: bool = False,
    linked: frozenset[str] = frozenset(),
) -> None:
    replacement = new_element("div")
    for label, note in notes:
        # docutils lists several back-references as "(1, 2, 3)" in a span.backrefs
        for backref in select(note, "span.backrefs, a.footnote-backref, a[role=doc-backlink]"):
            drop_tree(backref)
        first = next((child for child in note if child.tag == "p"), None)
        marker = placeholders.inline(f"[^{label}]:") + " "
        ident = note.get("id") or ""
        if ident and (linked_from_elsewhere or ident in linked
                      or not _DOCUTILS_AUTOMATIC_ID.fullmatch(ident)):
            marker += anchor(placeholders, ident)
        if first is None:  # inline content right in the note: its first paragraph
            first = new_element("p", (note.text or "").lstrip())
            note.text = None
            for child in list(note):
                if child.tag in BLOCK_TAGS:
                    break
                first.append(child)  # moves it, with its tail
            note.insert(0, first)
        first.text = marker + (first.text or "").lstrip()
        replacement.extend(list(note))
    replace(container, replacement)


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
