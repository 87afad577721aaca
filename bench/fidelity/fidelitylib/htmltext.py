"""What a reader sees in rendered HTML: its words and its structure.

The rules, all applied to the content fragment (or the theme's content container):

- not read: ``script``, ``style``, ``template``, ``noscript``, comments;
  ``[hidden]`` and ``[aria-hidden=true]`` elements, except tab panels
  (``role=tabpanel``, Material ``.tabbed-block``, sphinx-design ``.sd-tab-content``);
  closed ``<details>`` are read (their content is in the page);
- not content: ``[data-ignore]``, ``.agentprose-ignore``, permalink anchors
  (``a.headerlink``), line numbers (``.linenos``, ``td.linenos``, ``.linenodiv``),
  copy, back-to-top and edit buttons, and footnote markers and back-references
  (footnote syntax in Markdown); the text of sphinx-design's visually hidden card
  links (``.sd-hide-link-text``, still counted as links);
- Material (and Zensical) code annotations: the ``(1)`` markers, which the theme
  turns into numbered bubbles, can be dropped (Rules.material_annotations) but are kept
  by default, since the static HTML holds them and the view keeps them as references;
- a tab set reads label, panel, label, panel (Material and sphinx-tabs put all the
  labels first, sphinx-design already interleaves them);
- an ``<img>`` reads as its ``alt`` text (the Markdown keeps it as ``![alt](…)``);
- every element boundary separates words, except inside ``<pre>`` and ``<code>``,
  where highlighting spans do not (so ``H<sub>2</sub>O`` reads ``h 2 o``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lxml import html

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = [
    "GENERIC_LANGUAGES",
    "Rules",
    "Structure",
    "container",
    "parse_fragment",
    "structure_of",
    "visible_text",
    "words_of",
]

WORD = re.compile(r"\w+")
# Names that say "no particular language": a block with one of them has no language.
GENERIC_LANGUAGES = frozenset({
    "", "text", "none", "default", "plain", "plaintext", "txt", "nohighlight", "output",
})
_UNREAD_TAGS = frozenset({"script", "style", "template", "noscript", "head", "title"})
_LITERAL_TAGS = frozenset({"pre", "code"})
_TAB_PANELS = frozenset({"tabbed-block", "sd-tab-content", "sphinx-tabs-panel"})
_EMOJI = frozenset({"emojione", "twemoji", "gemoji", "emoji"})
_NOT_CONTENT = ", ".join([
    "[data-ignore]", ".agentprose-ignore",
    "a.headerlink",
    ".linenos", "td.linenos", ".linenodiv", "a[id^=__codelineno]",
    ".md-clipboard", ".copybtn", "button[title='Copy to clipboard']",
    ".md-top", ".back-to-top", "#pst-back-to-top",
    ".md-content__button", "a[rel=edit]", ".edit-this-page", ".content-icon-container",
    ".md-source-file", ".md-annotation__index",
    "a.footnote-ref", "a.footnote-backref", "a.footnote-reference",
    "a[role=doc-noteref]", "a[role=doc-backlink]", "span.backrefs",
    "aside.footnote > span.label",
])
# Links whose text the reader never sees (sphinx-design cards: font-size 0); still links.
_SILENT = ".sd-hide-link-text"
_LANG_CLASS = re.compile(r"^(?:language|lang|highlight)-([\w+#.-]+)$")
_MARKER = re.compile(r"\(\d+\)!?")
_PARSER = html.HTMLParser(remove_comments=True, remove_pis=True)


@dataclass(frozen=True)
class Rules:
    """Theme behaviour that changes what a reader sees."""

    material_annotations: bool = False


@dataclass
class Structure:
    """Counts of the constructs a page is made of."""

    code: int = 0
    code_lang: int = 0
    tables: int = 0
    raw_tables: int = 0
    headings: Counter[int] = field(default_factory=Counter)
    list_items: int = 0
    links: int = 0
    images: int = 0

    def add(self, other: Structure) -> None:
        """Add another structure's counts to this one."""
        self.code += other.code
        self.code_lang += other.code_lang
        self.tables += other.tables
        self.raw_tables += other.raw_tables
        self.headings.update(other.headings)
        self.list_items += other.list_items
        self.links += other.links
        self.images += other.images


def parse_fragment(text: str) -> html.HtmlElement:
    """A content fragment as one ``<div>`` element, comments dropped."""
    return html.fragment_fromstring(text or "<p></p>", create_parent="div", parser=_PARSER)


def container(page: str, selector: str) -> html.HtmlElement | None:
    """The first element of a full page matching the theme's content selector."""
    root = html.document_fromstring(page, parser=_PARSER)
    found = root.cssselect(selector)
    return found[0] if found else None


def words_of(text: str) -> list[str]:
    """``re.findall(r"\\w+")`` on the casefolded text."""
    return WORD.findall(text.casefold())


def _classes(element: html.HtmlElement) -> set[str]:
    return set((element.get("class") or "").split())


def _is_tab_panel(element: html.HtmlElement) -> bool:
    return element.get("role") == "tabpanel" or bool(_classes(element) & _TAB_PANELS)


def _hidden(element: html.HtmlElement) -> bool:
    hidden = element.get("hidden") is not None
    aria = (element.get("aria-hidden") or "").strip().lower() == "true"
    return (hidden or aria) and not _is_tab_panel(element)


