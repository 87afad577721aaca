"""Fidelity benchmark: how faithful are agent views to the pages readers see?

Builds the corpus in ``bench/fidelity/sites/`` (a MkDocs site with the ``material``,
``mkdocs`` and ``readthedocs`` themes and with Zensical; a Sphinx project with
alabaster, furo, sphinx_rtd_theme, pydata_sphinx_theme and sphinx_book_theme), each
with agentprose enabled, into a temporary folder; then compares every page's agent
view with the page, without using agentprose's converter:

- reference: the content fragment the build tool handed to plugins (captured by the
  corpus' own MkDocs hook / Sphinx extension), or for Zensical the theme's content
  container; read as a reader sees it (rules in ``fidelitylib/htmltext.py``);
- view: the ``.md`` file, its Markdown syntax dropped (rules in ``fidelitylib/mdtext.py``);
- words: ``re.findall(r"\\w+", text.casefold())`` on both sides;
- recall, noise, structure (code blocks and their languages, tables, headings by
  level, list items, links, images), size and links: ``fidelitylib/measure.py``.

Prints a table per build, the worst pages with their missing and extra words, and
whether the goals hold. A measurement: it exits 0 whatever it finds (2 on bad usage).

    python bench/fidelity.py [--quick] [--json PATH] [--keep DIR] [--worst N]

Needs ``pip install -r bench/fidelity/requirements.txt`` and agentprose installed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.dont_write_bytecode = True  # nothing of a run is left in the repository
sys.path.insert(0, str(Path(__file__).resolve().parent / "fidelity"))

from fidelitylib.builds import BUILDS, Build, BuiltSite, run_build  # noqa: E402
from fidelitylib.measure import PageFigures, measure_site  # noqa: E402
from fidelitylib.report import (  # noqa: E402
    print_builds,
    print_goals,
    print_structure,
    print_table,
    print_worst,
    write_json,
)


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="build only 2 MkDocs themes and 2 Sphinx themes")
    parser.add_argument("--json", type=Path, metavar="PATH", help="dump every page's figures")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="build into DIR (kept) instead of a temporary folder")
    parser.add_argument("--worst", type=int, default=10, metavar="N",
                        help="how many of the worst pages to detail (default 10)")
    parser.add_argument("--jobs", type=int, default=2, help="builds run at once (default 2)")
    return parser.parse_args()


def _zensical_line(sites: list[BuiltSite], builds: list[Build]) -> None:
    if not any(build.tool == "zensical" for build in builds):
        print("Zensical: not built (--quick)")
        return
    site = next(s for s in sites if s.build.tool == "zensical")
    if site.error:
        print(f"Zensical: NOT MEASURED, {site.note or 'not installed'}: "
              f"{site.error.splitlines()[0]}")
    else:
        print(f"Zensical: {site.note} built {len(site.pages)} pages, measured via "
              f"`agentprose build` and the theme's content container")


def _build_all(builds: list[Build], work: Path, jobs: int) -> list[BuiltSite]:
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(lambda build: run_build(build, work), builds))


def _run(arguments: argparse.Namespace, work: Path) -> None:
    builds = [b for b in BUILDS if b.quick or not arguments.quick]
    started = time.perf_counter()
    sites = _build_all(builds, work, arguments.jobs)
    built = time.perf_counter()
    figures: list[PageFigures] = [f for site in sites for f in measure_site(site)]
    print(f"Built {len(sites)} sites in {built - started:.0f} s, measured "
          f"{len(figures)} pages in {time.perf_counter() - built:.0f} s (in {work})\n")
    print_builds(sites)
    print_table(figures)
    print_worst(figures, arguments.worst)
    print_structure(figures)
    print_goals(figures, sites)
    _zensical_line(sites, builds)
    if arguments.json:
        write_json(arguments.json, figures, sites)
        print(f"Figures of every page written to {arguments.json}")


def main() -> int:
    """Build, measure, report; always 0: this is a measurement, not a test."""
    arguments = _arguments()
    if arguments.keep:
        arguments.keep.mkdir(parents=True, exist_ok=True)
        if any(arguments.keep.iterdir()):
            print(f"--keep {arguments.keep}: the folder must be empty", file=sys.stderr)
            return 2
        _run(arguments, arguments.keep.resolve())
        return 0
    with tempfile.TemporaryDirectory(prefix="agentprose-fidelity-") as work:
        _run(arguments, Path(work))
    return 0


if __name__ == "__main__":
    sys.exit(main())
