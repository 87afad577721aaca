"""Per-page figures: recall, noise, structure, size and links of one agent view.

- recall: total size of ``difflib.SequenceMatcher(None, ref, md, autojunk=False)
  .get_matching_blocks()`` over ``len(ref)``; ``ref`` are the reference words (the
  captured fragment, else the theme's content container), ``md`` the view's words;
- noise: view words outside that matching;
- page recall: the same recall against the theme's content container of the full
  page (what a reader of the page sees), for information;
- tokens: Markdown bytes / 4, an estimate.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import TYPE_CHECKING
from urllib.parse import urldefrag

from .htmltext import Rules, Structure, container, parse_fragment, structure_of, visible_text
from .htmltext import words_of as _words
from .mdtext import read_view
from .sources import source_languages

if TYPE_CHECKING:
    from lxml.html import HtmlElement

    from .builds import BuiltPage, BuiltSite

__all__ = ["Comparison", "PageFigures", "compare", "measure_site"]

_RUNS = 8  # gaps kept per page, in reading order
_RUN_WORDS = 12  # words kept per gap


@dataclass
class Comparison:
    """Reference words against view words."""

    recall: float
    matched: int
    missing: Counter[str] = field(default_factory=Counter)
    noise: Counter[str] = field(default_factory=Counter)
    missing_runs: list[str] = field(default_factory=list)
    noise_runs: list[str] = field(default_factory=list)


@dataclass
class PageFigures:
    """Everything measured on one page of one build."""

    build: str
    tool: str
    theme: str
    page: str
    reference: str = "fragment"
    error: str | None = None
    ref_words: int = 0
    md_words: int = 0
    recall: float = 0.0
    page_recall: float | None = None
    noise: int = 0
    missing_top: list[tuple[str, int]] = field(default_factory=list)
    noise_top: list[tuple[str, int]] = field(default_factory=list)
    missing_runs: list[str] = field(default_factory=list)
    noise_runs: list[str] = field(default_factory=list)
    html: Structure = field(default_factory=Structure)
    md: Structure = field(default_factory=Structure)
    md_bytes: int = 0
    md_tokens: int = 0
    html_bytes: int = 0
    view_links: int = 0
    broken_links: list[str] = field(default_factory=list)
    links_to_pages: list[str] = field(default_factory=list)
    relative_links: list[str] = field(default_factory=list)


def _run(words: list[str]) -> str:
    more = " …" if len(words) > _RUN_WORDS else ""
    return " ".join(words[:_RUN_WORDS]) + more


def compare(ref: list[str], md: list[str]) -> Comparison:
    """Recall of ``ref`` in ``md`` and what is left over on either side."""
    matcher = SequenceMatcher(None, ref, md, autojunk=False)
    result = Comparison(recall=1.0 if not ref else 0.0, matched=0)
    ref_at = md_at = 0
    for block in matcher.get_matching_blocks():
        lost, extra = ref[ref_at:block.a], md[md_at:block.b]
        result.missing.update(lost)
        result.noise.update(extra)
        if lost and len(result.missing_runs) < _RUNS:
            result.missing_runs.append(_run(lost))
        if extra and len(result.noise_runs) < _RUNS:
            result.noise_runs.append(_run(extra))
        result.matched += block.size
        ref_at, md_at = block.a + block.size, block.b + block.size
    if ref:
        result.recall = result.matched / len(ref)
    return result


def _reference(page: BuiltPage, full: str, selector: str) -> tuple[str, HtmlElement | None]:
    if page.fragment is not None:
        return "fragment", parse_fragment(page.fragment)
    return "container", container(full, selector)


def _classify_links(figures: PageFigures, links: list[str], site: BuiltSite) -> None:
    base = site.build.base_url
    for link in links:
        target, _ = urldefrag(link)
        if target.startswith(base):
            rest = target[len(base):]
            figures.view_links += rest.endswith(".md")
            if rest.endswith(".md") and not (site.site_dir / rest).is_file():
                figures.broken_links.append(link)
            elif not rest or rest.endswith((".html", "/")):
                figures.links_to_pages.append(link)
        elif link and "://" not in link and not link.startswith(("#", "mailto:", "data:")):
            figures.relative_links.append(link)


def _measure_words(figures: PageFigures, ref: list[str], md: list[str]) -> None:
    result = compare(ref, md)
    figures.ref_words, figures.md_words = len(ref), len(md)
    figures.recall = result.recall
    figures.noise = sum(result.noise.values())
    figures.missing_top = result.missing.most_common(8)
    figures.noise_top = result.noise.most_common(8)
    figures.missing_runs, figures.noise_runs = result.missing_runs, result.noise_runs


def measure_page(page: BuiltPage, site: BuiltSite) -> PageFigures:
    """Every figure of one page; ``error`` says what could not be read."""
    build = site.build
    figures = PageFigures(build.name, build.tool, build.theme, page.name)
    if not page.view_path.is_file():
        figures.error = f"no agent view at {page.view_path.name}"
        return figures
    full = page.html_path.read_text(encoding="utf-8")
    markdown = page.view_path.read_text(encoding="utf-8")
    figures.reference, root = _reference(page, full, build.container)
    if root is None:
        figures.error = f"no {build.container} in the page"
        return figures
    # Annotation markers stay: "(1)" in the static HTML ties a code line to its note,
    # and the view keeps both, so an agent can follow the reference.
    rules = Rules(material_annotations=False)
    view = read_view(markdown)
    md_words = _words(view.text)
    _measure_words(figures, _words(visible_text(root, rules)), md_words)
    page_root = container(full, build.container)
    if page_root is not None:
        figures.page_recall = compare(_words(visible_text(page_root, rules)), md_words).recall
    figures.html, figures.md = structure_of(root), view.structure
    figures.html.code_lang = max(figures.html.code_lang, source_languages(page.source))
    figures.md_bytes = len(markdown.encode("utf-8"))
    figures.md_tokens = figures.md_bytes // 4
    figures.html_bytes = len(full.encode("utf-8"))
    _classify_links(figures, view.links, site)
    return figures


def measure_site(site: BuiltSite) -> list[PageFigures]:
    """The figures of every page of a built site."""
    return [measure_page(page, site) for page in site.pages]

