"""Cold Sphinx builds of one site, bare and with a variant at the same time, one per CPU.

A 1,000-page Furo build takes a quarter of an hour here, and over that time the VM's
speed drifts by more than the cost we look for: two bare builds one after the other
have differed by 10 %. ``perf.py``'s interleaved rounds then measure the drift. Built
at the same time, the bare build and the variant see the same drift, and what differs
is what the variant adds. Each build is slowed by the other (they share the caches and
the memory bus), so the walls are not those of a build alone: the ratios are the
figure. The variant's worker (a serial build of more than 16 pages) shares the two
CPUs with both builds: what it costs is in ``×cpu``; the CPU it would have to itself
in a build alone is not in ``×wall``, which is why ``perf.py`` stays the measure of
the goals and this is the check of a figure it leaves in doubt.

    python bench/paired.py [--kind sphinx] [--pages 1000] [--rounds 2]
                           [--variant agentprose] [--jobs 1]

Prints one line per round and the medians: walls, ``×wall``, ``×cpu`` (each build's
whole process tree), and ``×sphinx``: the CPU of Sphinx's own process alone, which
is what a worker could slow down. Cold builds only: a rebuild is over in seconds,
less than it takes to start the worker. Exits 1 when a build fails.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent / "perf"))

from benchenv import child_env, ensure_env  # noqa: E402
from measure import Sample, driver_figure, run_measured, sphinx_command  # noqa: E402
from sitegen import SPHINX_THEMES, git_commit, write_sphinx_site  # noqa: E402
from variants import Variant, variants_for  # noqa: E402


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", default="sphinx", choices=sorted(SPHINX_THEMES))
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--variant", default="agentprose")
    parser.add_argument("--jobs", type=int, default=1, help="sphinx-build -j")
    arguments = parser.parse_args()
    names = [v.name for v in variants_for(arguments.kind, [arguments.variant])]
    if arguments.variant not in names or arguments.variant == "bare":
        parser.error(f"--variant: one of {', '.join(sorted(set(names) - {'bare'}))}")
    return arguments


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class Pair:
    """Two builds of one site started together; their samples and Sphinx's own CPU."""

    def __init__(self, python: Path, root: Path, configs: dict[str, Path], jobs: int) -> None:
        self.python, self.root, self.configs, self.jobs = python, root, configs, jobs
        self.samples: dict[str, Sample] = {}
        self.own_cpu: dict[str, float | None] = {}

    def _build(self, name: str) -> None:
        out = self.root / f"out-{name}"
        shutil.rmtree(out, ignore_errors=True)
        command = sphinx_command(self.python, self.configs[name], self.root / "src", out,
                                 self.jobs)
        sample, output = run_measured(command, cwd=self.root, env=child_env())
        self.samples[name] = sample
        self.own_cpu[name] = driver_figure(output, "own_cpu")

    def run(self, first: str, second: str) -> None:
        threads = [threading.Thread(target=self._build, args=(name,)) for name in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()


def _ratio(over: float | None, under: float | None) -> float | None:
    return over / under if over is not None and under else None


def _cell(value: float | None) -> str:
    return f"{value:.3f}" if value is not None else "—"


def _site_pair(python: Path, root: Path, pages: int, variant: Variant,
               arguments: argparse.Namespace) -> Pair:
    site = write_sphinx_site(root, pages=pages, theme=SPHINX_THEMES[arguments.kind],
                             variants={"bare": "", variant.name: variant.sphinx})
    git_commit(site.root)
    return Pair(python, site.root, site.configs, arguments.jobs)


def main() -> int:
    arguments = _arguments()
    env = ensure_env(_say)
    variant: Variant = next(v for v in variants_for(arguments.kind, [arguments.variant])
                            if v.name == arguments.variant)
    work = Path(tempfile.mkdtemp(prefix="agentprose-paired-"))
    try:
        _site_pair(env.python, work / "warm-up", 4, variant, arguments).run(
            "bare", variant.name)  # bytecode compiled before the builds that count
        pair = _site_pair(env.python, work / "site", arguments.pages, variant, arguments)
        ratios: list[tuple[float, float, float | None]] = []
        print(f"# {arguments.kind} {arguments.pages:,} pages, -j {arguments.jobs}: bare and "
              f"{variant.name} built at the same time ({arguments.rounds} rounds after "
              "a warm-up)")
        print("| round | bare s | variant s | ×wall | ×cpu | ×sphinx |")
        print("|---|---|---|---|---|---|")
        failed = False
        for number in range(arguments.rounds):
            start = time.perf_counter()
            order = ("bare", variant.name) if number % 2 else (variant.name, "bare")
            pair.run(*order)
            bare, other = pair.samples["bare"], pair.samples[variant.name]
            if bare.error or other.error:
                _say(f"round {number + 1}: FAILED {bare.error or other.error}")
                failed = True
                continue
            row = (other.wall / bare.wall, other.cpu / bare.cpu,
                   _ratio(pair.own_cpu[variant.name], pair.own_cpu["bare"]))
            ratios.append(row)
            print(f"| {number + 1} | {bare.wall:.2f} | {other.wall:.2f} | "
                  f"{' | '.join(_cell(value) for value in row)} |", flush=True)
            _say(f"round {number + 1}/{arguments.rounds} in {time.perf_counter() - start:.0f} s")
        if ratios:
            medians = [statistics.median(column) if None not in column else None
                       for column in zip(*ratios, strict=True)]
            print(f"| median | | | {' | '.join(_cell(value) for value in medians)} |")
        return 1 if failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
