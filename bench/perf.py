"""Build-time cost of agentprose: synthetic MkDocs/Material and Sphinx/Furo sites, bare
and with agentprose (both engines) and its rivals, interleaved, in one run.

For each kind and size it generates a site (``bench/perf/sitegen.py``), then runs
rounds; each round builds every variant once in turn (bare, agentprose,
agentprose-markdownify, mkdocs-llmstxt or sphinx-llm), the order reversed every
other round (A B C, C B A, ...), so that drift on a shared machine falls on all alike:

- MkDocs: a cold build and a ``mkdocs serve`` reload in one process
  (``bench/perf/mkdocs_driver.py`` says how); no ``-j`` (MkDocs has none);
- Sphinx: ``sphinx-build -b html [-j N]`` into a fresh folder, then an incremental
  build after one page is edited, for each ``--jobs``.

Every build runs in a venv of its own (``bench/perf/benchenv.py``) and is measured by
``bench/perf/measure.py``: wall, CPU of the process tree, peak RSS. Then it times
``agentprose build`` on a copy of a bare Material build. Prints a table per kind,
the added cost per page at each size, the CLI's pages/s and the goals of issue 7.

    python bench/perf.py [--quick] [--sizes 200,1000,5000] [--kinds mkdocs,sphinx]
                         [--rounds N] [--jobs 1,2] [--variants a,b] [--json PATH]
    python bench/perf.py --report RUN.json [RUN.json ...]   # one table from several runs

A measurement: exits 0 whatever the figures (1 when a build fails, 2 on bad usage).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True  # nothing of a run is left in the repository
sys.path.insert(0, str(Path(__file__).resolve().parent / "perf"))

from benchenv import REPO, BenchEnv, child_env, current_env, ensure_env  # noqa: E402
from goals import print_goals  # noqa: E402
from measure import (  # noqa: E402
    Sample,
    driver_figure,
    run_measured,
    samples_from_driver,
    sphinx_command,
)
from report import Results, print_report  # noqa: E402
from sitegen import (  # noqa: E402
    BASE_URL,
    SPHINX_THEMES,
    SiteFiles,
    git_commit,
    write_mkdocs_site,
    write_sphinx_site,
)
from variants import DEFAULT_KINDS, KINDS, Variant, is_mkdocs, variants_for  # noqa: E402

DRIVER = Path(__file__).resolve().parent / "perf" / "mkdocs_driver.py"
PACKAGES = ("agentprose_core", "mkdocs_agentprose", "sphinx_agentprose")
QUICK = {"sizes": [20], "rounds": 3, "jobs": [1], "cli_pages": 20}
# A competitor's builds are a third to a half of a quick run: there, it sits out the
# last round (the first two put it at both ends of the order).
QUICK_COMPETITOR_ROUNDS = 2
FULL = {"sizes": [200, 1000, 5000], "jobs": [1, 2], "cli_pages": 1000}


def _with_hooks(sample: Sample, output: str) -> Sample:
    """``sample`` with the handler time and child CPU ``sphinx_driver.py`` printed."""
    sample.hooks = driver_figure(output, "hooks")
    sample.child_cpu = driver_figure(output, "child_cpu")
    return sample


def _median_sample(samples: list[Sample]) -> Sample:
    """The sample of median wall time (the lower middle one of an even count)."""
    return sorted(samples, key=lambda sample: sample.wall)[(len(samples) - 1) // 2]


def _rounds_for(pages: int) -> int:
    return 5 if pages <= 200 else 3


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"{QUICK['sizes'][0]}-page sites, {QUICK['rounds']} rounds, "
                             "serial only: a few minutes")
    parser.add_argument("--sizes", type=_ints, help="pages per site (default 200,1000,5000)")
    parser.add_argument("--kinds", default=",".join(DEFAULT_KINDS),
                        help="mkdocs,sphinx (default); sphinx-basic and mkdocs-plain: the "
                             "sites with a theme whose pages hold no site-wide navigation "
                             "(Sphinx's basic; a bare one of the bench's own), for "
                             "agentprose's scaling to 10,000 pages")
    parser.add_argument("--rounds", type=int, help="rounds per size (default 5 up to 200 "
                                                   "pages, else 3)")
    parser.add_argument("--jobs", type=_ints, help="Sphinx -j values (default 1,2)")
    parser.add_argument("--rebuilds", type=int, metavar="N",
                        help="Sphinx incremental builds per round, each after a new edit; "
                             "the round's figure is the median one (default 3, 1 with "
                             "--quick; a MkDocs reload is a whole build: one per round)")
    parser.add_argument("--variants", help="only these (comma-separated); bare always runs")
    parser.add_argument("--cli-pages", type=int,
                        help="size of the site for the CLI figure (0: no CLI figure)")
    parser.add_argument("--prune-from", type=int, default=5000, metavar="PAGES",
                        help="Material sites of this many pages or more use navigation.prune "
                             "(default 5000: a full nav makes a bare build quadratic)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write every sample")
    parser.add_argument("--report", type=Path, nargs="+", metavar="RUN",
                        help="print the tables and goals of runs saved with --json, merged "
                             "(say, 200 and 1,000 pages measured on different days); no build")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="work in DIR, kept")
    parser.add_argument("--no-venv", action="store_true",
                        help="build with this interpreter; no competitors")
    arguments = parser.parse_args()
    preset = QUICK if arguments.quick else FULL
    arguments.sizes = arguments.sizes or preset["sizes"]
    arguments.jobs = arguments.jobs or preset["jobs"]
    if arguments.cli_pages is None:
        arguments.cli_pages = preset["cli_pages"]
    arguments.kinds = [kind for kind in arguments.kinds.split(",") if kind]
    if set(arguments.kinds) - set(KINDS):
        parser.error(f"--kinds: choose from {', '.join(KINDS)}")
    arguments.variants = arguments.variants.split(",") if arguments.variants else None
    return arguments


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class Bench:
    """The builds of one run, and the figures they give."""

    def __init__(self, env: BenchEnv, work: Path, arguments: argparse.Namespace) -> None:
        self.env, self.work, self.arguments = env, work, arguments
        self.results = Results(quick=arguments.quick, competitor_rounds=(
            QUICK_COMPETITOR_ROUNDS if arguments.quick else 0))
        self.child_env = child_env()
        self.kept: Path | None = None  # a bare Material build, for the CLI figure
        self.failed = False

    def usable(self, kind: str) -> list[Variant]:
        found = []
        for variant in variants_for(kind, self.arguments.variants):
            if not variant.competitor or self.env.installed(variant.package):
                found.append(variant)
            else:
                self.results.missing[variant.name] = "not installed: " + \
                    self.env.competitors.get(variant.package, "unknown package")
        self.results.variants[kind] = [v.name for v in variants_for(kind, self.arguments.variants)]
        return found

    def generate(self, kind: str, pages: int, variants: list[Variant]) -> SiteFiles:
        root = self.work / f"{kind}-{pages}"
        shutil.rmtree(root, ignore_errors=True)
        start = time.perf_counter()
        if is_mkdocs(kind):
            site = write_mkdocs_site(root, pages=pages,
                                     variants={v.name: list(v.mkdocs) for v in variants},
                                     prune=pages >= self.arguments.prune_from,
                                     plain=kind == "mkdocs-plain")
        else:
            site = write_sphinx_site(root, pages=pages, theme=SPHINX_THEMES[kind],
                                     variants={v.name: v.sphinx for v in variants})
        git_commit(root)
        pruned = " (navigation.prune)" if kind == "mkdocs" and pages >= self.arguments.prune_from \
            else ""
        say(f"{kind} {pages:,} pages{pruned}: "
            f"{site.source_bytes / len(site.sources) / 1024:.1f} KiB "
            f"per page source, generated in {time.perf_counter() - start:.1f} s")
        return site

    def _check(self, sample: Sample, out: Path, variant: Variant) -> Sample:
        missing = [name for name in variant.expects if not (out / name).exists()]
        if missing and not sample.error:
            sample.error = f"did not write {', '.join(missing)}"
        return sample

    def mkdocs(self, site: SiteFiles, variant: Variant, edited: Path) -> tuple[Sample, Sample]:
        out = self.work / "out" / f"mkdocs-{variant.name}"
        shutil.rmtree(out, ignore_errors=True)
        # A cold build has no conversion cache (MkDocs keeps it beside mkdocs.yml; Sphinx
        # in the doctree folder, which is inside the fresh output folder).
        shutil.rmtree(site.root / ".cache", ignore_errors=True)
        command = [str(self.env.python), str(DRIVER), str(site.configs[variant.name]),
                   str(out), str(edited)]
        sample, output = run_measured(command, cwd=site.root, env=self.child_env)
        cold, reload = samples_from_driver(sample, output)
        self._check(cold, out, variant)
        return cold, reload

    def sphinx(self, site: SiteFiles, variant: Variant, edited: Path,
               jobs: int) -> tuple[Sample, Sample]:
        out = self.work / "out" / f"sphinx-{variant.name}"
        shutil.rmtree(out, ignore_errors=True)
        command = sphinx_command(self.env.python, site.configs[variant.name],
                                 site.root / "src", out, jobs)
        cold = self._check(_with_hooks(*run_measured(command, cwd=site.root,
                                                     env=self.child_env)), out, variant)
        original = edited.read_text(encoding="utf-8")
        rebuilds = []
        try:
            for number in range(self._rebuilds()):
                edited.write_text(original + f"\nA paragraph added for rebuild {number}.\n",
                                  encoding="utf-8")
                rebuilds.append(_with_hooks(*run_measured(command, cwd=site.root,
                                                          env=self.child_env)))
        finally:
            edited.write_text(original, encoding="utf-8")
        failed = [sample for sample in rebuilds if sample.error]
        return cold, failed[0] if failed else _median_sample(rebuilds)

    def _rebuilds(self) -> int:
        if self.arguments.rebuilds is not None:
            return max(1, self.arguments.rebuilds)
        return 1 if self.arguments.quick else 3

    def size(self, kind: str, pages: int, variants: list[Variant]) -> list[Variant]:
        """The rounds at one size; the variants that did not fail, for the next size."""
        site = self.generate(kind, pages, variants)
        edited = site.sources[len(site.sources) // 2]
        rounds = self.arguments.rounds or (QUICK["rounds"] if self.arguments.quick
                                           else _rounds_for(pages))
        self.results.rounds[(kind, pages)] = rounds
        jobs = [1] if is_mkdocs(kind) else self.arguments.jobs
        start = time.perf_counter()
        working = list(variants)
        for number in range(rounds):
            order = working if number % 2 == 0 else working[::-1]
            for j in jobs:
                for variant in order:
                    if self._sits_out(variant, number):
                        continue
                    if is_mkdocs(kind):
                        cold, rebuild = self.mkdocs(site, variant, edited)
                    else:
                        cold, rebuild = self.sphinx(site, variant, edited, j)
                    for mode, sample in (("cold", cold), ("rebuild", rebuild)):
                        self.results.add((kind, pages, j, mode, variant.name), sample)
                        if sample.error:
                            self._failed(variant, working, f"{mode} build at {pages} "
                                                           f"pages: {sample.error}")
                    say(f"  round {number + 1}/{rounds} -j {j} {variant.name}: cold "
                        f"{cold.wall:.2f} s, rebuild {rebuild.wall:.2f} s")
            if kind == "mkdocs" and pages == self.arguments.cli_pages:
                self.keep_bare()
        say(f"{kind} {pages:,} pages: {rounds} rounds in {time.perf_counter() - start:.0f} s")
        shutil.rmtree(site.root, ignore_errors=True)
        shutil.rmtree(self.work / "out", ignore_errors=True)
        return working

    def _sits_out(self, variant: Variant, number: int) -> bool:
        limit = self.results.competitor_rounds  # 0: competitors run every round
        return bool(limit) and number >= limit and variant.competitor

    def _failed(self, variant: Variant, working: list[Variant], why: str) -> None:
        """A failed build: said, and the variant left out of the rounds that follow
        (a broken competitor must not cost a whole run its time)."""
        self.failed = True
        say(f"  {variant.name}: FAILED {why}")
        if variant in working and variant.name != "bare":
            working.remove(variant)
            self.results.missing.setdefault(variant.name, f"failed: {why}")

    def keep_bare(self) -> None:
        built = self.work / "out" / "mkdocs-bare"
        if built.exists() and self.kept is None:
            self.kept = self.work / "cli-base"
            shutil.copytree(built, self.kept)

    def cli(self) -> None:
        """``agentprose build`` on copies of a bare Material build: pages per second."""
        pages = self.arguments.cli_pages
        if not pages:
            return
        if self.kept is None:
            variants = [v for v in variants_for("mkdocs") if v.name == "bare"]
            site = self.generate("mkdocs", pages, variants)
            out = self.work / "out" / "mkdocs-bare"
            command = [str(self.env.python), "-m", "mkdocs", "build", "-q",
                       "-f", str(site.configs["bare"]), "-d", str(out)]
            sample = run_measured(command, cwd=site.root, env=self.child_env)[0]
            say(f"  bare build for the CLI: {sample.wall:.1f} s {sample.error}")
            self.keep_bare()
        if self.kept is None:
            return
        walls = []
        for _ in range(3):
            copy = self.work / "cli-copy"
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(self.kept, copy)
            command = [str(self.env.bin / "agentprose"), "build", str(copy),
                       "--base-url", BASE_URL, "--quiet"]
            sample = run_measured(command, cwd=self.work, env=self.child_env)[0]
            if sample.error:
                say(f"  agentprose build: FAILED {sample.error}")
                self.failed = True
                return
            walls.append(sample.wall)
        wall = sorted(walls)[1]
        self.results.cli = {"pages": pages, "wall": wall, "rate": pages / wall}
        self.results.cli_walls = walls

    def warm_up(self, kind: str, variants: list[Variant]) -> list[Variant]:
        """Each variant once on a small site, not counted: its files read once, its
        outputs checked. A variant that fails here is left out, with the reason."""
        site = self.generate(kind, 4, variants)
        working = []
        for variant in variants:
            if is_mkdocs(kind):
                cold, rebuild = self.mkdocs(site, variant, site.sources[-1])
            else:
                cold, rebuild = self.sphinx(site, variant, site.sources[-1], 1)
            error = cold.error or rebuild.error
            if error:
                self.results.missing[variant.name] = f"failed in the warm-up: {error}"
                self.failed = True
                say(f"  warm-up {variant.name}: FAILED {error}")
            else:
                working.append(variant)
        shutil.rmtree(site.root, ignore_errors=True)
        return working

    def compile_bytecode(self) -> None:
        """agentprose's bytecode, written before any build (a fresh clone has none): the
        first build with agentprose must not be the one that compiles it."""
        packages = [str(REPO / name) for name in PACKAGES]
        subprocess.run([str(self.env.python), "-m", "compileall", "-q", *packages],
                       env=self.child_env, check=False, stdout=subprocess.DEVNULL)

    def run(self) -> None:
        self.compile_bytecode()
        for kind in self.arguments.kinds:
            variants = self.usable(kind)
            # The warm-up is a sixth of a quick run: there, a variant that fails is left
            # out after the round it failed in, and the first round counts like the others.
            if not self.arguments.quick:
                variants = self.warm_up(kind, variants)
            for pages in self.arguments.sizes:
                variants = self.size(kind, pages, variants)
        self.cli()


def _json(results: Results, path: Path) -> None:
    data = {"samples": [{"kind": k[0], "pages": k[1], "jobs": k[2], "mode": k[3],
                         "variant": k[4], "runs": [s.as_dict() for s in samples]}
                        for k, samples in results.samples.items()],
            "missing": results.missing, "cli": results.cli, "cli_walls": results.cli_walls,
            "variants": results.variants}
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def _merged(paths: list[Path]) -> Results:
    """The runs saved with --json as one set of results (a later run's CLI figure wins)."""
    results = Results()
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        for entry in data["samples"]:
            key = (entry["kind"], entry["pages"], entry["jobs"], entry["mode"], entry["variant"])
            for run in entry["runs"]:
                results.add(key, Sample(**run))
            results.rounds[key[:2]] = max(results.rounds.get(key[:2], 0), len(entry["runs"]))
            names = results.variants.setdefault(key[0], ["bare"])
            if key[4] not in names:
                names.append(key[4])
        for kind, names in data.get("variants", {}).items():
            known = results.variants.setdefault(kind, [])
            known.extend(name for name in names if name not in known)
        results.missing.update(data.get("missing", {}))
        if data.get("cli"):
            results.cli, results.cli_walls = data["cli"], data.get("cli_walls", [])
    return results


def _environment(arguments: argparse.Namespace) -> BenchEnv:
    if arguments.no_venv:
        return current_env()
    try:
        return ensure_env(say)
    except (OSError, RuntimeError, subprocess.CalledProcessError) as error:
        say(f"bench venv not usable ({error}); building with this interpreter")
        return current_env()


def main() -> int:
    arguments = _arguments()
    if arguments.report:
        results = _merged(arguments.report)
        print(f"# agentprose build cost (merged from {len(arguments.report)} saved run(s))")
        print_report(results)
        print_goals(results)
        return 0
    start = time.perf_counter()
    env = _environment(arguments)
    work = arguments.keep or Path(tempfile.mkdtemp(prefix="agentprose-perf-"))
    work.mkdir(parents=True, exist_ok=True)
    bench = Bench(env, work, arguments)
    try:
        bench.run()
    finally:
        if not arguments.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"# agentprose build cost ({'quick' if arguments.quick else 'full'}; builds run by "
          f"{env.note}; {os.cpu_count()} CPUs; {time.perf_counter() - start:.0f} s)")
    print_report(bench.results)
    print_goals(bench.results)
    if arguments.json:
        _json(bench.results, arguments.json)
    return 1 if bench.failed else 0


if __name__ == "__main__":
    sys.exit(main())
