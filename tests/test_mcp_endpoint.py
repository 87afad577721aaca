"""The MCP endpoint over HTTP (issue 44) driven by the official MCP SDK's Streamable
HTTP client: the JavaScript under Node (tests/js/serve_endpoint.mjs: the site's files and
the endpoint on one origin, as a static host's function) and ``agentprose serve --mcp``.
Initialize, the seven tools as ``agentprose mcp`` lists them, answers equal to
``agentprose mcp``'s on the same site (a search, a page, a section, a missing page, a URL
on another origin, a bad argument), and the bounds: an oversized request, GET, a method
it does not have."""

from __future__ import annotations

import json
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from agentprose_core.mcp import tools
from agentprose_core.mcp.http import McpEndpoint
from agentprose_core.mcp.server import Reading, make_server, run_tool
from agentprose_core.mcp.sources import FolderSource

from .test_mcp_js import _node
from .test_search_file import built  # noqa: F401  (the built sites)
from .test_serve import _running

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parent.parent
TOOL_LIST = ROOT / "agentprose_core" / "mcp" / "static" / "tool-list.json"


@pytest.fixture(params=["node", "serve"])
def endpoint(request: pytest.FixtureRequest, built: Path) -> Iterator[str]:  # noqa: F811
    """The endpoint beside the site's files: the JavaScript under Node, or
    ``agentprose serve --mcp``."""
    if request.param == "serve":
        with _running(built, endpoint=McpEndpoint(FolderSource(built))) as url:
            yield url + "mcp"
        return
    with subprocess.Popen([_node(), str(ROOT / "tests" / "js" / "serve_endpoint.mjs"),
                           str(built)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True) as process:
        try:
            assert process.stdout is not None
            url = process.stdout.readline().strip()
            assert url.startswith("http://127.0.0.1:"), url
            yield url + "mcp"
        finally:
            process.kill()


def test_the_shipped_tool_list_is_what_agentprose_mcp_lists() -> None:
    async def listed() -> list[dict[str, Any]]:
        server = make_server(FolderSource(Path("/nonexistent")))
        return [tool.model_dump(by_alias=True, exclude_none=True)
                for tool in await server.list_tools()]

    assert json.loads(TOOL_LIST.read_text(encoding="utf-8")) == anyio.run(listed), \
        "a tool changed: write agentprose_core/mcp/static/tool-list.json again"


def _calls(reading: Reading) -> list[tuple[str, dict[str, Any]]]:
    post = reading.site.posts[-1]
    heading = post.headings[0].id if post.headings else "none"
    return [("site_info", {}), ("search_docs", {"query": post.title}),
            ("search_docs", {"query": "install", "limit": 3}),
            ("get_page", {"url_or_path": post.url}),
            ("get_section", {"url_or_path": post.url, "heading": heading}),
            ("table_of_contents", {"url_or_path": post.markdown_url}),
            ("related_pages", {"url_or_path": post.url}),
            ("list_pages", {"limit": 5}),
            ("get_page", {"url_or_path": "no/such/page/"}),
            ("get_page", {"url_or_path": "https://elsewhere.example/secret"}),
            ("search_docs", {"query": "   "})]


_DEFAULTS = {"search_docs": {"limit": 10}, "get_page": {"part": 1}, "get_section": {"part": 1},
             "related_pages": {"limit": 5},
             "list_pages": {"section": "", "tag": "", "since": "", "limit": 50, "offset": 0}}


def _expected(reading: Reading, name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
    try:
        return tools.capped(run_tool(reading, name, {**_DEFAULTS.get(name, {}),
                                                      **arguments})), False
    except ValueError as error:
        return tools.capped(str(error), 4_000), True


def test_the_sdk_client_gets_agentprose_mcps_answers(built: Path,  # noqa: F811
                                                     endpoint: str) -> None:
    reading = Reading(FolderSource(built))
    calls = _calls(reading)

    async def session() -> tuple[Any, list[Any], list[tuple[str, bool]]]:
        async with streamable_http_client(endpoint) as streams, \
                ClientSession(*streams[:2]) as client:
            started = await client.initialize()
            listed = (await client.list_tools()).tools
            answers = []
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                answers.append((result.content[0].text, bool(result.is_error)))
            return started, listed, answers

    started, listed, answers = anyio.run(session)
    assert started.server_info.name == "agentprose"
    assert [tool.model_dump(by_alias=True, exclude_none=True) for tool in listed] == \
        json.loads(TOOL_LIST.read_text(encoding="utf-8"))
    for call, answer in zip(calls, answers, strict=True):
        assert answer == _expected(reading, *call), call
    assert [is_error for _, is_error in answers[-3:]] == [True, True, True]


def _post(url: str, body: bytes) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "content-type": "application/json", "accept": "application/json, text/event-stream"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read() or b"{}")


def test_the_endpoint_keeps_its_bounds(endpoint: str) -> None:
    status, answer = _post(endpoint, json.dumps({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "search_docs", "arguments": {"query": "x" * 70_000}}}).encode())
    assert status == 413
    assert "over 65536 bytes" in answer["error"]["message"]
    status, answer = _post(endpoint, b"{not json")
    assert (status, answer["error"]["code"]) == (400, -32700)
    status, answer = _post(endpoint, json.dumps({"jsonrpc": "2.0", "id": 2,
                                                 "method": "resources/read"}).encode())
    assert (status, answer["error"]["code"]) == (200, -32601)
    status, answer = _post(endpoint, json.dumps({
        "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "search_docs", "arguments": {"query": "crabs", "limit": "many"}}
    }).encode())
    assert answer["result"]["isError"] is True
    assert "'limit' must be a whole number" in answer["result"]["content"][0]["text"]
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(endpoint, timeout=10)
    with refused.value as error:
        assert error.code == 405
        assert error.headers["allow"] == "POST, OPTIONS"


def test_serve_asks_for_a_length(built: Path) -> None:  # noqa: F811
    import socket

    with _running(built, endpoint=McpEndpoint(FolderSource(built))) as url:
        port = int(url.rsplit(":", 1)[1].strip("/"))
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            connection.sendall(b"POST /mcp HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked"
                               b"\r\nContent-Type: application/json\r\n\r\n0\r\n\r\n")
            assert connection.recv(200).startswith(b"HTTP/1.1 411 ")


def test_a_site_without_its_search_file_says_what_to_set(built: Path,  # noqa: F811
                                                         tmp_path: Path) -> None:
    import shutil as files

    site = tmp_path / "site"
    files.copytree(built, site)
    (site / "agentprose-search.json").unlink()
    with subprocess.Popen([_node(), str(ROOT / "tests" / "js" / "serve_endpoint.mjs"),
                           str(site)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True) as process:
        try:
            assert process.stdout is not None
            url = process.stdout.readline().strip() + "mcp"
            _, answer = _post(url, json.dumps({
                "jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "site_info", "arguments": {}}}).encode())
        finally:
            process.kill()
    assert answer["result"]["isError"] is True
    assert "mcp_endpoint option" in answer["result"]["content"][0]["text"]
