"""The MCP endpoint as one function file per static host (issue 44): the bundle joins
every module of ``agentprose_core/mcp/static`` and nothing else, each host's file names
where it goes and what it answers, and ``agentprose mcp-function`` writes it without
losing a file it did not write. The files answering under the hosts' runtimes are
tests/test_mcp_endpoint.py's."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from agentprose_core.cli import main
from agentprose_core.errors import InputError
from agentprose_core.hosting.mcp_functions import (
    MCP_HOSTS,
    VERCEL_FUNCTION,
    endpoint_bundle,
    mcp_function,
)

from .test_mcp_endpoint import ROOT

if TYPE_CHECKING:
    from pathlib import Path

STATIC = ROOT / "agentprose_core" / "mcp" / "static"


def test_the_bundle_holds_every_module_and_its_exports() -> None:
    bundle = endpoint_bundle()
    for module in sorted(STATIC.glob("*.mjs")):
        source = module.read_text(encoding="utf-8")
        assert f"// --- {module.name}\n" in bundle
        exported = re.findall(r"^export (?:async )?(?:function\*? ?|class |const )(\w+)",
                              source, re.MULTILINE)
        returned = re.search(rf"// --- {re.escape(module.name)}\n.*?\nreturn \{{ ([^}}]*) \}};",
                             bundle, re.DOTALL)
        assert returned is not None
        assert returned[1].split(", ") == exported, module.name
    assert not re.search(r"^(?:import|export)\b", bundle, re.MULTILINE)
    assert '"name": "search_docs"' in bundle  # the tool list, inlined


@pytest.mark.parametrize(("host", "path", "entry"), [
    ("cloudflare", "functions/docs/mcp.js", "export async function onRequest("),
    ("netlify", "netlify/edge-functions/agentprose-mcp.js",
     'export const config = { path: "/docs/mcp" };'),
    ("vercel", VERCEL_FUNCTION, "export default {\n  fetch(request) {"),
])
def test_each_host_gets_its_file(host: str, path: str, entry: str) -> None:
    made = mcp_function(host, base_path="/docs/")
    assert made.path == path
    assert made.text.startswith(f"// {path} (")
    assert "agentprose's MCP endpoint at /docs/mcp," in made.text.splitlines()[0]
    assert 'const BASE = "/docs/";' in made.text
    assert entry in made.text
    assert len(re.findall(r"^export ", made.text, re.MULTILINE)) == (2 if host == "netlify" else 1)


def test_the_endpoint_path() -> None:
    assert mcp_function("cloudflare", endpoint="/mcp").path == "functions/mcp.js"
    assert mcp_function("cloudflare", base_path="/docs/",
                        endpoint="https://docs.example/v2/mcp").path == "functions/v2/mcp.js"
    netlify = mcp_function("netlify", base_path="docs", endpoint="tools/mcp").text
    assert 'path: "/docs/tools/mcp"' in netlify
    vercel = mcp_function("vercel", base_path="/docs/").text
    assert '"routes": {"src": "^/docs/mcp$", "dest": "/api/mcp"}' in vercel
    assert "routes" not in mcp_function("vercel", endpoint="/api/mcp").text
    for wrong in ("../mcp", "a/./b", "", "mcp/", "m?x"):
        with pytest.raises(InputError, match="must be a URL path like /docs/mcp"):
            mcp_function("netlify", endpoint=wrong)
    with pytest.raises(InputError, match="host must be one of cloudflare, netlify, vercel"):
        mcp_function("github")


def test_the_command_writes_the_file_and_keeps_anyone_elses(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for host in MCP_HOSTS:
        assert main(["mcp-function", host, "--base-path", "/docs/", "--out",
                     str(tmp_path)]) == 0
        made = mcp_function(host, base_path="/docs/")
        assert (tmp_path / made.path).read_text(encoding="utf-8") == made.text
    assert main(["mcp-function", "netlify", "--out", str(tmp_path)]) == 0  # its own file
    theirs = tmp_path / VERCEL_FUNCTION
    theirs.write_text("export default { fetch: () => new Response('mine') };\n",
                      encoding="utf-8")
    capsys.readouterr()
    assert main(["mcp-function", "vercel", "--out", str(tmp_path)]) == 2
    assert "agentprose did not write it" in capsys.readouterr().err
    assert "mine" in theirs.read_text(encoding="utf-8")
    assert main(["mcp-function", "vercel"]) == 0
    assert capsys.readouterr().out == mcp_function("vercel").text
