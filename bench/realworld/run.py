"""Real-site harness: build public docs sites bare and with agentprose, check the outputs.

For each site of ``sites.py`` (checkouts in ``--checkouts``, default /work/realsites):
a venv of its own (created once), a bare build, two agentprose builds (a hidden-marker
page planted for them), then the checks of ``checks.py`` on the first agentprose build
and a byte comparison of both. Prints one Markdown table, saves every detail as JSON
under ``<checkouts>/.results/<timestamp>.json``. Never run by the tests::

    python bench/realworld/run.py [--checkouts DIR] [--sites a,b] [--skip-build]
                                  [--agentprose DIR]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any

sys.dont_write_bytecode = True  # nothing of a run is left in the repository
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import builds  # noqa: E402
import sites as site_list  # noqa: E402
from envs import ensure_venv, python_of  # noqa: E402
from report import print_table  # noqa: E402
from sites import Site  # noqa: E402


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkouts", type=Path, default=Path("/work/realsites"),
                        help="folder holding one checkout per site (default /work/realsites)")
    parser.add_argument("--sites", default="", help="comma-separated site names (default all)")
    parser.add_argument("--skip-build", action="store_true",
                        help="reuse the last builds: run the checks only")
    parser.add_argument("--agentprose", type=Path, default=HERE.parent.parent,
                        help="the agentprose checkout measured (default: this repository)")
    return parser.parse_args()


def _head(checkout: Path) -> str:
    result = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"],
                            capture_output=True, text=True, check=False)
    return result.stdout.strip()


_PACKAGES = ("agentprose_core", "mkdocs_agentprose", "sphinx_agentprose")


def snapshot(agentprose: Path, checkouts: Path, stamp: str) -> Path:
    """A copy of the measured agentprose packages, used by every build and check of the
    run: the tree may change while a run goes (both builds of a site must agree)."""
    target = checkouts / ".agentprose" / stamp
    for package in _PACKAGES:
        shutil.copytree(agentprose / package, target / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    diff = subprocess.run(["git", "-C", str(agentprose), "diff", "HEAD", "--stat"],
                          capture_output=True, text=True, check=False).stdout
    (target / "SOURCE.txt").write_text(f"{agentprose}\n{_head(agentprose)}\n{diff}",
                                       encoding="utf-8")
    latest = checkouts / ".agentprose" / "latest"
    latest.unlink(missing_ok=True)
    latest.symlink_to(target.name)
    return target


def sites_and_snapshot(args: argparse.Namespace) -> tuple[Path, list[Site], Path | None]:
    """For the side scripts (menu.py, mcp_parity.py): the checkouts folder, the sites
    ``--sites`` names, and a snapshot of this repository's packages to build with (None
    with ``--skip-build``: the last builds are looked at again)."""
    checkouts = args.checkouts.resolve()
    chosen = site_list.by_name([name for name in args.sites.split(",") if name] or None)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    return checkouts, chosen, None if args.skip_build else snapshot(HERE.parent.parent,
                                                                      checkouts, stamp)


def _builds_of(site: Site, checkouts: Path, agentprose: Path,
               skip: bool) -> dict[str, dict[str, Any]]:
    saved = builds.scratch_of(checkouts, site) / "builds.json"
    if skip and saved.exists():
        loaded: dict[str, dict[str, Any]] = json.loads(saved.read_text(encoding="utf-8"))
        return {variant: builds.resummarize(result) for variant, result in loaded.items()}
    venv = ensure_venv(checkouts, site, checkouts / ".logs" / f"{site.name}-pip.log")
    results = {}
    for variant in builds.VARIANTS:
        print(f"  {site.name}: {variant} build ...", file=sys.stderr, flush=True)
        result = builds.build(site, checkouts, python_of(venv), variant, agentprose)
        results[variant] = result.to_dict()
        print(f"    exit {result.exit_code} in {result.seconds:.1f}s", file=sys.stderr,
              flush=True)
    saved.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return results


def _checks(site: Site, checkouts: Path, built: dict[str, dict[str, Any]]) -> dict[str, Any]:
    import analyze
    import checks

    first = builds.out_dir(checkouts, site, "agentprose")
    second = builds.out_dir(checkouts, site, "agentprose2")
    if built["agentprose"]["exit_code"] != 0 or not (first / "agentprose.json").exists():
        return {"error": "the agentprose build failed or wrote no agentprose.json"}
    info = builds.scratch_of(checkouts, site) / "conf-agentprose.json"
    figures = analyze.analyze(first, builds.base_url(site), site.tool,
                              checkouts / site.name / site.docs_dir, info)
    if built["agentprose2"]["exit_code"] == 0:
        figures["determinism"] = checks.compare_builds(first, second)
    return figures


def run_site(site: Site, checkouts: Path, agentprose: Path, skip: bool) -> dict[str, Any]:
    checkout = checkouts / site.name
    entry: dict[str, Any] = {"site": site.name, "repo": site.repo, "tool": site.tool,
                             "theme": site.theme, "commit": site.commit}
    if not checkout.is_dir():
        entry["error"] = f"no checkout at {checkout}"
        return entry
    entry["head"] = _head(checkout)
    if entry["head"] != site.commit:
        print(f"  {site.name}: checkout is at {entry['head']}, sites.py says {site.commit}",
              file=sys.stderr)
    try:
        entry["builds"] = _builds_of(site, checkouts, agentprose, skip)
        entry["checks"] = _checks(site, checkouts, entry["builds"])
    except Exception as error:
        entry["error"] = f"{type(error).__name__}: {error}"
        entry["traceback"] = traceback.format_exc()[-3000:]
    return entry


def main() -> int:
    args = _arguments()
    source = args.agentprose.resolve()
    chosen = site_list.by_name([n for n in args.sites.split(",") if n] or None)
    checkouts = args.checkouts.resolve()
    started = dt.datetime.now(dt.UTC)
    head = _head(source)  # the commit measured: the tree may get others while a run goes
    latest = checkouts / ".agentprose" / "latest"
    if args.skip_build and latest.exists():
        agentprose = latest.resolve()  # check with the code the last builds used
    else:
        agentprose = snapshot(source, checkouts, started.strftime("%Y%m%dT%H%M%SZ"))
    sys.path.insert(0, str(agentprose))  # the checks use the same agentprose_core
    entries = []
    for site in chosen:
        print(f"== {site.name}", file=sys.stderr, flush=True)
        entries.append(run_site(site, checkouts, agentprose, args.skip_build))
    results = checkouts / ".results"
    results.mkdir(parents=True, exist_ok=True)
    out = results / f"{started.strftime('%Y%m%dT%H%M%SZ')}.json"
    document = {"started": started.isoformat(), "agentprose": str(source),
                "agentprose_head": head, "agentprose_snapshot": str(agentprose),
                "skip_build": args.skip_build,
                "sites": entries}
    out.write_text(json.dumps(document, indent=2, ensure_ascii=False), encoding="utf-8")
    print_table(entries)
    print(f"\nDetails: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
