"""What the MCP endpoint over HTTP costs on a large site, side by side: the JavaScript
endpoint under Node (as a static host's function runs it) and ``agentprose serve --mcp``
(Python), on one generated site of N pages with its ``agentprose-search.json``::

    .venv/bin/python bench/mcp_endpoint.py [--pages 5000] [--calls 200]

The site is bench/mcp.py's (bodies of ~3.5 KB from a 6,000-word vocabulary). For each
endpoint: the cold start (process start, or server start, to the first answered search:
loading agentprose.json and the search index included), then p50 / p95 of each tool
over HTTP on one kept-alive connection, a few hundred calls each, in one run.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from agentprose_core.mcp.http import McpEndpoint  # noqa: E402
from agentprose_core.mcp.sources import FolderSource  # noqa: E402
from agentprose_core.search.index import SearchIndex, document_of  # noqa: E402
from agentprose_core.search.links import links_between  # noqa: E402
from agentprose_core.serve.server import make_server  # noqa: E402
from bench.mcp import _vocabulary, write_index  # noqa: E402


def write_site(folder: Path, pages: int) -> list[dict[str, Any]]:
    """The generated index, its views and its search file; the posts."""
    index = write_index(folder, pages)
    data = json.loads(index.read_text(encoding="utf-8"))
    posts = data["posts"]
    for post in posts:  # the views get_page reads
        view = (f'---\ntitle: "{post["title"]}"\ncanonical: "{post["url"]}"\n'
                f'modified: "{post["modified"]}"\n---\n\n{post["markdown"]}\n')
        (folder / post["markdown_url"].removeprefix("https://docs.example/")).write_text(
            view, encoding="utf-8")
    search = SearchIndex.build([document_of(p["title"], [(h["title"], h["id"])
                                                          for h in p["headings"]],
                                            p["summary"], p["markdown"]) for p in posts])
    (folder / "agentprose-search.json").write_text(json.dumps({
        "version": 1, "generator": "bench", "posts": [p["url"] for p in posts],
        **search.to_data(), "links": links_between(
            [(p["url"], p["markdown_url"]) for p in posts], [p["markdown"] for p in posts])},
        separators=(",", ":")), encoding="utf-8")
    return list(posts)


def _calls(posts: list[dict[str, Any]], count: int) -> dict[str, list[dict[str, Any]]]:
    rng = random.Random(11)
    words = _vocabulary(random.Random(7))
    chosen = [rng.choice(posts) for _ in range(count)]
    return {
        "search_docs": [{"query": " ".join(rng.choice(words[:2000])
                                           for _ in range(rng.randint(1, 4)))}
                        for _ in range(count)],
        "get_page": [{"url_or_path": p["url"]} for p in chosen],
        "get_section": [{"url_or_path": p["url"], "heading": p["headings"][-1]["id"]}
                        for p in chosen],
        "table_of_contents": [{"url_or_path": p["url"]} for p in chosen],
        "list_pages": [{"offset": rng.randrange(len(posts))} for _ in range(count)],
        "related_pages": [{"url_or_path": p["url"]} for p in chosen[: max(10, count // 4)]],
        "site_info": [{} for _ in range(20)],
    }


class Client:
    """One kept-alive connection posting JSON-RPC to an endpoint."""

    def __init__(self, host: str, port: int, path: str) -> None:
        self.connection = http.client.HTTPConnection(host, port, timeout=120)
        self.path = path
        self.number = 0

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.call_method("tools/call", {"name": name, "arguments": arguments})

    def call_method(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.number += 1
        body = json.dumps({"jsonrpc": "2.0", "id": self.number, "method": method,
                           "params": params or {}})
        self.connection.request("POST", self.path, body, {
            "content-type": "application/json", "accept": "application/json, text/event-stream"})
        response = self.connection.getresponse()
        answer: dict[str, Any] = json.loads(response.read())
        if response.getheader("connection", "").lower() == "close":
            self.connection.close()
        return answer


def _measure(client: Client, calls: dict[str, list[dict[str, Any]]]) -> dict[str, str]:
    figures = {}
    for name, arguments in calls.items():
        times = []
        for given in arguments:
            start = time.perf_counter()
            answer = client.call(name, given)
            times.append((time.perf_counter() - start) * 1000)
            assert "result" in answer, answer
        times.sort()
        figures[name] = (f"{statistics.median(times):.1f} / "
                         f"{times[max(0, int(len(times) * 0.95) - 1)]:.1f}")
    return figures


def _node(folder: Path, calls: dict[str, list[dict[str, Any]]]) -> tuple[float, dict[str, str]]:
    start = time.perf_counter()
    with subprocess.Popen([shutil.which("node") or "node",
                           str(HERE.parent / "tests" / "js" / "serve_endpoint.mjs"),
                           str(folder)], stdout=subprocess.PIPE, text=True) as process:
        try:
            assert process.stdout is not None
            port = int(process.stdout.readline().strip().rsplit(":", 1)[1].strip("/"))
            client = Client("127.0.0.1", port, "/mcp")
            client.call("search_docs", {"query": "first"})
            cold = time.perf_counter() - start
            return cold, _measure(client, calls)
        finally:
            process.kill()


def _python(folder: Path, calls: dict[str, list[dict[str, Any]]]) -> tuple[float, dict[str, str]]:
    start = time.perf_counter()
    server = make_server(folder, port=0, quiet=True, endpoint=McpEndpoint(FolderSource(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        client = Client("127.0.0.1", int(server.server_address[1]), "/mcp")
        client.call("search_docs", {"query": "first"})
        cold = time.perf_counter() - start
        return cold, _measure(client, calls)
    finally:
        server.shutdown()
        server.server_close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        posts = write_site(folder, args.pages)
        sizes = {file: (folder / file).stat().st_size / 2**20
                 for file in ("agentprose.json", "agentprose-search.json")}
        print(f"{args.pages} pages: agentprose.json {sizes['agentprose.json']:.1f} MiB, "
              f"agentprose-search.json {sizes['agentprose-search.json']:.1f} MiB")
        calls = _calls(posts, args.calls)
        node_cold, node = _node(folder, calls)
        python_cold, python = _python(folder, calls)
    print(f"\n| | JavaScript endpoint (Node {_node_version()}) | agentprose serve --mcp |")
    print("|---|---|---|")
    print(f"| cold start to the first search | {node_cold:.2f} s | {python_cold:.2f} s |")
    for name in calls:
        print(f"| {name} p50 / p95 ms ({len(calls[name])} calls) | {node[name]} | "
              f"{python[name]} |")
    return 0


def _node_version() -> str:
    return subprocess.run([shutil.which("node") or "node", "--version"], capture_output=True,
                          text=True, check=False).stdout.strip()


if __name__ == "__main__":
    raise SystemExit(main())
