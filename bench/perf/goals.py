"""Issue 7's goals, checked against a run's figures: [x] met, [ ] not met or not measured."""

from __future__ import annotations

from typing import TYPE_CHECKING

from report import TITLES, hook_scaling, scaling
from variants import is_mkdocs

if TYPE_CHECKING:
    from report import Results

__all__ = ["print_goals"]

GOAL_PAGES = 1000


def _mark(ok: bool | None) -> str:
    return "[x]" if ok else "[ ]"


def _ratio_goal(results: Results, key: tuple[str, int, int, str, str], what: str,
                limit: float) -> tuple[bool | None, str]:
    value = results.ratio(key, what)
    if value is None:
        return None, "not measured"
    return value <= limit, f"{value:.3f} (≤ {limit:.2f})"


def _at(results: Results, kind: str) -> tuple[int | None, str]:
    """The size the goals are judged at: 1,000, else the largest measured (said so)."""
    sizes = sorted({k[1] for k in results.samples if k[0] == kind})
    if GOAL_PAGES in sizes:
        return GOAL_PAGES, ""
    if not sizes:
        return None, ""
    return sizes[-1], f" [at {sizes[-1]:,} pages: the goal is at {GOAL_PAGES:,}]"


def _lines(results: Results) -> list[tuple[bool | None, str]]:
    lines: list[tuple[bool | None, str]] = []
    for kind in results.variants:
        pages, note = _at(results, kind)
        if pages is None:
            continue
        jobs = sorted({k[2] for k in results.samples if k[0] == kind and k[1] == pages})
        for j in jobs:
            key = (kind, pages, j, "cold", "agentprose")
            for what, limit in (("wall", 1.10), ("cpu", 1.15)):
                ok, text = _ratio_goal(results, key, what, limit)
                lines.append((ok, f"{TITLES[kind]} cold -j {j}: {what} {text}{note}"))
            ok, text = _ratio_goal(results, key, "rss", 1.15)
            lines.append((ok, f"{TITLES[kind]} cold -j {j}: peak memory {text}{note}"))
            ok, text = _ratio_goal(results, (kind, pages, j, "rebuild", "agentprose"),
                                   "wall", 1.03)
            mode = "serve reload" if is_mkdocs(kind) else "incremental build"
            lines.append((ok, f"{TITLES[kind]} {mode} -j {j}: wall {text}{note}"))
    for kind in results.variants:
        sizes = sorted({k[1] for k in results.samples if k[0] == kind})
        ratio, _ = scaling(results, kind)
        direct, _ = hook_scaling(results, kind)
        if sizes[:1] == [200] and sizes[-1:] == [5000] and direct is not None:
            text = (f"our time per page at 5,000 / at 200 (the largest of the hooks' and "
                    f"the worker's ratios above) = {direct:.2f} (≤ 1.20)")
            lines.append((direct <= 1.2, f"{TITLES[kind]} scaling: {text}"))
        if sizes[:1] == [200] and sizes[-1:] == [5000]:
            text = (f"added CPU per page at 5,000 / at 200 = {ratio:.2f} (≤ 1.20)"
                    if ratio is not None else "added CPU per page not measurable (at one size "
                    "the build with agentprose took less CPU than the bare one: noise)")
            lines.append((ratio <= 1.2 if ratio is not None else None,
                          f"{TITLES[kind]} scaling: {text}"))
        if not (sizes[:1] == [200] and sizes[-1:] == [5000]):
            ran = ", ".join(f"{s:,}" for s in sizes)
            text = f"not measured (needs sizes 200 and 5,000; ran {ran})"
            lines.append((None, f"{TITLES[kind]} scaling: {text}"))
    cli = results.cli
    if cli:
        note = "" if cli["pages"] == GOAL_PAGES else \
            f" [at {cli['pages']:,.0f} pages: the goal is at {GOAL_PAGES:,}]"
        lines.append((cli["rate"] >= 150, f"CLI: {cli['rate']:.0f} pages/s (≥ 150){note}"))
    else:
        lines.append((None, "CLI: not measured"))
    return lines


def print_goals(results: Results) -> None:
    print("\n## Goals (agentprose, default engine)\n")
    for ok, text in _lines(results):
        print(f"{_mark(ok)} {text}")
    if "mkdocs" in results.variants:
        print("(MkDocs builds serially, it has no -j: its goals are for the serial build.)")
