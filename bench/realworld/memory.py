"""Where a MkDocs build's memory goes, event by event: bare beside agentprose.

    python bench/realworld/memory.py [--sites griffe,mkdocstrings-python] [--checkouts DIR]
                                     [--agentprose DIR]

Each site is built cold twice, bare and with agentprose (the pages and settings of
``timing.py``'s builds), by this script run as the build's own process in the site's
venv (``--probe``): MkDocs' plugin events wrapped to read the process's resident set
and its high-water mark (``VmRSS`` and ``VmHWM`` in ``/proc/self/status``, Linux only)
after each. For each site it prints the moments where the two builds part (after the
files are read, the last page rendered, ``on_env``, the written page that raised the
high-water mark most, ``on_post_build``) and the peaks; the events are saved under
``<checkouts>/.results/memory-<timestamp>.json``.

A peak is not a sum: read which moment sets it and what the other build holds then.
Session 32's notes (``bench/NOTES.md``) show how to follow one down (``tracemalloc`` at
those moments, object sizes, one cause taken away at a time).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent

_MOMENTS = ("files", "page_content", "env", "post_page", "post_build")


# ---- the build's own process (--probe), in the site's venv: MkDocs only ---------------

def _status() -> tuple[float, float]:
    """RSS and high-water mark of this process, MiB."""
    found = {}
    with Path("/proc/self/status").open(encoding="ascii") as status:
        for line in status:
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, value = line.split(":")
                found[key] = int(value.split()[0]) / 1024
    return found["VmRSS"], found["VmHWM"]


def _probe(out: Path, arguments: list[str]) -> None:
    """Run ``mkdocs`` with ``arguments`` here, each plugin event recorded in ``out``."""
    import atexit

    from mkdocs.__main__ import cli
    from mkdocs.plugins import PluginCollection

    events: list[tuple[str, int, float, float, float]] = []
    seen: dict[str, int] = {}
    run_event = PluginCollection.run_event

    def recorded(self: Any, name: str, item: Any = None, **kwargs: Any) -> Any:
        before = _status()[0]
        result = run_event(self, name, item, **kwargs)
        rss, peak = _status()
        seen[name] = seen.get(name, 0) + 1
        events.append((name, seen[name], round(before, 1), round(rss, 1), round(peak, 1)))
        return result

    PluginCollection.run_event = recorded  # type: ignore[method-assign]
    atexit.register(lambda: out.write_text(json.dumps(events), encoding="utf-8"))
    sys.argv = ["mkdocs", *arguments]
    cli()


# ---- the driver ----------------------------------------------------------------------

def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkouts", type=Path, default=Path("/work/realsites"))
    parser.add_argument("--sites", default="griffe,mkdocstrings-python")
    parser.add_argument("--agentprose", type=Path, default=HERE.parent.parent)
    return parser.parse_args()


def _events(site: Any, checkouts: Path, python: Path, variant: str,
            agentprose: Path) -> list[list[Any]]:
    import builds

    checkout = checkouts / site.name
    original = checkout / site.config
    generated = original.with_name(f"mkdocs.realworld-memory-{variant}.yml")
    options = {"site_url": builds.base_url(site), "agentprose": builds.uses_agentprose(variant),
               "drop": list(site.drop_plugins), "overrides": site.overrides, "settings": {}}
    env = builds._env(site, agentprose if builds.uses_agentprose(variant) else None)
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    out = checkouts / ".builds" / site.name / f"memory-{variant}"
    record = out.with_suffix(".json")
    record.parent.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run([str(python), str(HERE / "mkdocs_config.py"), str(original),
                        str(generated), json.dumps(options)], check=True, env=env)
        subprocess.run([str(python), __file__, "--probe", str(record), "build", "--clean",
                        "-q", "-f", str(generated), "-d", str(out)],
                       cwd=original.parent, env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    finally:
        generated.unlink(missing_ok=True)
    events: list[list[Any]] = json.loads(record.read_text(encoding="utf-8"))
    return events


def _moments(events: list[list[Any]]) -> dict[str, list[Any]]:
    """The events of :data:`_MOMENTS`: the last of each kind, but the written page that
    raised the high-water mark most."""
    found: dict[str, list[Any]] = {}
    raised = 0.0
    for event, before in zip(events, [[0, 0, 0, 0, 0], *events], strict=False):
        name = event[0]
        if name == "post_page":
            rise = event[4] - before[4]
            if rise >= raised:
                raised, found[name] = rise, event
        elif name in _MOMENTS:
            found[name] = event
    return found


def _table(name: str, bare: list[list[Any]], ours: list[list[Any]]) -> list[str]:
    lines = [f"== {name}",
             "| moment | bare RSS (high-water) MiB | agentprose RSS (high-water) MiB |",
             "|---|---|---|"]
    first, second = _moments(bare), _moments(ours)
    for moment in _MOMENTS:
        cells = [f"{found[3]} ({found[4]})" if (found := side.get(moment)) else "-"
                 for side in (first, second)]
        label = moment if moment != "post_page" else "post_page (the largest rise)"
        lines.append(f"| {label} | {cells[0]} | {cells[1]} |")
    peaks = [max((event[4] for event in side), default=0.0) for side in (bare, ours)]
    ratio = peaks[1] / peaks[0] if peaks[0] else 0.0
    lines.append(f"| peak | {peaks[0]} | {peaks[1]} (x{ratio:.3f}) |")
    return lines


def main() -> None:
    if sys.argv[1:2] == ["--probe"]:  # the build's own process: --probe OUT MKDOCS_ARGS...
        _probe(Path(sys.argv[2]), sys.argv[3:])
        return
    arguments = _arguments()
    sys.path.insert(0, str(HERE))
    import sites as site_list
    from envs import ensure_venv, python_of

    wanted = arguments.sites.split(",")
    chosen = [site for site in site_list.SITES if site.name in wanted]
    results: dict[str, dict[str, list[list[Any]]]] = {}
    for site in chosen:
        if site.tool != "mkdocs":
            print(f"{site.name}: not a MkDocs site, skipped")
            continue
        logs = arguments.checkouts / ".logs" / f"{site.name}-venv.log"
        python = python_of(ensure_venv(arguments.checkouts, site, logs))
        results[site.name] = {
            variant: _events(site, arguments.checkouts, python, variant, arguments.agentprose)
            for variant in ("timing-bare", "timing-agentprose")}
        print("\n".join(_table(site.name, *results[site.name].values())), flush=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    saved = arguments.checkouts / ".results" / f"memory-{stamp}.json"
    saved.parent.mkdir(parents=True, exist_ok=True)
    saved.write_text(json.dumps(results), encoding="utf-8")
    print(f"\nEvents: {saved}")


if __name__ == "__main__":
    main()
