"""The printed report and the JSON dump of a benchmark run."""

from __future__ import annotations

import dataclasses
import json
import statistics
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Sequence
    from pathlib import Path

    from .builds import BuiltSite
    from .measure import PageFigures

__all__ = [
    "print_builds", "print_goals", "print_structure", "print_table", "print_worst", "write_json",
]

RECALL_GOAL = 0.995
_COLUMNS = (
    ("build", 18), ("pages", 5), ("recall min", 10), ("med", 6), ("page min", 8),
    ("noise", 5), ("code", 7), ("lang", 7), ("tables", 13), ("headings", 8),
    ("links", 7), ("images", 6), ("md KiB", 6), ("~tokens", 7), ("md/html", 7),
)


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _pair(pages: Sequence[PageFigures], get: Callable[[Any], int]) -> str:
    return f"{sum(get(p.md) for p in pages)}/{sum(get(p.html) for p in pages)}"


def _tables(pages: Sequence[PageFigures]) -> str:
    raw = sum(p.md.raw_tables for p in pages)
    return _pair(pages, lambda s: s.tables) + (f" ({raw} raw)" if raw else "")


def _row(build: str, pages: Sequence[PageFigures]) -> list[str]:
    recalls = [p.recall for p in pages]
    page_recalls = [p.page_recall for p in pages if p.page_recall is not None]
    md_bytes = sum(p.md_bytes for p in pages)
    html_bytes = sum(p.html_bytes for p in pages) or 1
    return [
        build, str(len(pages)), _pct(min(recalls)), _pct(statistics.median(recalls)),
        _pct(min(page_recalls)) if page_recalls else "-",
        str(sum(p.noise for p in pages)),
        _pair(pages, lambda s: s.code), _pair(pages, lambda s: s.code_lang),
        _tables(pages), _pair(pages, lambda s: sum(s.headings.values())),
        _pair(pages, lambda s: s.links), _pair(pages, lambda s: s.images),
        f"{md_bytes / 1024:.1f}", str(sum(p.md_tokens for p in pages)),
        _pct(md_bytes / html_bytes),
    ]


def _line(cells: Sequence[str]) -> str:
    return "  ".join(cell.rjust(width) if i else cell.ljust(width)
                     for i, (cell, (_, width)) in enumerate(zip(cells, _COLUMNS, strict=True)))


def print_builds(sites: Sequence[BuiltSite]) -> None:
    """One line per build: pages found, or the error."""
    for site in sites:
        note = f" ({site.note})" if site.note else ""
        if site.error:
            print(f"build {site.build.name}{note}: FAILED\n    "
                  + site.error.replace("\n", "\n    "))
        else:
            print(f"build {site.build.name}{note}: {len(site.pages)} pages")
    print()


def print_table(figures: Sequence[PageFigures]) -> None:
    """Per build (theme): recall, noise, structure md/html, size."""
    print(_line([name for name, _ in _COLUMNS]))
    print(_line(["-" * width for _, width in _COLUMNS]))
    builds = dict.fromkeys(f.build for f in figures)
    for build in builds:
        pages = [f for f in figures if f.build == build and f.error is None]
        if pages:
            print(_line(_row(build, pages)))
    read = [f for f in figures if f.error is None]
    if read:
        print(_line(_row("ALL", read)))
    print("(code/lang/tables/... are Markdown/HTML counts; lang = code blocks with a language; "
          "raw = tables kept as HTML; "
          "page min = recall against the full page's content container; "
          "~tokens = Markdown bytes / 4; md/html = Markdown bytes / HTML page bytes)")
    for failed in (f for f in figures if f.error):
        print(f"  {failed.build}/{failed.page}: {failed.error}")
    print()


def _words(counted: list[tuple[str, int]]) -> str:
    return ", ".join(f"{word}×{n}" if n > 1 else word for word, n in counted) or "-"


def _grouped(pages: Sequence[PageFigures],
             key: Callable[[PageFigures], Hashable]) -> list[list[PageFigures]]:
    """Pages that show the same thing, together, in the order of their first page."""
    groups: dict[Hashable, list[PageFigures]] = {}
    for page in pages:
        groups.setdefault((page.page, key(page)), []).append(page)
    return list(groups.values())


def _names(group: list[PageFigures]) -> str:
    first, others = group[0], [f.build for f in group[1:]]
    return f"{first.build}/{first.page}" + (f" (same on {', '.join(others)})" if others else "")


