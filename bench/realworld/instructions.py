"""Whole-build instruction counts: what agentprose adds to a cold build, process by process.

This VM's timings move by ±15 % within the hour and a pair of builds minutes apart
drifts by a fifth, so ratios of a few hundredths need something steadier. Here one
bare and one agentprose build of a site run under valgrind (cachegrind without its
cache simulation, every child process traced); the counts move by about 0.5 % from
run to run. Each process's count is read back and filed under its role: the build
tool's own process, agentprose's worker processes, git (the pages' dates), anything
else. What they miss: time spent waiting, and what the instructions cost (two
processes at once share the machine's caches; an instruction in a worker beside a
build took ~1.6× the time of the same instruction alone, December 2026).

Used by ``timing.py --instructions``. Under valgrind a build runs 20-50× slower.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import builds

ROLES = ("build", "workers", "git", "other")
KINDS = ("instructions-bare", "instructions-agentprose")
REBUILD_KINDS = ("instructions-rebuild-bare", "instructions-rebuild-agentprose")
SLOWDOWN = 60  # timeouts under valgrind: this many times the site's own


@dataclass(frozen=True)
class Process:
    command: str
    instructions: int

    @property
    def role(self) -> str:
        words = self.command.split()
        if "agentprose_core.parallel.worker" in words:
            return "workers"
        if words and Path(words[0]).name == "git":
            return "git"
        if "mkdocs" in words or "sphinx" in words:  # python -m mkdocs / -m sphinx
            return "build"
        return "other"


def valgrind() -> str | None:
    """The valgrind executable, or None when it is not installed."""
    return shutil.which("valgrind")


def _prefix(tool: str, out: Path) -> tuple[str, ...]:
    return (tool, "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes",
            f"--cachegrind-out-file={out}/cg.%p")


def read_processes(out: Path) -> list[Process]:
    """Each traced process's command line and instruction count, from cachegrind's files
    in ``out`` (their ``cmd:`` and ``summary:`` lines)."""
    found = []
    for path in sorted(out.glob("cg.*")):
        command, total = "", None
        with path.open(encoding="utf-8", errors="replace") as stream:
            for line in stream:
                if line.startswith("cmd:"):
                    command = line[4:].strip()
                elif line.startswith("summary:"):
                    total = int(line.split()[1])
        if total is not None:
            found.append(Process(command, total))
    return found


def by_role(processes: list[Process]) -> dict[str, int]:
    totals = dict.fromkeys(ROLES, 0)
    for process in processes:
        totals[process.role] += process.instructions
    return totals


def count_site(site: Any, checkouts: Path, python: Path, agentprose: Path,
               tool: str, *, rebuild: bool = False) -> dict[str, Any]:
    """One bare and one agentprose cold build of ``site`` under valgrind: instructions by
    role for each, the processes of each, and the ratio. ``rebuild``: a Sphinx site's
    one-page rebuild instead (:func:`builds.rebuild`; the full build before it runs
    without valgrind)."""
    runs: dict[str, dict[str, Any]] = {}
    for kind in (REBUILD_KINDS if rebuild else KINDS):
        out = builds.scratch_of(checkouts, site) / f"{kind}-counts"
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        variant = kind.removeprefix("instructions-")
        if rebuild:
            result = builds.rebuild(site, checkouts, python, variant, agentprose,
                                    prefix=_prefix(tool, out),
                                    timeout=site.timeout * SLOWDOWN)
        else:
            result = builds.build(site, checkouts, python, kind, agentprose, markers=False,
                                  prefix=_prefix(tool, out), timeout=site.timeout * SLOWDOWN)
        if result.exit_code != 0:
            raise SystemExit(f"{site.name}: the {kind} build failed, see {result.log}")
        processes = read_processes(out)
        runs[kind] = {"roles": by_role(processes),
                      "processes": [[p.command, p.instructions] for p in processes]}
    bare_kind, our_kind = runs  # bare first
    bare = sum(runs[bare_kind]["roles"].values())
    ours = sum(runs[our_kind]["roles"].values())
    return {"site": site.name, "tool": site.tool, "runs": runs, "bare": bare,
            "agentprose": ours, "ratio": round(ours / bare, 3)}


def print_table(entries: list[dict[str, Any]]) -> None:
    """×instructions per site, and what each role adds (or saves), as a share of bare."""
    print("| site | tool | M instructions bare | with agentprose | ×instructions | "
          + " | ".join(f"{role} +" for role in ROLES) + " |")
    print("|" + "---|" * (5 + len(ROLES)))
    for entry in entries:
        bare_kind, our_kind = entry["runs"]
        bare = entry["runs"][bare_kind]["roles"]
        ours = entry["runs"][our_kind]["roles"]
        added = [f"{(ours[role] - bare[role]) / entry['bare']:+.3f}" for role in ROLES]
        print(f"| {entry['site']} | {entry['tool']} | {entry['bare'] / 1e6:,.0f} | "
              f"{entry['agentprose'] / 1e6:,.0f} | {entry['ratio']:.3f} | "
              + " | ".join(added) + " |")
