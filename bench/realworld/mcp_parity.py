"""The MCP tools in JavaScript against ``agentprose mcp``'s Python on real sites: each
site built once more with ``mcp_endpoint`` (the ``mcp`` variant of ``builds.py``, so it
writes ``agentprose-search.json``), then the calls of tests/test_mcp_js.py (every tool
on every page, a few hundred searches from the site's own words, filters, parts, errors)
answered by both, compared text for text::

    python bench/realworld/mcp_parity.py [--checkouts DIR] [--sites a,b] [--skip-build]
                                         [--hosts]

Prints a Markdown table; the first differing call of each site goes to
``<checkouts>/.mcp-parity/<site>.json``. Never run by the tests. ``--hosts`` asks each
static host's generated function instead (``agentprose mcp-function``, under the host's
runtime from ``make mcp-hosts``: tests/host_runtimes.py), every call over HTTP as
JSON-RPC, the site served under ``/docs/``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parent.parent
sys.path[:0] = [str(HERE), str(REPOSITORY)]

import builds  # noqa: E402
from envs import ensure_venv, python_of  # noqa: E402
from run import sites_and_snapshot  # noqa: E402

from agentprose_core.hosting.mcp_functions import MCP_HOSTS  # noqa: E402
from agentprose_core.mcp.server import Reading  # noqa: E402
from agentprose_core.mcp.sources import FolderSource  # noqa: E402
from bench.mcp_endpoint import Client  # noqa: E402
from tests.host_runtimes import HOST_BASE, host_command  # noqa: E402
from tests.test_mcp_js import _calls, _python  # noqa: E402

if TYPE_CHECKING:
    import sites as site_list


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkouts", type=Path, default=Path("/work/realsites"))
    parser.add_argument("--sites", default="", help="comma-separated site names (default all)")
    parser.add_argument("--skip-build", action="store_true", help="compare the last builds")
    parser.add_argument("--hosts", action="store_true",
                        help="ask each static host's function, over HTTP (the last builds)")
    arguments = parser.parse_args()
    arguments.skip_build = arguments.skip_build or arguments.hosts
    return arguments


def compare(site: site_list.Site, checkouts: Path, agentprose: Path | None) -> str:
    """One row of the table for ``site``."""
    out = builds.out_dir(checkouts, site, "mcp")
    if agentprose is not None:
        venv = ensure_venv(checkouts, site, checkouts / ".logs" / f"{site.name}-pip.log")
        result = builds.build(site, checkouts, python_of(venv), "mcp", agentprose,
                              markers=False)
        if result.exit_code != 0:
            return f"| {site.name} | build failed (exit {result.exit_code}) | | | | |"
    if not (out / "agentprose-search.json").is_file():
        return f"| {site.name} | no agentprose-search.json | | | | |"
    reading = Reading(FolderSource(out))
    calls = _calls(reading)
    started = time.perf_counter()
    expected = _python(reading, calls)
    python_seconds = time.perf_counter() - started
    started = time.perf_counter()
    done = subprocess.run([shutil.which("node") or "node",
                           str(REPOSITORY / "tests" / "js" / "mcp_tools.mjs"), str(out)],
                          input=json.dumps(calls), capture_output=True, text=True, check=False)
    node_seconds = time.perf_counter() - started
    if done.returncode != 0:
        return f"| {site.name} | node failed: {done.stderr.strip()[-120:]} | | | | |"
    ours = json.loads(done.stdout)
    differing = [(call, got, want) for call, got, want in zip(calls, ours, expected, strict=True)
                 if got != want]
    if differing:
        folder = checkouts / ".mcp-parity"
        folder.mkdir(exist_ok=True)
        (folder / f"{site.name}.json").write_text(json.dumps(differing[0], indent=2,
                                                              ensure_ascii=False))
    searches = sum(name == "search_docs" for name, _ in calls)
    return (f"| {site.name} | {len(reading.site.posts)} | {len(calls)} ({searches} searches) | "
            f"{len(differing)} | {python_seconds:.1f} | {node_seconds:.1f} |")


def _over_http(command: list[str], calls: list[Any]) -> list[list[Any]]:
    """Every call's ``[text, is_error]`` from the endpoint ``command`` serves."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True) as process:
        try:
            assert process.stdout is not None
            origin = process.stdout.readline().strip().removeprefix("http://")
            host, port = origin.rstrip("/").rsplit(":", 1)
            client = Client(host, int(port), HOST_BASE + "mcp")
            answers = []
            for name, arguments in calls:
                result = client.call(name, arguments)["result"]
                answers.append([result["content"][0]["text"], bool(result["isError"])])
            return answers
        finally:
            process.kill()


def compare_hosts(site: site_list.Site, checkouts: Path) -> list[str]:
    """One row per host for ``site`` (its ``mcp`` build, made by an earlier run)."""
    out = builds.out_dir(checkouts, site, "mcp")
    if not (out / "agentprose-search.json").is_file():
        return [f"| {site.name} | no agentprose-search.json: run without --hosts first | | | |"]
    reading = Reading(FolderSource(out))
    calls = _calls(reading)
    expected = _python(reading, calls)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for host in MCP_HOSTS:
            command = host_command(host, out, Path(folder))
            if isinstance(command, str):
                raise SystemExit(f"{command} is missing: make mcp-hosts")
            started = time.perf_counter()
            got = _over_http(command, calls)
            seconds = time.perf_counter() - started
            differing = sum(a != b for a, b in zip(got, expected, strict=True))
            rows.append(f"| {site.name} | {host} | {len(reading.site.posts)} | {len(calls)} | "
                        f"{differing} | {seconds:.1f} |")
    return rows


def main() -> int:
    arguments = _arguments()
    checkouts, chosen, agentprose = sites_and_snapshot(arguments)
    if arguments.hosts:
        print("| site | host | pages | calls | differing answers | seconds (over HTTP) |")
        print("|---|---|---|---|---|---|")
    else:
        print("| site | pages | calls | differing answers | Python s | Node s (whole process) |")
        print("|---|---|---|---|---|---|")
    for site in chosen:
        print(f"  {site.name} ...", file=sys.stderr, flush=True)
        rows = compare_hosts(site, checkouts) if arguments.hosts else \
            [compare(site, checkouts, agentprose)]
        print("\n".join(rows), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
