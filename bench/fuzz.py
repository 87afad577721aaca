"""An independent fuzz of the converter: random tag soup, both engines.

Each fragment is built from random tags (block, inline, widgets, tables, code, media,
unknown), attributes that hide (``hidden``, ``aria-hidden``, ``style``,
``data-ignore``, a block for people only), blocks for agents only (content however
hidden: the two rules must agree), tab panels, table spans (``colspan="x"`` too), text
of Markdown syntax characters, entities, carriage returns, numeric references to controls and
noncharacters, and broken nesting. Hidden elements hold a marker; every
view must be free of it. Prints, per engine: fragments, exceptions, unbalanced fences,
control or noncharacters, hidden text, internal placeholders left in a view (or
reported by the converter); and, for information, how many fragments do not
render back block for block (random tag soup such as a list without items or a heading
inside a link has no Markdown twin: the round-trip rule is held on real pages, golden
files and generated well-formed pages instead). Exits 1 when any of the others is not 0.

    python bench/fuzz.py [--count 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import traceback
from pathlib import Path

from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agentprose_core.characters import clean_markup
from agentprose_core.check.structure import roundtrip_mismatches
from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.settings import ENGINES, Settings

PAGE = "https://fuzz.example/docs/page/"
SITE_MAP = {"https://fuzz.example/docs/other/": "https://fuzz.example/docs/other.md"}
MARK = "HIDDENMARK"
BLOCKS = ["p", "div", "section", "blockquote", "ul", "ol", "li", "h1", "h2", "h3", "h6",
          "pre", "table", "tr", "td", "th", "dl", "dt", "dd", "details", "summary", "figure",
          "figcaption", "aside", "article", "hr"]
INLINE = ["em", "strong", "code", "kbd", "span", "a", "b", "i", "sub", "sup", "mark", "abbr",
          "small", "s", "q", "br", "img", "samp", "var", "wbr", "autoref", "x-widget"]
OTHER = ["script", "style", "template", "noscript", "iframe", "video", "svg", "button",
         "math", "select", "textarea", "object"]
CLASSES = ["admonition note", "admonition-title", "highlight", "language-python",
           "highlight-python", "tabbed-set", "tabbed-block", "arithmatex", "headerlink",
           "footnote", "doc-signature", "md-clipboard", "sig sig-object py", "linenos",
           "agent-only", "note human-only"]
HIDING = ['hidden', 'aria-hidden="true"', 'aria-hidden="TRUE"', 'style="display:none"',
          'style="visibility: hidden"', "data-ignore", "data-human-only"]
TEXT = [*"`~#>-+*=_[]()!<&;:|\\.1 \n\taAé", "&lt;b&gt;", "&amp;copy;", "&#1;", "&#x1b;",
        "&#xfffe;", "&#65535;", "&#128;", "\ufffe", "\x85", "```", "~~~", "1. ", "- ", "# ",
        "&#13;", "\r\n", "\r"]
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(TEXT) for _ in range(rng.randint(1, 12)))


def _element(rng: random.Random, depth: int) -> str:
    if depth > 6 or rng.random() < 0.25:
        return _text(rng)
    tag = rng.choice(BLOCKS + INLINE + INLINE + OTHER)
    attributes = []
    if rng.random() < 0.3:
        attributes.append(f'class="{rng.choice(CLASSES)}"')
    hidden = rng.random() < 0.12
    if hidden:
        attributes.append(rng.choice(HIDING))
    if tag in ("td", "th") and rng.random() < 0.3:
        name = rng.choice(["colspan", "rowspan"])
        attributes.append(f'{name}="{rng.choice(["2", "x", "2.5", "0", "-1", " 3", ""])}"')
    if rng.random() < 0.04:
        attributes.append('role="tabpanel"')
    if rng.random() < 0.04:  # written for agents: content, however hidden
        attributes.append("data-agent-only")
    if tag == "a":
        attributes.append(f'href="{rng.choice(["../other/#x", "#here", "https://e.x/", ""])}"')
    if tag == "img":
        attributes.append(f'src="i.png" alt="{rng.choice(["a]b", "x", ""])}"')
    if tag in ("br", "img", "hr", "wbr"):
        return f"<{tag} {' '.join(attributes)}>"
    inner = "".join(_element(rng, depth + 1) for _ in range(rng.randint(0, 3)))
    if hidden:
        inner = MARK + inner.replace(MARK, "")
    close = f"</{tag}>" if rng.random() > 0.05 else ""  # sometimes left open
    return f"<{tag} {' '.join(attributes)}>{inner}{close}"


def fragment(rng: random.Random) -> str:
    """One random fragment."""
    return "".join(_element(rng, 0) for _ in range(rng.randint(1, 6)))


def unbalanced_fence(markdown: str) -> bool:
    """True when a fenced code block runs to the end without its closing fence, as a
    CommonMark renderer (markdown-it-py) reads the view."""
    from markdown_it import MarkdownIt

    lines = markdown.split("\n")
    for token in MarkdownIt("commonmark").enable("table").parse(markdown):
        if token.type != "fence" or token.map is None:
            continue
        last = lines[token.map[1] - 1].lstrip(" >") if token.map[1] else ""
        closed = token.map[1] - token.map[0] >= 2 and last.startswith(token.markup) and \
            set(last) == {token.markup[0]}
        if not closed:
            return True
    return False


_PARSER = etree.HTMLParser(huge_tree=True, collect_ids=False)
_HIDING_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_NEVER_SHOWN = ("script", "style", "template", "noscript", "textarea", "iframe", "title")


def _shows_marker(document: str) -> bool:
    """Whether a browser would show the marker: an independent reading of the fragment
    (the parser may turn a hidden element's tag into a comment, so the marker shows)."""
    markup = clean_markup(document)  # lxml takes no control characters
    root = etree.fromstring(f"<html><body>{markup}</body></html>", _PARSER)
    if root is None:
        return False
    for element in list(root.iter()):
        if not isinstance(element.tag, str) or element.getparent() is None:
            continue
        classes = (element.get("class") or "").split()
        for_people = "data-human-only" in element.attrib or "human-only" in classes
        for_agents = "data-agent-only" in element.attrib or "agent-only" in classes
        hidden = (element.tag in _NEVER_SHOWN or "hidden" in element.attrib
                  or "data-ignore" in element.attrib
                  or (element.get("aria-hidden") or "").lower() == "true"
                  or bool(_HIDING_STYLE.search(element.get("style") or "")))
        # what agents are shown: a block for people never, one for agents however hidden
        hidden = for_people or "data-ignore" in element.attrib or (
            hidden and not (for_agents and element.tag not in _NEVER_SHOWN))
        if hidden and element.get("role") != "tabpanel":
            parent, previous = element.getparent(), element.getprevious()
            if element.tail and previous is not None:  # the text after it shows
                previous.tail = (previous.tail or "") + element.tail
            elif element.tail:
                parent.text = (parent.text or "") + element.tail
            parent.remove(element)
    body = root.find("body")
    return body is not None and MARK in "".join(body.itertext())


def _hidden_leak(document: str, markdown: str) -> bool:
    if MARK not in markdown or "tabbed-block" in document or "tabpanel" in document:
        return False
    return not _shows_marker(document)


def run(count: int, seed: int) -> dict[str, dict[str, int]]:
    results: dict[str, dict[str, int]] = {}
    for engine in ENGINES:
        rng = random.Random(seed)
        counts = dict.fromkeys(("fragments", "exceptions", "unbalanced fences",
                                "forbidden characters", "hidden text", "placeholders",
                                "round-trip"), 0)
        settings = Settings(converter=engine)  # type: ignore[arg-type]
        for _ in range(count):
            document = fragment(rng)
            counts["fragments"] += 1
            try:
                converted = convert_fragment(document, page_url=PAGE, site_map=SITE_MAP,
                                             settings=settings)
                markdown = converted.markdown
                mismatched = roundtrip_mismatches(document, markdown, page_url=PAGE,
                                                  site_map=SITE_MAP)
            except Exception:
                counts["exceptions"] += 1
                if counts["exceptions"] <= 3:
                    print(f"--- {engine}: {document!r}\n{traceback.format_exc()}")
                continue
            counts["unbalanced fences"] += unbalanced_fence(markdown)
            counts["forbidden characters"] += bool(_FORBIDDEN.search(markdown))
            counts["hidden text"] += _hidden_leak(document, markdown)
            leaked = markdown.count("AgPr") > document.count("AgPr") or any(
                note.code == "placeholder-leak" for note in converted.diagnostics)
            counts["placeholders"] += leaked
            if leaked and counts["placeholders"] <= 3:
                print(f"--- {engine} placeholder: {document!r}\n{markdown!r}")
            counts["round-trip"] += bool(mismatched)
        results[engine] = counts
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    results = run(args.count, args.seed)
    names = list(next(iter(results.values())))
    print("| engine | " + " | ".join(names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for engine, counts in results.items():
        print(f"| {engine} | " + " | ".join(str(counts[n]) for n in names) + " |")
    bad = any(counts[n] for counts in results.values() for n in names
              if n not in ("fragments", "round-trip"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
