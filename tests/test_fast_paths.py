"""Fast paths on the page path give what their plain definitions give.

Each function here replaced a regex over the whole page with string methods (or gated
the regex behind a cheap test), or a general tree operation with a shortcut, for
speed; the reference beside each test is the rule as it was first written, and the
fast path must agree with it on any input.
"""

from __future__ import annotations

import itertools
import re
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

import agentprose_core.convert.rules.links as links_module
from agentprose_core import urls
from agentprose_core.characters import _UNSAFE_CHARACTERS, _character, _surely_clean, clean_text
from agentprose_core.convert.fragment import _end_tables, _finish, _separate_quotes
from agentprose_core.convert.rules.links import rewrite_links
from agentprose_core.convert.tree import (
    Element,
    ElementIndex,
    drop_tag,
    new_element,
    put_before,
    to_html,
)

SEPARATOR = "AgPrSEPX"

# Text made of what the finishing rules look at, and a little else.
layout_text = st.lists(
    st.sampled_from([" ", "  ", "\t", "\n", "\n\n\n", "\r\n", "\r", "\u00a0", ">", "> ",
                     "|", "| a |", "> | a |", "a", "b c", "-", SEPARATOR, "> " + SEPARATOR]),
    max_size=40,
).map("".join)


def _finish_reference(markdown: str, separator: str) -> str:
    markdown = markdown.replace("\r\n", "\n").replace("\u00a0", " ")
    markdown = re.sub(r"[ \t]+$", "", markdown, flags=re.MULTILINE)
    if re.search(r"^ *>[ >]*\|", markdown, flags=re.MULTILINE):
        markdown = "\n".join(_end_tables(markdown.split("\n")))
    if ">" in markdown or separator in markdown:
        markdown = "\n".join(_separate_quotes(markdown.split("\n"), separator))
    markdown = re.sub(r"\n{3,}", "\n\n", markdown)
    return markdown.strip("\n") + "\n" if markdown.strip() else ""


@settings(max_examples=400)
@given(layout_text)
def test_finishing_rules_match_their_regex_definition(markdown: str) -> None:
    assert _finish(markdown, SEPARATOR) == _finish_reference(markdown, SEPARATOR)


def test_finishing_rules_on_the_cases_each_gate_skips() -> None:
    cases = ["a  \nb\t\n", "a \t", "> | x |\n> after", "> | x |\nafter", "x\n> | y |\n> z",
             "a\n\n\n\nb", "no change\n", ""]
    for markdown in cases:
        assert _finish(markdown, SEPARATOR) == _finish_reference(markdown, SEPARATOR)


# Every character the rule is about, their neighbours, and some that are always kept.
unsafe_text = st.lists(
    st.one_of(
        st.sampled_from(["\x00", "\x08", "\t", "\n", "\x0b", "\r", "\x1f", " ", "~", "\x7f",
                         "\x80", "\x9f", "\xa0", "\xb6", "\ud800", "\udfff", "\ufdcf",
                         "\ufdd0", "\ufdef", "\ufdf0", "\ufffd", "\ufffe", "\uffff",
                         "\u1ffe", "\u1fff", "\U0001fffe", "\U0001ffff", "\U0001f600",
                         "\U0010ffff", "a", "é", "—"]),
        st.characters(),
    ),
    max_size=12,
).map("".join)


def _clean_text_reference(text: str) -> str:
    return _UNSAFE_CHARACTERS.sub(_character, text)


@settings(max_examples=500)
@given(unsafe_text)
def test_clean_text_matches_its_regex_definition(text: str) -> None:
    assert clean_text(text) == _clean_text_reference(text)
    assert _surely_clean(text) <= (clean_text(text) == text)


def _drop_tag_reference(element: Element) -> None:
    parent = element.getparent()
    assert parent is not None
    put_before(element, element.text or "")
    index = parent.index(element)
    children = list(element)
    if children:
        children[-1].tail = (children[-1].tail or "") + (element.tail or "")
    else:
        put_before(element, element.tail or "")
    parent[index : index + 1] = children


pieces = st.one_of(st.none(), st.sampled_from(["", " ", "a", "b c"]))
# Each child of the paragraph: its text, its tail, and whether it holds an element.
Child = tuple[str | None, str | None, bool]
siblings = st.lists(st.tuples(pieces, pieces, st.booleans()), min_size=1, max_size=4)


