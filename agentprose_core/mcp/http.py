"""The MCP endpoint of ``agentprose serve --mcp``: Streamable HTTP, stateless, read-only.

The same protocol as the remote endpoint's JavaScript (``mcp/static/endpoint.mjs``):
one JSON-RPC message per ``POST``, answered with one JSON document; ``initialize``
(the handshake versions up to 2025-11-25), ``ping``, ``tools/list`` (the listing of
``tool-list.json``, which is ``agentprose mcp``'s own) and ``tools/call``
(:func:`~agentprose_core.mcp.server.run_tool`); any other method is ``-32601``. No SDK
is needed. Requests of more than :data:`MAX_REQUEST_BYTES` are refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentprose_core.mcp import tools
from agentprose_core.mcp.server import Docs, run_tool
from agentprose_core.mcp.site import IndexProblem
from agentprose_core.mcp.sources import CallLimit, FolderSource, Source
from agentprose_core.model import SiteRecord
from agentprose_core.render.discovery import (
    DISCOVERY_ROOT,
    MCP_PROTOCOL_VERSIONS,
    discovery_files,
    tool_list,
)
from agentprose_core.serve.server import ENDPOINT_MAX_BYTES
from agentprose_core.version import __version__

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["MAX_REQUEST_BYTES", "HttpAnswer", "McpEndpoint", "tool_list"]

MAX_REQUEST_BYTES = ENDPOINT_MAX_BYTES
_VERSIONS = MCP_PROTOCOL_VERSIONS
_ERROR_CHARS = 4_000
_INSTRUCTIONS = ("Tools over this documentation site: search it, list its pages, read a "
                 "page, its outline or one section. Start with site_info or search_docs; "
                 "cite the page URLs the tools give.")
_ALLOWED_HEADERS = "content-type, accept, mcp-protocol-version, mcp-session-id"
_JSON = (("Content-Type", "application/json"), ("Cache-Control", "no-store"),
         ("Access-Control-Allow-Origin", "*"))


@dataclass(frozen=True)
class HttpAnswer:
    """What to send back: a status, headers and a body."""
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes = b""


def _json(data: object, status: int = 200) -> HttpAnswer:
    return HttpAnswer(status, _JSON, json.dumps(data, ensure_ascii=False).encode("utf-8"))


def _failure(ident: object, code: int, message: str, status: int = 200) -> HttpAnswer:
    return _json({"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}},
                 status)


def _arguments(tool: Mapping[str, Any], given: object) -> dict[str, Any]:
    """The call's arguments with the schema's defaults; a ValueError naming what is wrong."""
    schema = tool["inputSchema"]
    args = given if isinstance(given, dict) else {}
    for name in schema.get("required", []):
        if name not in args:
            raise ValueError(f"{tool['name']} needs the argument '{name}'")
    found = {}
    for name, spec in schema["properties"].items():
        value = args.get(name, spec.get("default"))
        if spec.get("type") == "integer":
            if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
                value = int(value)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{tool['name']}: '{name}' must be a whole number")
        elif not isinstance(value, str):
            raise ValueError(f"{tool['name']}: '{name}' must be text")
        found[name] = value
    return found


class McpEndpoint:
    """The endpoint for one site: :meth:`answer` takes a request and gives the answer."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.docs = Docs(source)

    def answer(self, method: str, body: bytes) -> HttpAnswer:
        """The answer to a request of ``method`` with ``body`` (at most
        :data:`MAX_REQUEST_BYTES`: the caller refuses longer ones with :meth:`too_large`)."""
        if method == "OPTIONS":
            return HttpAnswer(204, (("Access-Control-Allow-Origin", "*"),
                                    ("Access-Control-Allow-Methods", "POST"),
                                    ("Access-Control-Allow-Headers", _ALLOWED_HEADERS)))
        if method != "POST":
            return HttpAnswer(405, (("Allow", "POST, OPTIONS"),
                                    ("Content-Type", "text/plain; charset=utf-8")),
                              b"This MCP endpoint answers POST requests (Streamable HTTP, "
                              b"no event stream).\n")
        try:
            message = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return _failure(None, -32700, "the request is not JSON", 400)
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return _failure(None, -32600, "send one JSON-RPC 2.0 message", 400)
        if "method" not in message or "id" not in message:
            return HttpAnswer(202, ())  # a notification or a response
        return self._message(message["id"], message["method"], message.get("params"))

    def advertised(self, path: str, base_url: str) -> HttpAnswer | None:
        """The discovery file at ``path`` (under the site, ``.well-known/…``) for this
        endpoint at ``base_url + "mcp"``, when the folder has none of its own (built
        without ``mcp_endpoint``): ``serve --mcp`` advertises what it serves. None for
        any other path, a site under a sub-path, or a folder whose index cannot be read."""
        if not path.startswith(".well-known/") or not isinstance(self.source, FolderSource) \
                or (self.source.folder / DISCOVERY_ROOT).exists():
            return None
        try:
            site = self.docs.loaded().site
        except IndexProblem:
            return None
        record = SiteRecord(name=site.name, url=base_url, description=site.description or None)
        found, _ = discovery_files(record, [(p.url, p.markdown_url) for p in site.posts[:2]],
                                   base_url + "mcp", version=__version__)
        if path not in found:
            return None
        kind = "application/json" if path.endswith(".json") else "text/markdown; charset=utf-8"
        return HttpAnswer(200, (("Content-Type", kind), ("Access-Control-Allow-Origin", "*")),
                          found[path].encode("utf-8"))

    @staticmethod
    def too_large() -> HttpAnswer:
        """The answer to a request whose body is over :data:`MAX_REQUEST_BYTES`."""
        return _failure(None, -32600, f"the request is over {MAX_REQUEST_BYTES} bytes", 413)

    def _message(self, ident: object, method: object, params: object) -> HttpAnswer:
        params = params if isinstance(params, dict) else {}
        if method == "initialize":
            asked = params.get("protocolVersion")
            return _json({"jsonrpc": "2.0", "id": ident, "result": {
                "protocolVersion": asked if asked in _VERSIONS else _VERSIONS[0],
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": "agentprose", "version": __version__},
                "instructions": _INSTRUCTIONS}})
        if method == "ping":
            return _json({"jsonrpc": "2.0", "id": ident, "result": {}})
        if method == "tools/list":
            return _json({"jsonrpc": "2.0", "id": ident, "result": {"tools": tool_list()}})
        if method == "tools/call":
            return self._call(ident, params)
        return _failure(ident, -32601, f"Method not found: {method}")

    def _call(self, ident: object, params: Mapping[str, Any]) -> HttpAnswer:
        tool = next((tool for tool in tool_list() if tool["name"] == params.get("name")), None)
        if tool is None:
            return _failure(ident, -32602, f"Unknown tool: {params.get('name')}")
        error = True
        try:
            arguments = _arguments(tool, params.get("arguments"))
            self.source.begin_call()
            text, error = tools.capped(run_tool(self.docs.loaded(), tool["name"], arguments)), False
        except (ValueError, CallLimit) as problem:
            text = tools.capped(str(problem), _ERROR_CHARS)
        except IndexProblem as problem:
            self.docs.forget()
            text = tools.capped(f"cannot read the site at {self.source.name}: {problem}",
                                _ERROR_CHARS)
        result: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": error}
        if not error:
            result["structuredContent"] = {"result": text}
        return _json({"jsonrpc": "2.0", "id": ident, "result": result})
