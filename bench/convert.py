"""Per-page cost of normalize + convert + front matter, both engines side by side.

Runs on every content fragment under tests/fixtures/fragments and tests/golden. Prints
median and mean milliseconds per page for each engine, and their ratio, measured in
one run with the engines interleaved page by page.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from agentprose_core.convert import convert_fragment
from agentprose_core.frontmatter import render_view
from agentprose_core.model import PageRecord
from agentprose_core.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
SITE = "https://docs.example.org/proj/"
ENGINES = ("html-to-markdown", "markdownify")
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 20


def _fragments() -> list[Path]:
    found = sorted((ROOT / "tests" / "fixtures" / "fragments").rglob("*.html"))
    return found + sorted((ROOT / "tests" / "golden").rglob("*.html"))


def _one(fragment: str, engine: str) -> float:
    start = time.perf_counter()
    result = convert_fragment(fragment, page_url=SITE + "page/", site_map={},
                              settings=Settings(converter=engine))  # type: ignore[arg-type]
    render_view(PageRecord(url=SITE + "page/", markdown_url=SITE + "page.md", title="T",
                           modified="2026-01-01T00:00:00Z", markdown=result.markdown))
    return (time.perf_counter() - start) * 1000


def main() -> None:
    pages = [(p, p.read_text(encoding="utf-8")) for p in _fragments()]
    timings: dict[str, list[float]] = {engine: [] for engine in ENGINES}
    for _, text in pages:  # warm-up: imports, compiled selectors
        for engine in ENGINES:
            _one(text, engine)
    for _ in range(ROUNDS):
        for _, text in pages:
            for engine in ENGINES:
                timings[engine].append(_one(text, engine))
    size = statistics.mean(len(text.encode()) for _, text in pages) / 1024
    print(f"{len(pages)} fragments (mean {size:.1f} KiB), {ROUNDS} rounds, engines interleaved")
    print(f"{'engine':<18} {'median ms':>10} {'mean ms':>9} {'p95 ms':>8}")
    for engine in ENGINES:
        values = sorted(timings[engine])
        p95 = values[int(len(values) * 0.95)]
        print(f"{engine:<18} {statistics.median(values):>10.2f} "
              f"{statistics.mean(values):>9.2f} {p95:>8.2f}")
    ratio = statistics.median(timings["markdownify"]) / statistics.median(
        timings["html-to-markdown"])
    print(f"markdownify / html-to-markdown (median): {ratio:.1f}x")


if __name__ == "__main__":
    main()