def _dropped(root: html.HtmlElement) -> set[html.HtmlElement]:
    """Every element that is not content, or not read (their subtrees go with them)."""
    dropped = set(root.cssselect(_NOT_CONTENT))
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        if element.tag.lower() in _UNREAD_TAGS or _hidden(element):
            dropped.add(element)
    return dropped


_TAB_SETS = (
    ("tabbed-set", "./div[contains(@class, 'tabbed-labels')]/label",
     "./div[contains(@class, 'tabbed-content')]/div[contains(@class, 'tabbed-block')]"),
    ("sphinx-tabs", "./div[@role='tablist']/button[@role='tab']", "./div[@role='tabpanel']"),
)


def _tab_pairs(element: html.HtmlElement, classes: set[str]) -> list[html.HtmlElement]:
    """A tab set's labels and panels in reading order (label, panel, …), else []."""
    for name, labels_path, panels_path in _TAB_SETS:
        if name in classes:
            labels, panels = element.xpath(labels_path), element.xpath(panels_path)
            if labels and len(labels) == len(panels):
                return [part for pair in zip(labels, panels, strict=True) for part in pair]
    return []


@dataclass
class _Walk:
    dropped: set[html.HtmlElement]
    rules: Rules
    out: list[str] = field(default_factory=list)

    def text(self, raw: str | None, *, literal: bool, annotate: bool, comment: bool) -> None:
        if not raw:
            return
        if self.rules.material_annotations and (annotate or (literal and comment)):
            raw = _MARKER.sub("", raw)
        self.out.append(raw)

    def element(self, element: html.HtmlElement, *, literal: bool, annotate: bool) -> None:
        if not isinstance(element.tag, str) or element in self.dropped:
            return
        classes = _classes(element)
        literal = literal or element.tag.lower() in _LITERAL_TAGS
        annotate = annotate or "annotate" in classes
        comment = literal and any(name.startswith("c") and len(name) <= 3 for name in classes)
        gap = "" if literal else " "
        self.out.append(gap)
        tabs = _tab_pairs(element, classes)
        if tabs:
            for part in tabs:
                self.element(part, literal=literal, annotate=annotate)
            self.out.append(gap)
            return
        if element.tag.lower() == "img":
            self.out.append(f" {element.get('alt') or ''} ")
        self.text(element.text, literal=literal, annotate=annotate, comment=comment)
        for child in element:
            self.element(child, literal=literal, annotate=annotate)
            self.text(child.tail, literal=literal, annotate=annotate, comment=comment)
        self.out.append(gap)


def _equation_numbers_last(root: html.HtmlElement) -> None:
    """Read an equation's number after the equation, where TeX's ``\\tag`` puts it."""
    for number in root.cssselect("div.math span.eqno"):
        parent = number.getparent()
        if parent is not None:
            number.tail, previous = None, number.tail
            parent.remove(number)
            parent.text = (parent.text or "") + (previous or "")
            parent.append(number)


def visible_text(root: html.HtmlElement, rules: Rules | None = None) -> str:
    """The text a reader sees in ``root``, by the rules in the module docstring."""
    _equation_numbers_last(root)
    walk = _Walk(_dropped(root) | set(root.cssselect(_SILENT)), rules or Rules())
    walk.element(root, literal=False, annotate=False)
    return "".join(walk.out)


def _visible(root: html.HtmlElement) -> Iterator[html.HtmlElement]:
    dropped = _dropped(root)
    stack = [root]
    while stack:
        element = stack.pop()
        if not isinstance(element.tag, str) or element in dropped:
            continue
        yield element
        stack.extend(reversed(list(element)))


def code_language(pre: html.HtmlElement) -> str:
    """The language a code block's classes name (on it, its ``<code>`` or a wrapper)."""
    candidates = [pre, *pre.findall("code")]
    ancestor = pre.getparent()
    while ancestor is not None and len(candidates) < 10:
        candidates.append(ancestor)
        ancestor = ancestor.getparent()
    for element in candidates:
        for name in _classes(element):
            match = _LANG_CLASS.match(name)
            if match:
                return match.group(1).lower()
            if name == "mermaid":
                return "mermaid"
            if name == "doc-signature":  # mkdocstrings-python highlights them as Python
                return "python"
    return ""


def _in(element: html.HtmlElement, tag: str) -> bool:
    return any(ancestor.tag == tag for ancestor in element.iterancestors())


def _in_footnotes(element: html.HtmlElement) -> bool:
    return any(_classes(a) & {"footnote", "footnotes"} for a in element.iterancestors())


def _count(element: html.HtmlElement, found: Structure) -> None:
    tag = element.tag.lower()
    if tag == "pre" and not _in(element, "pre"):
        found.code += 1
        found.code_lang += code_language(element) not in GENERIC_LANGUAGES
    elif tag == "table" and "highlighttable" not in _classes(element):
        found.tables += 1
    elif re.fullmatch(r"h[1-6]", tag):
        found.headings[int(tag[1])] += 1
    elif tag == "li" and not _in_footnotes(element):
        found.list_items += 1
    elif tag == "a" and element.get("href") is not None:
        found.links += 1
    elif tag == "img" and not _classes(element) & _EMOJI:
        found.images += 1


def structure_of(root: html.HtmlElement) -> Structure:
    """Code blocks (and those with a language), tables, headings, list items, links, images."""
    found = Structure()
    for element in _visible(root):
        _count(element, found)
    return found
