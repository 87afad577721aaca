"""Byte identity of the real-site harness's outputs before and after a change.

A change that should not change behaviour (a refactoring) is checked by building every
harness site before it (copy each ``<checkouts>/.builds/<site>/agentprose`` to
``<baseline>/<site>``) and after it (``bench/realworld/run.py``), then::

    python bench/identity.py [--checkouts DIR] [--baseline DIR] [--sites a,b]

Every file of each site's build is compared: the agent outputs (``.md``,
``agentprose.json``, ``llms*.txt``), the HTML pages (their head tags are ours) and
the rest. Files that differ between the two builds of the same run (``agentprose``
and ``agentprose2``: the site itself is not deterministic, a timestamp in its HTML)
are counted apart, not as differences (so are files only in the baseline in a folder
where they differ: names a site makes anew at each build). Prints one Markdown table;
exit 1 when any file differs. Never run by the tests.

``--new-post-key size`` (repeatable) compares each ``agentprose.json`` without that key
in its posts: for a change that adds a key to the index and must change nothing else.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _files(root: Path) -> dict[str, Path]:
    return {path.relative_to(root).as_posix(): path for path in root.rglob("*")
            if path.is_file()}


_NEW_KEYS: tuple[str, ...] = ()  # keys a change adds to the index's posts


def _content(path: Path) -> bytes:
    data = path.read_bytes()
    if not _NEW_KEYS or path.name != "agentprose.json":
        return data
    index = json.loads(data)
    for post in index.get("posts", []):
        for key in _NEW_KEYS:
            post.pop(key, None)
    return json.dumps(index, sort_keys=True).encode()


def _differing(a: dict[str, Path], b: dict[str, Path]) -> set[str]:
    both = a.keys() & b.keys()
    return {name for name in both if _content(a[name]) != _content(b[name])} \
        | (a.keys() ^ b.keys())


def compare(before: Path, after: Path, again: Path | None) -> dict[str, object]:
    """``before`` and ``after`` compared, leaving out what differs between ``after`` and
    ``again`` (the same code built twice)."""
    old, new = _files(before), _files(after)
    unstable = _differing(new, _files(again)) if again is not None and again.is_dir() else set()
    # A file the site names anew at every build (sphinx-tippy's per-build ids) is only
    # in the baseline, in a folder where the two new builds differ too.
    folders = {name.rpartition("/")[0] for name in unstable}
    unstable |= {name for name in old.keys() - new.keys() if name.rpartition("/")[0] in folders}
    differ = sorted(_differing(old, new) - unstable)
    return {"compared": len(old.keys() | new.keys()) - len(unstable),
            "agent": sum(1 for name in new if _is_agent_file(name)),
            "unstable": len(unstable), "differing": differ}


def _is_agent_file(name: str) -> bool:
    leaf = name.rsplit("/", 1)[-1]
    return leaf.endswith(".md") or leaf in {"agentprose.json", "llms.txt", "llms-full.txt"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkouts", type=Path, default=Path("/work/realsites"))
    parser.add_argument("--baseline", type=Path, default=None,
                        help="folder of the builds before (default <checkouts>/.baseline)")
    parser.add_argument("--sites", default="", help="comma-separated site names (default all)")
    parser.add_argument("--new-post-key", action="append", default=[], metavar="KEY",
                        help="a key the change adds to agentprose.json's posts: compared "
                             "without it")
    arguments = parser.parse_args()
    global _NEW_KEYS  # noqa: PLW0603 (one run, one setting)
    _NEW_KEYS = tuple(arguments.new_post_key)
    baseline = arguments.baseline or arguments.checkouts / ".baseline"
    names = [name for name in arguments.sites.split(",") if name] or \
        sorted(path.name for path in baseline.iterdir() if path.is_dir())
    print("| site | files compared | of them agent outputs | unstable (left out) | differing |")
    print("|---|---|---|---|---|")
    total, failed = 0, False
    for name in names:
        builds = arguments.checkouts / ".builds" / name
        found = compare(baseline / name, builds / "agentprose", builds / "agentprose2")
        differing = found["differing"]
        assert isinstance(differing, list)
        total += int(str(found["compared"]))
        failed |= bool(differing)
        shown = f"{len(differing)} ({', '.join(differing[:3])})" if differing else "0"
        print(f"| {name} | {found['compared']} | {found['agent']} | {found['unstable']} "
              f"| {shown} |")
    print(f"\n{total} files compared over {len(names)} sites; "
          f"{'some differ' if failed else 'all byte-identical'}.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
