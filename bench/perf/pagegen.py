"""Abstract pages for the synthetic sites: a tree of sections, and each page's blocks.

A page is a list of blocks (tuples, rendered by ``render.py`` as Markdown or reST):

- ``("h", level, text, anchor)``; ``("p", spans)``; ``("list", ordered, [spans])``
- ``("code", lang, text)``; ``("tabs", [(label, lang, text)])``
- ``("table", header, rows)`` with cells as spans
- ``("admon", kind, title, blocks, collapsible)``
- ``("func", qualname, params, rtype, rdesc)``: an API entry, params as
  ``(name, type, default or "", description)``
- ``("children", [(stem, title)])``: a section index's table of contents

Spans are ``("t", text)``, ``("c", code)``, ``("b", text)`` and links
``("l", text, stem, anchor or "")``; ``("f", qualname, stem, anchor)`` for an API ref.
Everything comes from ``random.Random`` seeded by the page's number: deterministic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from codegen import code_block

__all__ = ["Block", "Page", "plan_site"]

Block = tuple[Any, ...]
Span = tuple[str, ...]

_TEXT = (
    "cache config build server client request response token session plugin theme page "
    "section index query result schema module package release version deploy cluster node "
    "worker queue event handler stream buffer record field value option setting default "
    "policy rule filter route path file folder archive backup restore migrate upgrade "
    "install remove enable disable validate parse render format encode decode compress "
    "timeout retry limit quota metric log trace span alert dashboard report export import "
    "user group role permission account project workspace team owner member key secret "
    "certificate domain network proxy gateway endpoint service container image volume "
    "snapshot replica shard partition table column row batch job task pipeline stage step "
    "trigger hook callback adapter driver backend frontend layout template widget component "
    "state store context scope namespace registry manifest bundle asset static dynamic "
    "local remote global custom internal external primary secondary optional required "
    "async sync parallel serial incremental full partial fast slow safe strict loose"
)
WORDS = _TEXT.split()
TYPES = ("int", "str", "bool", "float", "Path", "list[str]", "dict[str, Any]", "Config",
         "Session", "Timeout | None", "bytes", "Iterable[Record]")
ADMONITIONS = ("note", "tip", "warning", "important", "seealso")
LANGS = ("python", "bash", "yaml", "json", "javascript", "toml", "go", "rust", "sql", "console")


@dataclass
class Page:
    stem: str
    title: str
    depth: int
    parent: str
    kind: str  # home, index, guide, api
    number: int
    blocks: list[Block] = field(default_factory=list)
    anchors: list[str] = field(default_factory=list)
    functions: list[tuple[str, str]] = field(default_factory=list)  # (qualname, anchor)

    @property
    def is_index(self) -> bool:
        return self.kind in {"home", "index"}


def _slug(text: str) -> str:
    return "-".join(text.lower().replace("`", "").split())


def _title(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize()


def _unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}-{n}", n + 1
    taken.add(candidate)
    return candidate


# --- the tree ----------------------------------------------------------------------


def _tree(total: int, rng: random.Random) -> list[Page]:
    """Home, sections (index + subsections of up to 12 pages), in nav order."""
    pages = [Page("index", "Bench Docs", 0, "", "home", 0)]
    sections = max(3, total // 80)
    left = total - 1
    taken: set[str] = set()
    for s in range(sections):
        share = left // (sections - s)
        left -= share
        title = _title(rng, 2)
        stem = _unique(_slug(title), taken)
        pages.append(Page(f"{stem}/index", title, 1, "index", "index", len(pages)))
        _subsections(pages, stem, share - 1, rng)
    return pages


def _subsections(pages: list[Page], section: str, count: int, rng: random.Random) -> None:
    taken: set[str] = {"index"}
    while count > 0:
        size = min(count, rng.randint(6, 12))
        title = _title(rng, 2)
        sub = f"{section}/{_unique(_slug(title), taken)}"
        pages.append(Page(f"{sub}/index", title, 2, f"{section}/index", "index", len(pages)))
        names: set[str] = {"index"}
        for _ in range(size - 1):
            kind = "api" if rng.random() < 0.25 else "guide"
            title = _title(rng, rng.randint(2, 4))
            if kind == "api":
                title = f"bench.{rng.choice(WORDS)}.{rng.choice(WORDS)}"
            stem = f"{sub}/{_unique(_slug(title).replace('.', '-'), names)}"
            pages.append(Page(stem, title, 3, f"{sub}/index", kind, len(pages)))
        count -= size


# --- text ----------------------------------------------------------------------------


class _Writer:
    """Makes one page's blocks; links are drawn as page numbers, resolved later."""

    def __init__(self, page: Page, total: int, seed: int) -> None:
        self.page = page
        self.total = total
        self.rng = random.Random(f"{seed}:{page.number}")
        self.taken: set[str] = set()

    def ident(self) -> str:
        return f"{self.rng.choice(WORDS)}_{self.rng.choice(WORDS)}"

    def sentence(self) -> list[Span]:
        rng = self.rng
        spans: list[Span] = [("t", rng.choice(WORDS).capitalize())]
        for _ in range(rng.randint(7, 17)):
            roll = rng.random()
            if roll < 0.06:
                spans.append(("c", self.ident()))
            elif roll < 0.09:
                spans.append(("b", rng.choice(WORDS)))
            elif roll < 0.12:
                words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
                spans.append(("l", words, str(rng.randrange(self.total)), str(rng.random())))
            else:
                spans.append(("t", rng.choice(WORDS)))
        spans.append(("t", "."))
        return spans

    def paragraph(self) -> Block:
        spans: list[Span] = []
        for _ in range(self.rng.randint(2, 6)):
            spans += self.sentence()
        return ("p", spans)

    def heading(self, level: int, text: str | None = None) -> Block:
        text = text or _title(self.rng, self.rng.randint(2, 5))
        anchor = _unique(_slug(text), self.taken)
        if anchor != _slug(text):
            text = f"{text} {anchor.rsplit('-', 1)[1]}"
        self.page.anchors.append(anchor)
        return ("h", level, text, anchor)

    def code(self) -> Block:
        return ("code", *code_block(self.rng, self.rng.choice(LANGS)))

    def table(self) -> Block:
        rng = self.rng
        columns = rng.randint(3, 5)
        header = [[("t", rng.choice(WORDS).capitalize())] for _ in range(columns)]
        rows = [[[("c", self.ident())]] + [[("t", " ".join(rng.choice(WORDS)
                                                           for _ in range(rng.randint(1, 5))))]
                                            for _ in range(columns - 1)]
                for _ in range(rng.randint(3, 10))]
        return ("table", header, rows)

    def admonition(self) -> Block:
        body = [self.paragraph()] + ([self.code()] if self.rng.random() < 0.3 else [])
        return ("admon", self.rng.choice(ADMONITIONS), _title(self.rng, 3), body,
                self.rng.random() < 0.3)

    def tabs(self) -> Block:
        langs = self.rng.sample(LANGS, self.rng.randint(2, 3))
        return ("tabs", [(lang.capitalize(), *code_block(self.rng, lang)) for lang in langs])

    def bullets(self) -> Block:
        items = [self.sentence() for _ in range(self.rng.randint(3, 7))]
        return ("list", self.rng.random() < 0.4, items)

    def extra(self) -> Block:
        return self.rng.choice((self.code, self.code, self.table, self.admonition,
                                self.tabs, self.bullets))()

    def function(self, module: str) -> list[Block]:
        rng = self.rng
        name = self.ident()
        params = [(f"{rng.choice(WORDS)}_{i}", rng.choice(TYPES),
                   rng.choice(("", "", "None", str(rng.randint(1, 99)))),
                   " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 12))))
                  for i in range(rng.randint(1, 5))]
        heading = self.heading(2, name)
        self.page.functions.append((f"{module}.{name}", heading[3]))
        func = ("func", f"{module}.{name}", params, rng.choice(TYPES),
                " ".join(rng.choice(WORDS) for _ in range(8)))
        return [heading, func, self.paragraph(), self.code()]


def _size(blocks: list[Block]) -> int:
    return len(repr(blocks)) * 5 // 9  # about the rendered size, and cheap


def _fill(page: Page, total: int, seed: int) -> None:
    writer = _Writer(page, total, seed)
    blocks = page.blocks
    blocks.append(("h", 1, page.title, ""))
    blocks += [writer.paragraph() for _ in range(writer.rng.randint(1, 2))]
    target = writer.rng.randint(2000, 4000) if page.is_index else writer.rng.randint(4000, 11500)
    while _size(blocks) < target:
        if page.kind == "api":
            blocks += writer.function(page.title)
            continue
        blocks.append(writer.heading(2))
        blocks += [writer.paragraph() for _ in range(writer.rng.randint(1, 3))]
        blocks += [writer.extra() for _ in range(writer.rng.randint(1, 2))]
        if writer.rng.random() < 0.4:
            blocks += [writer.heading(3), writer.paragraph(), writer.extra()]


def _resolve(pages: list[Page]) -> None:
    """Turn drawn link numbers into stems and anchors; some links become API refs."""
    apis = [page for page in pages if page.functions]
    for page in pages:
        for block in page.blocks:
            for spans in _spans_of(block):
                for i, span in enumerate(spans):
                    if span[0] == "l":
                        spans[i] = _link(span, pages, apis)


def _spans_of(block: Block) -> list[list[Span]]:
    if block[0] == "p":
        return [block[1]]
    if block[0] == "list":
        return list(block[2])
    if block[0] == "admon":
        return [spans for inner in block[3] for spans in _spans_of(inner)]
    return []


def _link(span: Span, pages: list[Page], apis: list[Page]) -> Span:
    number, draw = int(span[2]), float(span[3])
    target = pages[number]
    if apis and draw < 0.25:
        api = apis[number % len(apis)]
        qualname, anchor = api.functions[int(draw * 4 * len(api.functions))]
        return ("f", qualname, api.stem, anchor)
    anchor = target.anchors[int(draw * len(target.anchors))] if target.anchors and draw < 0.6 \
        else ""
    return ("l", span[1], target.stem, anchor)


def plan_site(total: int, *, seed: int = 7) -> list[Page]:
    """``total`` pages in nav order, every one filled, every link resolved."""
    pages = _tree(total, random.Random(seed))
    children: dict[str, list[Page]] = {}
    for page in pages:
        _fill(page, total, seed)
        if page.parent:
            children.setdefault(page.parent, []).append(page)
    for page in pages:
        if page.stem in children:
            page.blocks.append(("children", [(c.stem, c.title) for c in children[page.stem]]))
    _resolve(pages)
    return pages
