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

from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.model import PageRecord
from agentprose_core.render.view import render_view
from agentprose_core.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
SITE = "https://docs.example.org/proj/"
ENGINES = ("html-to-markdown", "markdownify")
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 20


def _fragments() -> list[tuple[str, str]]:
    """Every fixture fragment, plus 10–20 KiB pages made of one theme's fragments."""
    found = sorted((ROOT / "tests" / "fixtures" / "fragments").rglob("*.html"))
    found += sorted((ROOT / "tests" / "golden").rglob("*.html"))
    pages = [(p.name, p.read_text(encoding="utf-8")) for p in found]
    for theme in sorted({p.parent.name for p in found if "fixtures" in p.parts}):
        texts = [p.read_text(encoding="utf-8") for p in found if p.parent.name == theme]
        combined = ""
        for text in texts:
            combined += text
            if len(combined.encode()) >= 10 * 1024:
                pages.append((f"{theme}-combined", combined))
                combined = ""
    return pages


def _one(fragment: str, engine: str) -> float:
    start = time.perf_counter()
    result = convert_fragment(fragment, page_url=SITE + "page/", site_map={},
                              settings=Settings(converter=engine))  # type: ignore[arg-type]
    render_view(PageRecord(url=SITE + "page/", markdown_url=SITE + "page.md", title="T",
                           modified="2026-01-01T00:00:00Z", markdown=result.markdown))
    return (time.perf_counter() - start) * 1000


def main() -> None:
    pages = _fragments()
    buckets = {"< 10 KiB": lambda kib: kib < 10, "10-20 KiB": lambda kib: 10 <= kib <= 20,
               "> 20 KiB": lambda kib: kib > 20}
    timings: dict[tuple[str, str], list[float]] = {}
    for _, text in pages:  # warm-up: imports, compiled selectors
        for engine in ENGINES:
            _one(text, engine)
    for _ in range(ROUNDS):
        for _, text in pages:
            kib = len(text.encode()) / 1024
            bucket = next(name for name, test in buckets.items() if test(kib))
            for engine in ENGINES:
                for key in ((engine, "all"), (engine, bucket)):
                    timings.setdefault(key, []).append(_one(text, engine) if key[1] == "all"
                                                       else timings[(engine, "all")][-1])
    size = statistics.mean(len(text.encode()) for _, text in pages) / 1024
    print(f"{len(pages)} content fragments (mean {size:.1f} KiB), {ROUNDS} rounds, "
          "engines interleaved; ms per page for normalize + convert + front matter")
    print(f"{'engine':<18} {'pages':<10} {'n':>4} {'median':>8} {'mean':>8} {'p95':>8}")
    for engine in ENGINES:
        for bucket in ("all", *buckets):
            values = sorted(timings.get((engine, bucket), []))
            if not values:
                continue
            p95 = values[int(len(values) * 0.95)]
            print(f"{engine:<18} {bucket:<10} {len(values) // ROUNDS:>4} "
                  f"{statistics.median(values):>8.2f} {statistics.mean(values):>8.2f} "
                  f"{p95:>8.2f}")
    ratio = statistics.median(timings[("markdownify", "all")]) / statistics.median(
        timings[("html-to-markdown", "all")])
    print(f"markdownify / html-to-markdown (median, all pages): {ratio:.1f}x")


if __name__ == "__main__":
    main()
