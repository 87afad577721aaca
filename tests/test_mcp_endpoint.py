"""The MCP endpoint over HTTP (issue 44) driven by the official MCP SDK's Streamable
HTTP client: the JavaScript under Node (tests/js/serve_endpoint.mjs: the site's files and
the endpoint on one origin, as a static host's function), ``agentprose serve --mcp``, and
the function generated for each static host under that host's local runtime
(tests/js/hosts/: Cloudflare's workerd by Miniflare, Deno for Netlify, Node.js with
Vercel's Web signature), the site under a sub-path.
Initialize, the seven tools as ``agentprose mcp`` lists them, answers equal to
``agentprose mcp``'s on the same site (a search, a page, a section, a missing page, a URL
on another origin, a bad argument), and the bounds: an oversized request, GET, a method
it does not have."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from agentprose_core.hosting.mcp_functions import MCP_HOSTS
from agentprose_core.mcp import tools
from agentprose_core.mcp.http import McpEndpoint
from agentprose_core.mcp.server import Reading, make_server, run_tool
from agentprose_core.mcp.sources import FolderSource

from .host_runtimes import HOST_BASE, host_command
from .test_mcp_js import _node
from .test_search_file import built  # noqa: F401  (the built sites)
from .test_serve import _running

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parent.parent
TOOL_LIST = ROOT / "agentprose_core" / "mcp" / "static" / "tool-list.json"


def _command(host: str, site: Path, folder: Path) -> list[str]:
    command = host_command(host, site, folder)
    if isinstance(command, str):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{command} is missing (.ci/run installs it)")
        pytest.skip(f"{command} is not installed here")
    return command


@contextmanager
def _serving(command: list[str], path: str) -> Iterator[str]:
    """Runs ``command`` (which prints its origin) and yields ``origin + path``."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True) as process:
        try:
            assert process.stdout is not None
            origin = process.stdout.readline().strip().rstrip("/")
            assert origin.startswith("http://127.0.0.1:"), (command, origin)
            yield origin + path
        finally:
            process.kill()


@contextmanager
def _endpoint_of(kind: str, site: Path, folder: Path) -> Iterator[str]:
    """The endpoint beside the site's files, by ``kind``: the JavaScript under Node, a
    host's generated function under its runtime, or ``agentprose serve --mcp``."""
    if kind == "serve":
        with _running(site, endpoint=McpEndpoint(FolderSource(site))) as url:
            yield url + "mcp"
    elif kind == "node":
        with _serving([_node(), str(ROOT / "tests" / "js" / "serve_endpoint.mjs"), str(site)],
                      "/mcp") as url:
            yield url
    else:
        with _serving(_command(kind, site, folder), HOST_BASE + "mcp") as url:
            yield url


@pytest.fixture(params=["node", "serve", *MCP_HOSTS])
def endpoint(request: pytest.FixtureRequest, built: Path,  # noqa: F811
             tmp_path: Path) -> Iterator[str]:
    """The endpoint beside the site's files: the JavaScript under Node, ``agentprose serve
    --mcp``, or each host's function under that host's runtime (Cloudflare's workerd by
    Miniflare, Netlify's Deno, Vercel's Node.js with its Web signature)."""
    with _endpoint_of(request.param, built, tmp_path) as url:
        yield url


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


@pytest.mark.parametrize("kind", ["node", "cloudflare"])
def test_a_site_without_its_search_file_says_what_to_set(built: Path,  # noqa: F811
                                                         tmp_path: Path, kind: str) -> None:
    """On Cloudflare too, whose Pages answer a missing file of a site without a
    top-level ``404.html`` (a Sphinx site) with the home page."""
    import shutil as files

    site = tmp_path / "site"
    files.copytree(built, site)
    (site / "agentprose-search.json").unlink()
    with _endpoint_of(kind, site, tmp_path) as url:
        _, answer = _post(url, json.dumps({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "site_info", "arguments": {}}}).encode())
    assert answer["result"]["isError"] is True
    assert "mcp_endpoint option" in answer["result"]["content"][0]["text"]


def test_a_host_function_whose_site_does_not_answer(built: Path,  # noqa: F811
                                                    tmp_path: Path) -> None:
    """Vercel's function reads the site from the request's origin: an origin that
    refuses the connection gives a tool error that says so, not a failed request."""
    import http.client

    with _endpoint_of("vercel", built, tmp_path) as url:
        origin = url.removeprefix("http://").split("/", 1)[0]
        connection = http.client.HTTPConnection(origin, timeout=10)
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                           "params": {"name": "site_info", "arguments": {}}})
        connection.request("POST", HOST_BASE + "mcp", body, {
            "Host": "127.0.0.1:9", "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        connection.close()
    assert response.status == 200
    assert answer["result"]["isError"] is True
    assert answer["result"]["content"][0]["text"] == \
        "cannot read the site: agentprose.json answered nothing"