def print_worst(figures: Sequence[PageFigures], count: int = 10) -> None:
    """The pages furthest from the goals, with what they miss and what they add."""
    read = [f for f in figures if f.error is None and (f.recall < 1 or f.noise)]
    ordered = sorted(read, key=lambda f: (f.recall, -f.noise))
    groups = _grouped(ordered, lambda f: (tuple(f.missing_runs), tuple(f.noise_runs)))[:count]
    print(f"The {len(groups)} worst pages (lowest recall, then most noise; "
          "identical results on several builds shown once):")
    for group in groups:
        f = group[0]
        print(f"\n{_names(group)}: recall {_pct(f.recall)} of {f.ref_words} words, "
              f"noise {f.noise}")
        print(f"  missing words: {_words(f.missing_top)}")
        for run in f.missing_runs[:5]:
            print(f"    missing: «{run}»")
        print(f"  noise words:   {_words(f.noise_top)}")
        for run in f.noise_runs[:5]:
            print(f"    noise:   «{run}»")
    print()


def _differences(f: PageFigures) -> tuple[str, ...]:
    found = []
    for label, md, html in (
        ("code blocks", f.md.code, f.html.code), ("tables", f.md.tables, f.html.tables),
        ("links", f.md.links, f.html.links), ("images", f.md.images, f.html.images),
        ("list items", f.md.list_items, f.html.list_items),
    ):
        if md != html:
            found.append(f"{label} {md}/{html}")
    if f.md.code_lang < f.html.code_lang:
        found.append(f"code blocks with a language {f.md.code_lang}/{f.html.code_lang}")
    if +f.md.headings != +f.html.headings:
        found.append(f"headings {dict(sorted(f.md.headings.items()))}"
                     f"/{dict(sorted(f.html.headings.items()))}")
    if f.md.raw_tables:
        found.append(f"{f.md.raw_tables} tables kept as raw HTML")
    return tuple(found)


def print_structure(figures: Sequence[PageFigures]) -> None:
    """Pages whose Markdown structure differs from the HTML's (Markdown/HTML)."""
    read = [f for f in figures if f.error is None and _differences(f)]
    print("Structure differences (Markdown/HTML):" if read else "Structure: no differences")
    for group in _grouped(read, _differences):
        print(f"  {_names(group)}: {'; '.join(_differences(group[0]))}")
    print()


def _failing(figures: Sequence[PageFigures], test: Callable[[PageFigures], bool]) -> list[str]:
    return [f"{f.build}/{f.page}" for f in figures if f.error is None and not test(f)]


def _goal(label: str, failing: list[str]) -> bool:
    state = "holds" if not failing else f"FAILS on {len(failing)} pages"
    shown = ", ".join(failing[:6]) + (" …" if len(failing) > 6 else "")
    mark = "[x]" if not failing else "[ ]"
    print(f"  {mark} {label}: {state}" + (f" ({shown})" if shown else ""))
    return not failing


def print_goals(figures: Sequence[PageFigures], sites: Sequence[BuiltSite]) -> bool:
    """Whether each goal holds on every page; True when all do."""
    print("Goals:")
    broken = [link for f in figures for link in f.broken_links]
    results = [
        _goal(f"recall >= {100 * RECALL_GOAL:.1f}% on every page",
              _failing(figures, lambda f: f.recall >= RECALL_GOAL)),
        _goal("noise 0", _failing(figures, lambda f: f.noise == 0)),
        _goal("every code block, with its language",
              _failing(figures, lambda f: f.md.code == f.html.code
                       and f.md.code_lang >= f.html.code_lang)),
        _goal("every table as a table", _failing(figures, lambda f: f.md.tables == f.html.tables)),
        _goal("every heading at its level",
              _failing(figures, lambda f: +f.md.headings == +f.html.headings)),
        _goal("every link to a .md on the site resolves",
              [f"{f.build}/{f.page}: {link}" for f in figures for link in f.broken_links]),
        _goal("every page read", [f"{f.build}/{f.page}" for f in figures if f.error]
              + [s.build.name for s in sites if s.error]),
    ]
    checked = sum(f.view_links for f in figures)
    print(f"  ({checked} links to agent views checked; {len(broken)} broken)")
    _info("links to a page of the site, not to its agent view",
          [link for f in figures for link in f.links_to_pages])
    _info("relative links", [link for f in figures for link in f.relative_links])
    return all(results)


def _info(label: str, links: list[str]) -> None:
    if links:
        print(f"  note: {len(links)} {label}, e.g. {', '.join(sorted(set(links))[:3])}")


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(item) for item in value]
    return value


def write_json(path: Path, figures: Sequence[PageFigures], sites: Sequence[BuiltSite]) -> None:
    """Every per-page figure, and each build's outcome, as JSON."""
    builds = [{"build": s.build.name, "tool": s.build.tool, "theme": s.build.theme,
               "note": s.note, "error": s.error, "pages": len(s.pages)} for s in sites]
    data = {"builds": builds, "pages": [_jsonable(f) for f in figures]}
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
