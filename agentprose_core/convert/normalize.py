"""The docs rules on an lxml tree: theme markup in, plain semantic HTML out.

Both Markdown engines get the same normalized tree, so every rule here holds for
both: chrome and hidden content dropped, widgets rewritten, code and math kept
byte-exact through placeholders, links absolute and pointed at agent views.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lxml import etree

from agentprose_core.convert.placeholders import Placeholders
from agentprose_core.convert.rules.anchors import outline, place_anchors
from agentprose_core.convert.rules.cards import rewrite_link_cards
from agentprose_core.convert.rules.codeblocks import (
    SourceFence,
    replace_code_blocks,
    replace_math,
)
from agentprose_core.convert.rules.constructs import rewrite_media, unknown_constructs
from agentprose_core.convert.rules.depth import MAX_DEPTH, flatten_deep
from agentprose_core.convert.rules.escape import escape_text
from agentprose_core.convert.rules.footnotes import rewrite_footnotes
from agentprose_core.convert.rules.hidden import HUMAN_ONLY, hidden_element
from agentprose_core.convert.rules.links import rewrite_images, rewrite_links
from agentprose_core.convert.rules.tables import rewrite_tables
from agentprose_core.convert.rules.widgets import (
    rewrite_admonitions,
    rewrite_definition_lists,
    rewrite_figures,
    rewrite_tabs,
    rewrite_task_lists,
    separate_blockquotes,
)
from agentprose_core.convert.tree import (
    BLOCK_TAGS,
    Element,
    ElementIndex,
    all_text,
    classes,
    drop_tag,
    drop_tree,
    new_element,
    put_before,
    text_of,
    unwrap,
)
from agentprose_core.diagnostics import Diagnostic

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from agentprose_core.model import Heading

__all__ = ["Normalized", "normalize"]

# Never content, wherever it appears inside the main content.
DROP_TAGS = frozenset({
    "script", "style", "noscript", "template", "link", "meta", "button", "svg", "form", "nav",
    "select", "textarea", "map",  # an image map's areas: the diagram's clickable parts
})
DROP_CLASSES = frozenset({
    "agentprose-ignore", "md-source-file", "md-clipboard", "copybutton", "edit-this-page",
    "view-this-page", "back-to-top", "md-content__button",
    "sd-hide-link-text",  # sphinx-design's stretched card links: hidden from readers
    "system-message",  # docutils' report of a build error, with the build machine's paths
})
DROP_LINK_CLASSES = frozenset({"headerlink", "anchor", "hash-link"})

def _chrome(index: ElementIndex) -> list[Element]:
    inputs = [el for el in index.tags("input") if el.get("type") != "checkbox"]
    marked = sorted({el for name in ("hidden", "data-ignore", "aria-hidden", "style",
                                     f"data-{HUMAN_ONLY}")
                     for el in index.attributes(name)} | set(index.classes(HUMAN_ONLY)),
                    key=index.position)
    return [
        *index.tags(*DROP_TAGS),
        *inputs,
        *(el for el in marked if hidden_element(el)),
        # by the class it has now: a rule before this one may have shown an element
        *(el for el in index.classes(*DROP_CLASSES) if not DROP_CLASSES.isdisjoint(classes(el))),
        *index.classes(*DROP_LINK_CLASSES, tags=("a",)),
        *(el for el in index.classes("prompt", tags=("div",)) if _notebook_prompt(el)),
    ]


_NOTEBOOK_CELLS = frozenset({"nbinput", "nboutput"})


def _notebook_prompt(element: Element) -> bool:
    """nbsphinx's ``[6]:`` before a cell's input or output: an execution count, no code."""
    parent = element.getparent()
    return parent is not None and not _NOTEBOOK_CELLS.isdisjoint(classes(parent))


_PERMALINK_MARKS = frozenset({"¶", "#", "§", "🔗", ""})
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")


@dataclass
class Normalized:
    """A normalized tree, the placeholders it holds, and what we learned on the way."""

    root: Element
    placeholders: Placeholders
    headings: tuple[Heading, ...] = ()
    diagnostics: list[Diagnostic] = field(default_factory=list)
    ids: frozenset[str] = frozenset()  # every id of the content, outside code


def drop_chrome(index: ElementIndex) -> None:
    """Remove comments, scripts, buttons, permalinks, hidden and ignored parts."""
    root = index.root
    for comment in list(root.iter(etree.Comment, etree.ProcessingInstruction)):
        drop_tree(comment)
    for element in _chrome(index):
        if element is not root and index.attached(element):
            drop_tree(element)
    for frame in root.iter("iframe"):  # its text is only for browsers without frames
        frame.text = None
        for child in list(frame):
            drop_tree(child)


def _drop_permalink_marks(index: ElementIndex) -> None:
    """Permalink marks go; a docutils back-link to the contents (``:backlinks:``) keeps
    its text only: it leads to a navigation entry, and the heading's id is elsewhere.
    A heading left with nothing to show goes too (markdownify would write a bare ``###``),
    its id kept as an anchor."""
    for heading in index.tags(*_HEADINGS):
        for anchor in list(heading.iter("a")):
            is_mark = text_of(anchor) in _PERMALINK_MARKS
            if is_mark and (anchor.get("href") or "").startswith("#"):
                drop_tree(anchor)
            elif "toc-backref" in classes(anchor):
                unwrap(anchor)
        if heading.getparent() is not None and not text_of(heading).strip() \
                and next(heading.iter("img"), None) is None:
            if heading.get("id"):
                heading.tag = "p"
                heading[:] = []
                heading.text = None
            else:
                drop_tree(heading)


# What holds blocks, and the blocks that an inline parent would break.
_BLOCK_PARENTS = BLOCK_TAGS | {"td", "th", "dd", "dt", "summary", "caption", "body", "tr",
                               "thead", "tbody", "tfoot", "legend"}
_BLOCKS_TO_LIFT = (*sorted(BLOCK_TAGS), "td", "th", "dd", "dt", "summary", "tr", "thead",
                   "tbody", "tfoot")


def _out_of_inline_markup(root: Element, placeholders: Placeholders) -> None:
    """Blocks inside inline markup (``<em>``, ``<var>``, a link) out of it: engines split
    the markup around the block, and its halves then read as list markers or stray
    emphasis. The inline markup goes, its text stays; a link moves onto the block's
    first text. A code block or math inside a heading follows the heading."""
    for block in list(root.iter(*_BLOCKS_TO_LIFT)):
        parent = block.getparent()
        while parent is not None and parent is not root and parent.tag not in _BLOCK_PARENTS:
            above = parent.getparent()
            _unwrap_inline(parent, block)
            parent = above
        if block.tag != "p" or block.text not in placeholders.blocks:
            continue
        heading = next(block.iterancestors(*_HEADINGS), None)
        if heading is not None:
            tail, block.tail = block.tail, None
            put_before(block, tail or "")  # the text after it stays where it was
            heading.addnext(block)


_STRUCK = ("s", "del", "strike")


def _no_nested_strikes(root: Element) -> None:
    """Strikethrough inside strikethrough as one: engines write ``~~~~``, a fence."""
    for element in list(root.iter(*_STRUCK)):
        if next(element.iterancestors(*_STRUCK), None) is not None:
            drop_tag(element)


def _markup_in_raised_text(root: Element, placeholders: Placeholders) -> None:
    """A ``<sup>`` or ``<sub>`` that holds markup (a footnote mark that is a link): its
    tags as text around its content, so that a link in it becomes a Markdown link
    (the engines keep the element as HTML, the link inside it too)."""
    for raised in reversed(list(root.iter("sup", "sub"))):
        if len(raised) and raised.getparent() is not None:
            tag = str(raised.tag)
            raised.text = placeholders.inline(f"<{tag}>") + (raised.text or "")
            raised.append(new_element("span", placeholders.inline(f"</{tag}>")))
            drop_tag(raised)


_EMPHASIS = ("em", "strong", "i", "b")


def _merge_adjacent_emphasis(root: Element) -> None:
    """Runs of one emphasis with nothing but spaces between, as one: Sphinx writes a type
    ``str | Callable[[...], Any]`` as an ``<em>`` per token, which engines would give as
    ``*str* *|* *Callable[[...],*``."""
    for element in list(root.iter(*_EMPHASIS)):
        if element.getparent() is None:
            continue  # merged into the one before it
        run = [element]
        following = element.getnext()
        while following is not None and following.tag == element.tag \
                and not (run[-1].tail or "").strip() and following.items() == element.items():
            run.append(following)
            following = following.getnext()
        if len(run) > 1:
            _merge_run(run)


def _merge_run(run: list[Element]) -> None:
    """The elements of ``run`` (siblings) as its first one. Each text is joined once: a
    page of thousands of them in a row must not copy a growing string each time."""
    head, parent = run[0], run[0].getparent()
    last = head[-1] if len(head) else None
    pending = [(last.tail if last is not None else head.text) or ""]
    for previous, member in itertools.pairwise(run):
        pending += [previous.tail or "", member.text or ""]
        children = list(member)
        if children:
            _set_text_after(head, last, "".join(pending))
            head.extend(children)
            last = children[-1]
            pending = [last.tail or ""]
        if parent is not None:
            parent.remove(member)
    _set_text_after(head, last, "".join(pending))
    head.tail = run[-1].tail


def _set_text_after(element: Element, last: Element | None, text: str) -> None:
    """``text`` after ``element``'s last child ``last``, or as its text without one."""
    if last is None:
        element.text = text
    else:
        last.tail = text


def _unwrap_inline(inline: Element, block: Element) -> None:
    href = inline.get("href") if inline.tag == "a" else None
    drop_tag(inline)
    if href and block.tag not in ("pre", "table", "ul", "ol", "dl") and next(
            block.iter("a"), None) is None:
        link = new_element("a", block.text)
        link.set("href", href)
        link.extend(list(block))
        block.text = None
        block.append(link)


def _visible_text(root: Element) -> str:
    """The text and the URLs of a page: what could reach the Markdown."""
    urls_ = (el.get("href") or el.get("src") or "" for el in root.iter("a", "img"))
    return all_text(root) + " ".join(urls_)


def _flatten(root: Element) -> list[Diagnostic]:
    if not flatten_deep(root):
        return []
    return [Diagnostic("deep-nesting", f"Markup nested deeper than {MAX_DEPTH} elements was "
                       "kept as its visible text only; the rest of the page is converted "
                       "as usual.")]


def normalize(
    root: Element,
    *,
    page_url: str,
    site_map: Mapping[str, str],
    source_fences: Sequence[SourceFence] = (),
) -> Normalized:
    """Apply every docs rule to ``root`` in place.

    ``site_map`` maps :func:`~agentprose_core.urls.page_key` of each page to its agent-view URL;
    ``source_fences`` are the fenced blocks of the page's Markdown source, when the
    build tool has it: they restore code languages that the theme left out.
    """
    placeholders = Placeholders.avoiding(_visible_text(root))
    notes = _flatten(root)
    index = ElementIndex(root)
    rewrite_tabs(index)  # before the chrome goes: sphinx-tabs labels are <button>s
    rewrite_link_cards(index)  # and sphinx-design's card links are hidden text
    drop_chrome(index)
    _drop_permalink_marks(index)
    headings = outline(root)
    ids = place_anchors(root, placeholders)
    rewrite_admonitions(index)
    replace_math(index, placeholders)
    rewrite_footnotes(index, placeholders)
    rewrite_links(index, page_url, site_map)
    rewrite_images(index, page_url)
    rewrite_task_lists(index, placeholders)
    rewrite_figures(index)
    rewrite_tables(root, placeholders)
    replace_code_blocks(root, placeholders, source_fences=source_fences, index=index)
    rewrite_definition_lists(index)
    rewrite_media(root, page_url)
    for aside in root.iter("aside"):  # html-to-markdown drops asides: sidebars are content
        aside.tag = "div"
    _out_of_inline_markup(root, placeholders)
    _no_nested_strikes(root)
    _markup_in_raised_text(root, placeholders)
    _merge_adjacent_emphasis(root)
    escape_text(root, placeholders)
    separate_blockquotes(root, placeholders)
    return Normalized(root=root, placeholders=placeholders, headings=headings,
                      diagnostics=notes + unknown_constructs(root), ids=ids)
