"""Footnotes and citations as Markdown footnotes: each marker becomes ``[^label]`` and
each note a ``[^label]: text`` definition, whatever the theme wrote (docutils'
``aside.footnote`` lists and tables, Python-Markdown's ``div.footnote``), keeping the
anchors that other pages link to.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentprose_core.convert.rules.anchors import anchor
from agentprose_core.convert.tree import (
    BLOCK_TAGS,
    Element,
    ElementIndex,
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

__all__ = ["rewrite_footnotes"]


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
