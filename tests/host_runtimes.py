"""The static hosts' functions under their local runtimes: the command that serves a
built site with a host's generated MCP function beside it (tests/js/hosts/), shared by
tests/test_mcp_endpoint.py and bench/mcp_hosts.py."""

from __future__ import annotations

import shutil
from pathlib import Path

from agentprose_core.hosting.mcp_functions import mcp_function

__all__ = ["HOST_BASE", "RUNTIMES", "host_command"]

ROOT = Path(__file__).resolve().parent.parent
HOSTS = ROOT / "tests" / "js" / "hosts"
RUNTIMES = ROOT / ".ci" / "mcp-hosts" / "node_modules"
HOST_BASE = "/docs/"  # the functions serve the site under a sub-path, at HOST_BASE + "mcp"


def _runtime(name: str) -> Path | None:
    found = RUNTIMES / (".bin/deno" if name == "deno" else "miniflare")
    return found if found.exists() else None


def host_command(host: str, site: Path, folder: Path) -> list[str] | str:
    """The command that serves ``site`` under ``HOST_BASE`` with ``host``'s function
    (written into ``folder``) at ``HOST_BASE + "mcp"``, under that host's runtime; it
    prints its origin. A string instead: what is missing (``make mcp-hosts``, Node)."""
    made = mcp_function(host, base_path=HOST_BASE)
    function = folder / Path(made.path).name
    function.write_text(made.text, encoding="utf-8")
    endpoint = HOST_BASE + "mcp"
    node = shutil.which("node")
    if host == "netlify":
        deno = _runtime("deno")
        return "deno (make mcp-hosts)" if deno is None else [
            str(deno), "run", "--allow-net=127.0.0.1", "--allow-read",
            str(HOSTS / "netlify.mjs"), str(function), str(site), HOST_BASE]
    if node is None:
        return "Node"
    if host == "cloudflare":
        miniflare = _runtime("miniflare")
        return "miniflare (make mcp-hosts)" if miniflare is None else [
            node, str(HOSTS / "cloudflare.mjs"),
            (miniflare / "dist" / "src" / "index.js").as_uri(), str(function), str(site),
            HOST_BASE, endpoint]
    return [node, str(HOSTS / "vercel.mjs"), str(function), str(site), HOST_BASE, endpoint]
