"""What the MCP endpoint costs on each static host's runtime, side by side, by site size:
the function ``agentprose mcp-function`` writes for Cloudflare (workerd, by Miniflare),
Netlify (Deno) and Vercel (Node.js), each serving a generated site of N pages with its
files on the same origin (tests/js/hosts/)::

    .venv/bin/python bench/mcp_hosts.py [--pages 100,1000,5000] [--calls 100] [--no-bodies]

Per host and size: the runtime's start, the first call (it loads agentprose.json and
agentprose-search.json: what a cold instance pays once), the memory that load adds to the
runtime's processes (RSS), and p50 / p95 of search_docs and
get_page. Needs ``make mcp-hosts``. The site is bench/mcp_endpoint.py's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from agentprose_core.hosting.mcp_functions import MCP_HOSTS  # noqa: E402
from bench.mcp_endpoint import Client, _calls, write_site  # noqa: E402
from tests.host_runtimes import HOST_BASE, host_command  # noqa: E402


def _tree_rss(pid: int) -> float:
    """The resident memory of a process and its descendants, MiB (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        todo += children.get(current, [])
        try:
            status = Path(f"/proc/{current}/status").read_text()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in status.splitlines()
                       if line.startswith("VmRSS:")), 0)
    return total / 1024


def _quantiles(times: list[float]) -> str:
    times.sort()
    return f"{statistics.median(times):.1f} / {times[max(0, int(len(times) * 0.95) - 1)]:.1f}"


def _host(host: str, site: Path, folder: Path, calls: dict[str, list[dict[str, object]]]
          ) -> list[str]:
    command = host_command(host, site, folder)
    if isinstance(command, str):
        raise SystemExit(f"{command} is missing: make mcp-hosts")
    start = time.perf_counter()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True) as process:
        try:
            assert process.stdout is not None
            origin = process.stdout.readline().strip()
            started = time.perf_counter() - start
            host_name, port = origin.removeprefix("http://").rsplit(":", 1)
            client = Client(host_name, int(port.strip("/")), HOST_BASE + "mcp")
            client.call_method("ping")  # the connection and the runtime's first request
            before = _tree_rss(process.pid)
            first = time.perf_counter()
            assert "result" in client.call("site_info", {})
            loaded = time.perf_counter() - first
            memory = _tree_rss(process.pid) - before
            figures = []
            for name in ("search_docs", "get_page"):
                times = []
                for arguments in calls[name]:
                    begun = time.perf_counter()
                    assert "result" in client.call(name, arguments)
                    times.append((time.perf_counter() - begun) * 1000)
                figures.append(_quantiles(times))
            return [f"{started:.2f} s", f"{loaded * 1000:.0f} ms", f"{memory:.0f} MiB",
                    *figures]
        finally:
            process.kill()


def _without_bodies(index: Path) -> None:
    data = json.loads(index.read_text(encoding="utf-8"))
    for post in data["posts"]:
        post.pop("markdown", None)
    index.write_text(json.dumps(data), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pages", default="100,1000,5000")
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--no-bodies", action="store_true",
                        help="leave the bodies out of agentprose.json (index_markdown: "
                        "false): the function reads a page's view when asked")
    args = parser.parse_args()
    print("| pages | host | runtime start | first call (loads the site) | memory it adds "
          "| search_docs p50 / p95 ms | get_page p50 / p95 ms |")
    print("|---|---|---|---|---|---|---|")
    for pages in (int(p) for p in args.pages.split(",")):
        with tempfile.TemporaryDirectory() as name:
            site = Path(name) / "site"
            site.mkdir()
            posts = write_site(site, pages)
            if args.no_bodies:
                _without_bodies(site / "agentprose.json")
            calls = _calls(posts, args.calls)
            size = sum((site / f).stat().st_size for f in
                       ("agentprose.json", "agentprose-search.json")) / 2**20
            for host in MCP_HOSTS:
                row = _host(host, site, Path(name), calls)
                print(f"| {pages:,} ({size:.1f} MiB) | {host} | {' | '.join(row)} |",
                      flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
