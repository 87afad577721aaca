"""The MCP tools in JavaScript (the remote endpoint's, issue 44) answer every call as
``agentprose mcp`` does, byte for byte and error for error, on this project's docs
(MkDocs) and the example Sphinx site built with ``mcp_endpoint``: every tool on every
page, hundreds of searches, filters, parts, missing pages and sections, bad arguments,
a URL on another origin. Run under Node (tests/js/mcp_tools.mjs)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agentprose_core.mcp import tools
from agentprose_core.mcp.server import Reading, run_tool
from agentprose_core.mcp.sources import FolderSource

from .test_search_file import _queries, built  # noqa: F401  (the built sites)

ROOT = Path(__file__).resolve().parent.parent
Call = tuple[str, dict[str, Any]]


def _node() -> str:
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Node is needed (.ci/run installs it)")
        pytest.skip("no Node here")
    return found


def _calls(reading: Reading) -> list[Call]:
    site = reading.site
    posts = site.posts
    calls: list[Call] = [("site_info", {})]
    calls += [("search_docs", {"query": query, "limit": 10}) for query in _queries(site)]
    calls += [("search_docs", {"query": "page", "limit": limit}) for limit in (1, 3, 500)]
    calls += [("search_docs", {"query": "crab " * 3000, "limit": 10}),
              ("search_docs", {"query": "' \" \\ \n\t é 𝔸 \x07", "limit": 10})]
    section = next((post.section[0] for post in posts if post.section), "")
    calls += [("list_pages", {"section": s, "tag": t, "since": since, "limit": limit,
                              "offset": offset})
              for s, t, since, limit, offset in [
                  ("", "", "", 50, 0), (section, "", "", 50, 0), (section.upper(), "", "", 2, 1),
                  ("", "none", "", 50, 0), ("", "", "2020-01-01", 50, 0),
                  ("", "", "2999-01-01T00:00Z", 50, 0), ("", "", "yesterday", 50, 0),
                  ("", "", "", 3, 5), ("", "", "", 50, 10_000), ("", "", "", 0, -4)]]
    for post in posts:
        calls += [("get_page", {"url_or_path": post.url, "part": 1}),
                  ("table_of_contents", {"url_or_path": post.markdown_url}),
                  ("related_pages", {"url_or_path": post.url, "limit": 5})]
    for post in posts[:12]:
        body = reading.body(post)
        for heading in post.headings[:8]:
            calls += [("get_section", {"url_or_path": post.url, "heading": heading.id,
                                       "part": 1}),
                      ("get_section", {"url_or_path": post.url, "heading": heading.title,
                                       "part": 1})]
        if len(body) > tools.MAX_CHARS:
            calls.append(("get_page", {"url_or_path": post.url, "part": 2}))
        calls.append(("get_section", {"url_or_path": post.url, "heading": "No such part",
                                      "part": 1}))
    path = posts[-1].url.removeprefix(site.url)
    calls += [("get_page", {"url_or_path": path or "/", "part": 1}),
              ("get_page", {"url_or_path": "/" + path, "part": 99}),
              ("get_page", {"url_or_path": "no/such/page/", "part": 1}),
              ("get_page", {"url_or_path": "https://elsewhere.example/", "part": 1}),
              ("get_section", {"url_or_path": posts[0].url, "heading": "  ", "part": 1}),
              ("related_pages", {"url_or_path": posts[0].url, "limit": 0}),
              ("table_of_contents", {"url_or_path": ""})]
    return calls


def _python(reading: Reading, calls: list[Call]) -> list[list[Any]]:
    answers: list[list[Any]] = []
    for name, arguments in calls:
        try:
            answers.append([tools.capped(run_tool(reading, name, arguments)), False])
        except ValueError as error:
            answers.append([tools.capped(str(error), 4_000), True])
    return answers


def test_every_call_answers_as_agentprose_mcp_does(built: Path) -> None:  # noqa: F811
    node = _node()
    reading = Reading(FolderSource(built))
    calls = _calls(reading)
    assert len(calls) > 300
    done = subprocess.run([node, str(ROOT / "tests" / "js" / "mcp_tools.mjs"), str(built)],
                          input=json.dumps(calls), capture_output=True, text=True,
                          check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    ours = json.loads(done.stdout)
    expected = _python(reading, calls)
    for call, got, want in zip(calls, ours, expected, strict=True):
        assert got == want, call
    assert sum(is_error for _, is_error in expected) >= 8