@given(pieces, siblings, st.integers(min_value=0, max_value=3))
def test_drop_tag_keeps_text_and_children_in_place(text: str | None, children: list[Child],
                                                  which: int) -> None:
    def tree() -> Element:
        parent = new_element("p", text)
        for own, tail, nested in children:
            child = new_element("em", own)
            child.tail = tail
            if nested:
                child.append(new_element("b", "x"))
            parent.append(child)
        return parent

    fast, reference = tree(), tree()
    drop_tag(fast[which % len(children)])
    _drop_tag_reference(reference[which % len(children)])
    assert to_html(fast) == to_html(reference)


# Links as themes write them: text or none, an image, a label, hrefs into the page or
# out of it, inside a list item (where a link to a page with no view takes the item).
LINK_TEXTS = [None, "", " ", "x"]
LINK_HREFS = [None, "#", "#a", " #a ", "#a b", "#a#b", "other/", "other/#a", "javascript:x",
              "https://e.org/#a"]
LINK_LABELS: list[dict[str, str]] = [{}, {"title": "T"}, {"aria-label": " "},
                                     {"aria-label": "L"}]
PAGE_URLS = ["https://e.org/p/", "https://e.org/p/#x", "https://e.org/gone/",
             "https://e.org/gone/#x"]
LinkSpec = tuple[str | None, str | None, dict[str, str], bool, bool]


def _links_both_ways(specs: list[LinkSpec], page_url: str) -> tuple[str, str]:
    def tree() -> Element:
        root = new_element("div")
        listing = new_element("ul")
        root.append(listing)
        for text, href, label, image, in_item in specs:
            link = new_element("a", text)
            if href is not None:
                link.set("href", href)
            for name, value in label.items():
                link.set(name, value)
            if image:
                link.append(new_element("img"))
            if in_item:
                listing.append(new_element("li"))
                listing[-1].append(link)
            else:
                root.append(link)
        return root

    site_map = {"https://e.org/other/": "https://e.org/other.md",
                "https://e.org/gone/": urls.NO_VIEW}
    fast, reference = tree(), tree()
    rewrite_links(ElementIndex(fast), page_url, site_map)
    with patch.object(links_module, "_bare_in_page_anchor", lambda link, href: False):
        rewrite_links(ElementIndex(reference), page_url, site_map)
    return to_html(fast), to_html(reference)


def test_each_link_rewritten_alike_with_and_without_the_in_page_anchor_shortcut() -> None:
    for text, href, label, image, in_item, page_url in itertools.product(
            LINK_TEXTS, LINK_HREFS, LINK_LABELS, (False, True), (False, True), PAGE_URLS):
        fast, reference = _links_both_ways([(text, href, label, image, in_item)], page_url)
        assert fast == reference, (text, href, label, image, in_item, page_url)


@settings(max_examples=200)
@given(st.lists(st.tuples(st.sampled_from(LINK_TEXTS), st.sampled_from(LINK_HREFS),
                          st.sampled_from(LINK_LABELS), st.booleans(), st.booleans()),
                min_size=2, max_size=5),
       st.sampled_from(PAGE_URLS))
def test_links_together_rewritten_alike_with_and_without_the_shortcut(
        specs: list[LinkSpec], page_url: str) -> None:
    fast, reference = _links_both_ways(specs, page_url)
    assert fast == reference


def test_a_link_inside_another_link_goes_whenever_the_outer_one_came() -> None:
    """Only links that sit in another link as the rule starts are asked again: the
    outer one may have come after the index was made (a rule moved it there)."""
    for outer_later in (False, True):
        root, paragraph = new_element("div"), new_element("p")
        root.append(paragraph)
        inner = new_element("a", "inner")
        inner.set("href", "../other/")
        outer = new_element("a", "outer ")
        outer.set("href", "https://x.org/")
        paragraph.append(inner if outer_later else outer)
        if not outer_later:
            outer.append(inner)
        index = ElementIndex(root)
        if outer_later:
            paragraph.append(outer)
            outer.append(inner)
        rewrite_links(index, "https://e.org/page/", {})
        assert [link.text for link in root.iter("a")] == ["outer inner"], to_html(root)
