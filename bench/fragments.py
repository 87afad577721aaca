"""Conversion cost and output of two agentprose trees on the pages of built sites.

For changes on the page path: each page of the given built sites (any tool's output
folders, e.g. bench/realworld's ``.builds/<site>/timing-bare``) is read as
``agentprose build`` reads it, its content taken as the fragment a plugin converts,
and converted by this checkout and by ``--base`` (another checkout, e.g. a ``git
worktree`` of main), each in a process of its own, the two alternating. Prints, per
site, the sum over pages of each page's fastest conversion, the ratio, and the pages
whose Markdown, headings or diagnostics differ (a change meant to be faster must
leave them at 0).

    python bench/fragments.py SITE_DIR [SITE_DIR ...] --base OTHER_CHECKOUT
                              [--rounds 3] [--runs 3] [--instructions]

``--instructions`` counts instead of timing: each tree converts every page once under
valgrind (cachegrind, no cache simulation), and a run that converts no page is taken
off (imports, start-up). The counts are the same from run to run, where this VM's
timings move by ±15 % within the hour; they miss what a change does to caches and
branches, so read both.

A measurement: exits 0 whatever it finds (2 on bad usage).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SITE = "https://bench.example/site/"


def _pages(site_dir: Path, tree: Path) -> list[tuple[str, str]]:
    """(page URL, content fragment) of every page of a built site that gets a view, as
    ``tree`` reads them (the base: a change to how pages are read must not change what
    both trees are given), in a process of its own."""
    done = subprocess.run([sys.executable, __file__, "--extract", str(tree), str(site_dir)],
                          capture_output=True, text=True, check=True)
    return [(url, fragment) for url, fragment in json.loads(done.stdout.splitlines()[-1])]


def _extract(tree: str, site_dir: Path) -> None:
    """In a process whose ``agentprose_core`` is ``tree``'s: :func:`_pages`, as JSON."""
    sys.path.insert(0, tree)
    from agentprose_core.convert.tree import to_html
    from agentprose_core.extract.page import decode, has_view, parse_page, without_large_navs

    found = []
    for page in sorted(site_dir.rglob("*.html")):
        relative = page.relative_to(site_dir).as_posix()
        url = SITE + relative
        extracted = parse_page(without_large_navs(decode(page.read_bytes())), url=url)
        if has_view(extracted) and extracted.content is not None:
            found.append((url, to_html(extracted.content)))
    print(json.dumps(found))


def _child(tree: str, pages_file: str, rounds: int) -> None:
    """In a process whose ``agentprose_core`` is ``tree``'s: each page's fastest
    conversion and its output, as JSON on stdout."""
    import time

    sys.path.insert(0, tree)
    from agentprose_core.convert.fragment import available_engine, convert_fragment
    from agentprose_core.settings import Settings

    pages = json.loads(Path(pages_file).read_text(encoding="utf-8"))
    settings, site_map = Settings(), {}
    available_engine(settings.converter)  # loaded before any page, as a worker does
    best, outputs = [float("inf")] * len(pages), []
    for round_ in range(rounds + 1):  # the first round warms up
        for number, (url, fragment) in enumerate(pages):
            start = time.perf_counter()
            done = convert_fragment(fragment, page_url=url, site_map=site_map,
                                    settings=settings)
            if round_:
                best[number] = min(best[number], time.perf_counter() - start)
            else:
                outputs.append([done.markdown, [[h.level, h.id, h.title] for h in done.headings],
                                [str(d) for d in done.diagnostics]])
    print(json.dumps({"seconds": sum(best), "outputs": outputs}))


def _run(tree: Path, pages_file: Path, rounds: int) -> dict[str, object]:
    done = subprocess.run([sys.executable, __file__, "--child", str(tree), str(pages_file),
                           str(rounds)], capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


_INSTRUCTIONS = re.compile(r"I\s+refs:\s+([\d,]+)")


def _counted(tree: Path, pages_file: Path) -> tuple[int, dict[str, object]]:
    """The instructions of one process that converts every page once, and its output."""
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, __file__, "--child", str(tree), str(pages_file), "0"],
        capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = _INSTRUCTIONS.search(done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's report:\n{done.stderr[-2000:]}")
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return int(found.group(1).replace(",", "")), result


def _instructions(trees: dict[str, Path], pages_file: Path,
                  empty_file: Path) -> tuple[dict[str, float], dict[str, object]]:
    """Millions of instructions each tree spends on the pages, and its outputs."""
    counts, outputs = {}, {}
    for name, tree in trees.items():
        total, result = _counted(tree, pages_file)
        start, _ = _counted(tree, empty_file)
        counts[name], outputs[name] = (total - start) / 1e6, result["outputs"]
    return counts, outputs


def _timed(trees: dict[str, Path], pages_file: Path, rounds: int,
           runs: int) -> tuple[dict[str, float], dict[str, object]]:
    """Each tree's fastest sum of conversions in milliseconds, and its outputs."""
    times: dict[str, list[float]] = {name: [] for name in trees}
    outputs: dict[str, object] = {}
    for run in range(runs):
        order = list(trees.items())
        for name, tree in order if run % 2 == 0 else order[::-1]:
            result = _run(tree, pages_file, rounds)
            times[name].append(float(str(result["seconds"])) * 1000)
            outputs[name] = result["outputs"]
    return {name: min(found) for name, found in times.items()}, outputs


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return 0
    if len(sys.argv) > 1 and sys.argv[1] == "--extract":
        _extract(sys.argv[2], Path(sys.argv[3]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", type=Path, nargs="+", help="built site folders")
    parser.add_argument("--base", type=Path, required=True, help="the checkout to compare")
    parser.add_argument("--rounds", type=int, default=3, help="conversions per process")
    parser.add_argument("--runs", type=int, default=3, help="processes per tree")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under valgrind instead of timing")
    args = parser.parse_args()
    here, base = HERE.parent, args.base.resolve()
    if not (base / "agentprose_core").is_dir():
        parser.error(f"--base {base} holds no agentprose_core: give an agentprose checkout")
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions needs valgrind on the PATH (apt install valgrind)")
    import tempfile

    unit = "M instructions" if args.instructions else "ms"
    print(f"| site | pages | base {unit} | this {unit} | ratio | pages that differ |")
    print("|---|---|---|---|---|---|")
    trees = {"base": base, "this": here}
    for site_dir in args.sites:
        pages = _pages(site_dir, base)
        with tempfile.TemporaryDirectory() as scratch:
            pages_file, empty_file = Path(scratch) / "pages.json", Path(scratch) / "none.json"
            pages_file.write_text(json.dumps(pages), encoding="utf-8")
            empty_file.write_text("[]", encoding="utf-8")
            if args.instructions:
                figures, outputs = _instructions(trees, pages_file, empty_file)
            else:
                figures, outputs = _timed(trees, pages_file, args.rounds, args.runs)
        base_outputs, these = outputs["base"], outputs["this"]
        assert isinstance(base_outputs, list)
        assert isinstance(these, list)
        differ = sum(a != b for a, b in zip(base_outputs, these, strict=True))
        b, t = figures["base"], figures["this"]
        print(f"| {site_dir} | {len(pages)} | {b:.0f} | {t:.0f} | {t / b:.3f} | {differ} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
