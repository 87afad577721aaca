"""Tables, the scaling figure, the CLI figure and the goals, from the samples of a run."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from measure import Sample

__all__ = ["Results", "print_report"]

Key = tuple[str, int, int, str, str]  # kind, pages, jobs, mode, variant
TITLES = {"mkdocs": "MkDocs + Material", "sphinx": "Sphinx + Furo",
          "sphinx-basic": "Sphinx + basic theme", "mkdocs-plain": "MkDocs + a plain theme"}
MODES = {"mkdocs": {"cold": "cold (mkdocs build)", "rebuild": "reload (mkdocs serve)"},
         "sphinx": {"cold": "cold", "rebuild": "incremental (1 page)"},
         "sphinx-basic": {"cold": "cold", "rebuild": "incremental (1 page)"}}
MODES["mkdocs-plain"] = MODES["mkdocs"]
SHORT = {"bare": "bare", "agentprose": "agentprose", "agentprose-markdownify": "ap-markdownify",
         "agentprose-inprocess": "ap-in-process",
         "mkdocs-llmstxt": "mkdocs-llmstxt", "sphinx-llm": "sphinx-llm"}


@dataclass
class Results:
    samples: dict[Key, list[Sample]] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)  # variant -> why not measured
    variants: dict[str, list[str]] = field(default_factory=dict)  # kind -> names, bare first
    cli: dict[str, float] = field(default_factory=dict)  # pages, walls...
    cli_walls: list[float] = field(default_factory=list)
    rounds: dict[tuple[str, int], int] = field(default_factory=dict)
    quick: bool = False
    competitor_rounds: int = 0  # rounds a competitor ran in, when not all of them

    def add(self, key: Key, sample: Sample) -> None:
        self.samples.setdefault(key, []).append(sample)

    def good(self, key: Key) -> list[Sample] | None:
        found = self.samples.get(key)
        return found if found and not any(s.error for s in found) else None

    def median(self, key: Key, what: str = "wall") -> float | None:
        found = self.good(key)
        return statistics.median(getattr(s, what) for s in found) if found else None

    def ratio(self, key: Key, what: str = "wall") -> float | None:
        """Median of the per-round ratios to the bare build of the same round."""
        ours, bare = self.good(key), self.good((*key[:4], "bare"))
        if not ours or not bare:
            return None
        return statistics.median(getattr(a, what) / getattr(b, what)
                                 for a, b in zip(ours, bare, strict=False) if getattr(b, what))

    def rows(self, kind: str) -> list[tuple[int, int, str]]:
        return sorted({(k[1], k[2], k[3]) for k in self.samples if k[0] == kind},
                      key=lambda row: (row[0], row[1], row[2] != "cold"))


def _f(value: float | None, spec: str) -> str:
    return "—" if value is None else format(value, spec)


def _spread(found: list[Sample] | None) -> str:
    if not found or len(found) < 2:
        return "—"
    walls = [s.wall for s in found]
    return f"{(max(walls) - min(walls)) / statistics.median(walls) * 100:.0f}%"


def _cells(results: Results, key: Key) -> list[str]:
    if key[4] in results.missing:
        return [results.missing[key[4]].split(":")[0], "", "", ""]
    found = results.samples.get(key)
    if found and any(s.error for s in found):
        return ["failed", "", "", ""]
    return [_f(results.median(key), ".2f"), _f(results.ratio(key), ".3f"),
            _f(results.ratio(key, "cpu"), ".3f"), _f(results.ratio(key, "rss"), ".3f")]


def _table(results: Results, kind: str) -> None:
    names = [n for n in results.variants.get(kind, []) if n != "bare"]
    header = ["pages", "-j", "mode", "bare s", "spread", "bare MiB"]
    for name in names:
        header += [f"{SHORT[name]} s", "×wall", "×cpu", "×rss"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for pages, jobs, mode in results.rows(kind):
        bare = (kind, pages, jobs, mode, "bare")
        rss = results.median(bare, "rss")
        row = [f"{pages:,}", str(jobs), MODES[kind][mode], _f(results.median(bare), ".2f"),
               _spread(results.good(bare)), _f(rss / 1024 if rss else None, ".0f")]
        for name in names:
            row += _cells(results, (kind, pages, jobs, mode, name))
        print("| " + " | ".join(row) + " |")
    for name in names:
        if name in results.missing:
            print(f"{name}: {results.missing[name]}")


def _added(results: Results, kind: str, pages: int, what: str) -> float | None:
    ours = results.median((kind, pages, 1, "cold", "agentprose"), what)
    bare = results.median((kind, pages, 1, "cold", "bare"), what)
    return None if ours is None or bare is None else (ours - bare) / pages * 1000


def hooks_per_page(results: Results, key: Key, what: str = "hooks") -> float | None:
    """Median ms per page inside agentprose's hooks or handlers (measured by the
    drivers: every MkDocs build, serial Sphinx builds); with ``what="child_cpu"``, the
    CPU of Sphinx's child processes (agentprose's worker, git) per page."""
    found = results.good(key)
    times = [getattr(s, what) for s in found or () if getattr(s, what, None) is not None]
    return statistics.median(times) / key[1] * 1000 if times else None


def _hook_rows(results: Results) -> list[str]:
    lines = []
    for key in sorted(results.samples):
        value = hooks_per_page(results, key)
        if value is not None:
            mode = MODES[key[0]][key[3]]
            child = hooks_per_page(results, key, "child_cpu")
            also = f", + {child:.2f} ms/page CPU in its child processes" if child else ""
            lines.append(f"{TITLES[key[0]]}, {key[1]:,} pages, {mode}, {SHORT[key[4]]}: "
                         f"{value:.2f} ms/page{also}")
    return lines


def hook_scaling(results: Results, kind: str) -> tuple[float | None, str]:
    """Hook ms/page at the largest size over that at the smallest, cold builds, for the
    default variant (the time the build waits for us) and, for Sphinx, the worker's CPU
    per page, and for the in-process variant when it ran (all of our work is then
    inside the hooks). The ratio returned is the largest of them."""
    sizes = sorted({k[1] for k in results.samples if k[0] == kind})
    if len(sizes) < 2:
        return None, ""
    ratios, lines = [], []
    for variant, what, label in (("agentprose", "hooks", "time in agentprose's hooks"),
                                 ("agentprose", "child_cpu", "CPU of the child processes"),
                                 ("agentprose-inprocess", "hooks", "time in agentprose's hooks")):
        low, high = (hooks_per_page(results, (kind, size, 1, "cold", variant), what)
                     for size in (sizes[0], sizes[-1]))
        if low and high is not None:
            ratios.append(high / low)
            lines.append(f"{TITLES[kind]}: {label} per page ({SHORT[variant]}, cold) at "
                         f"{sizes[0]:,}: {low:.2f} ms, at {sizes[-1]:,}: {high:.2f} ms; "
                         f"ratio {high / low:.2f}")
    return (max(ratios) if ratios else None), "\n".join(lines)


def scaling(results: Results, kind: str) -> tuple[float | None, str]:
    """Added CPU ms/page at the largest size over that at the smallest, and a line."""
    sizes = sorted({k[1] for k in results.samples if k[0] == kind})
    parts = [f"{size:,}: {_f(_added(results, kind, size, 'wall'), '.1f')} ms wall, "
             f"{_f(_added(results, kind, size, 'cpu'), '.1f')} ms CPU" for size in sizes]
    ratio = None
    if len(sizes) > 1:
        low, high = _added(results, kind, sizes[0], "cpu"), _added(results, kind, sizes[-1], "cpu")
        # Below zero, a build with agentprose took less than the bare one: noise, no ratio.
        ratio = high / low if low and high and low > 0 and high > 0 else None
        parts.append(f"CPU ratio {sizes[-1]:,} vs {sizes[0]:,}: {_f(ratio, '.2f')}")
    return ratio, f"{TITLES[kind]}: added per page (cold, serial) at " + "; ".join(parts)


def print_report(results: Results) -> None:
    for kind in results.variants:
        rounds = ", ".join(f"{pages:,} pages: {n}" for (k, pages), n in results.rounds.items()
                           if k == kind)
        print(f"\n## {TITLES[kind]} (rounds: {rounds})\n")
        _table(results, kind)
    print("\nCells: median wall seconds of the interleaved rounds; ×wall, ×cpu, ×rss: median"
          " of each round's ratio to that round's bare build. spread: (max − min) / median"
          " of the bare walls. MiB: peak RSS of the largest process of the build."
          + (f" The competitors ran in the first {results.competitor_rounds} rounds only."
             if results.competitor_rounds else ""))
    hooks = _hook_rows(results)
    if hooks:
        print("\n## Inside agentprose's hooks (measured in the build process)\n")
        print("\n".join(hooks))
    print("\n## Scaling\n")
    for kind in results.variants:
        print(scaling(results, kind)[1])
        direct = hook_scaling(results, kind)[1]
        if direct:
            print(direct)
    print("\n## CLI\n")
    if results.cli:
        print(f"agentprose build on a built {results.cli['pages']:,.0f}-page Material site: "
              f"median {results.cli['wall']:.2f} s, {results.cli['rate']:.0f} pages/s "
              f"(walls: {', '.join(f'{w:.2f}' for w in results.cli_walls)})")
    else:
        print("not measured")
