"""One measured build: wall time, CPU time of the whole process tree, peak RSS.

A build runs as a child process that this process reaps with ``os.wait4``, whose
``rusage`` is the child's own plus that of every descendant it reaped (Sphinx's
``-j`` workers, sphinx-llm's second sphinx-build, git). So:

- CPU = ``ru_utime + ru_stime`` of that rusage: the same figure as the delta of
  ``getrusage(RUSAGE_CHILDREN)`` around the build, but per build;
- peak RSS = its ``ru_maxrss``: the largest resident set of any one process of the
  build (not the sum of processes alive at once);
- wall = ``time.perf_counter`` from spawn to reap.

MkDocs builds run in ``mkdocs_driver.py``, which measures itself the same way
(``getrusage`` of itself and its children) and reports a cold build and a reload,
and also the time spent inside agentprose's hooks: our own cost, measured directly
rather than as a difference of two noisy builds. Sphinx builds run in
``sphinx_driver.py``, which is ``sphinx-build`` plus the same timer around
agentprose's event handlers, and the CPU of the process's children: agentprose's
worker, which converts the pages while Sphinx writes (serial builds only: ``-j``
forks the handlers away, and its forks are children too).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

__all__ = ["Sample", "driver_figure", "run_measured", "samples_from_driver", "sphinx_command"]


@dataclass
class Sample:
    wall: float  # seconds
    cpu: float  # seconds, user + system, the build's whole process tree
    rss: int  # KiB, the largest process of the build
    warnings: int = 0
    error: str = ""
    hooks: float | None = None  # seconds inside agentprose's hooks (drivers only)
    # CPU seconds of the Sphinx process's children (serial builds): agentprose's worker
    # and git, so our own work outside the handlers (a serial bare build has none).
    child_cpu: float | None = None

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


EXCEPTION = re.compile(r"[\w.]+(Error|Exception): ")


def _warnings(text: str) -> int:
    return sum(1 for line in text.splitlines() if "WARNING" in line or "warning:" in line)


def _error(text: str, code: int) -> str:
    """The exception a failed build ended on, else its last line (tools print advice
    after the error, and the drivers their figures)."""
    lines = [line.strip() for line in text.splitlines()
             if line.strip() and not line.startswith('{"')]
    raised = [line for line in lines if EXCEPTION.match(line)]
    last = (raised or lines or [""])[-1]
    return f"exit {code}: {last[:200]}"


def run_measured(command: list[str], *, cwd: Path, env: dict[str, str]) -> tuple[Sample, str]:
    """Run ``command`` to its end; its sample and what it printed (stdout + stderr)."""
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as log:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log,
                                   stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        output = log.read()
    sample = Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, _warnings(output))
    if process.returncode:
        sample.error = _error(output, process.returncode)
    return sample, output


def driver_figure(output: str, name: str) -> float | None:
    """The figure ``name`` (``hooks``, ``child_cpu``) that ``sphinx_driver.py`` reported
    on its last JSON line."""
    lines = [line for line in output.splitlines() if line.startswith("{")]
    try:
        value = json.loads(lines[-1]).get(name)
    except (IndexError, ValueError, AttributeError):
        return None
    return float(value) if isinstance(value, (int, float)) else None


def samples_from_driver(sample: Sample, output: str) -> tuple[Sample, Sample]:
    """The cold build and the reload that ``mkdocs_driver.py`` reported on its last line."""
    if sample.error:
        return sample, sample
    lines = [line for line in output.splitlines() if line.startswith("{")]
    try:
        report = json.loads(lines[-1])
    except (IndexError, ValueError):
        failed = Sample(sample.wall, sample.cpu, sample.rss, error="no report from driver")
        return failed, failed
    warnings = _warnings(output)
    return (Sample(**report["cold"], warnings=warnings),
            Sample(**report["reload"], warnings=warnings))


SPHINX_DRIVER = Path(__file__).resolve().with_name("sphinx_driver.py")


def sphinx_command(python: Path, config: Path, src: Path, out: Path, jobs: int) -> list[str]:
    """``sphinx-build -b html [-j N]`` of ``src`` into ``out`` with ``config``'s conf.py,
    run by ``sphinx_driver.py``."""
    return [str(python), str(SPHINX_DRIVER), "-q", "-b", "html", "-c", str(config),
            *(["-j", str(jobs)] if jobs > 1 else []), str(src), str(out)]
