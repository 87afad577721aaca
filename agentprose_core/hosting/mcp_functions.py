"""The remote MCP endpoint as one function file for a static host: Cloudflare Pages,
Netlify Edge Functions, Vercel.

The endpoint is the JavaScript of ``agentprose_core/mcp/static/`` (a port of the tools of
``agentprose mcp``, held to the same answers by the tests). A host's function is one file
that its platform bundles without a build step of ours, so :func:`endpoint_bundle` joins
the modules into one: each module's body runs in a function of its own and hands its
exports to the modules after it (the same scoping as separate files; the JSON of the
tool list is inlined). Each host's wrapper then gives the endpoint a way to read the
site's own published files from the same deployment (Cloudflare's ``ASSETS`` binding; a
request to the site's own origin on Netlify and Vercel) and nothing else: a path that
leaves the site or names a hidden file is never asked for, and an HTML answer to a
request for a JSON or Markdown file (a host's fallback page) counts as a missing file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib.resources import files
from urllib.parse import urlsplit

from agentprose_core.errors import InputError
from agentprose_core.hosting.accept import regex_escape
from agentprose_core.sitepaths import normalize_base_path
from agentprose_core.version import __version__

__all__ = ["MCP_HOSTS", "VERCEL_FUNCTION", "FunctionFile", "endpoint_bundle", "mcp_function"]

_MODULES = ("text", "search", "markdown", "site", "tools", "endpoint")  # imports first
_IMPORT = re.compile(r'^import \{([^}]*)\} from "\./(\w+)\.mjs";\n', re.MULTILINE)
_JSON_IMPORT = re.compile(
    r'^import (\w+) from "\./([\w-]+\.json)" with \{ type: "json" \};\n', re.MULTILINE)
_EXPORT = re.compile(
    r"^export ((?:async\s+)?function\s*\*?\s*|class\s+|const\s+|let\s+)(\w+)", re.MULTILINE)
_ENDPOINT_NAME = re.compile(r"^/?(?:[A-Za-z0-9._~-]+/)*[A-Za-z0-9._~-]+$")


def _static(name: str) -> str:
    return (files("agentprose_core") / "mcp" / "static" / name).read_text(encoding="utf-8")


def _destructure(names: str) -> str:
    """``a, b as c`` (an import list) -> ``a, b: c`` (a destructuring pattern)."""
    parts = [part.strip() for part in names.split(",") if part.strip()]
    return ", ".join(part.replace(" as ", ": ") for part in parts)


def _module(name: str) -> str:
    source = _static(name + ".mjs")
    source = _IMPORT.sub(lambda m: f"const {{ {_destructure(m[1])} }} = ${m[2]};\n", source)
    source = _JSON_IMPORT.sub(
        lambda m: f"const {m[1]} = {json.dumps(json.loads(_static(m[2])))};\n", source)
    exported = [m[2] for m in _EXPORT.finditer(source)]
    body = _EXPORT.sub(lambda m: m[1] + m[2], source)
    if re.search(r"^(?:import|export)\b", body, re.MULTILINE):
        raise AssertionError(f"{name}.mjs: an import or export the bundle cannot join")
    return (f"// --- {name}.mjs\nconst ${name} = (() => {{\n{body.rstrip()}\n"
            f"return {{ {', '.join(exported)} }};\n}})();\n")


def endpoint_bundle() -> str:
    """The endpoint's modules as one script that ends with ``createEndpoint`` in scope."""
    return ("".join(_module(name) for name in _MODULES)
            + "const { createEndpoint } = $endpoint;\n")


# Reads the site's own files: `get(url)` fetches one URL of this deployment.
_SITE_FILES = r"""
// A file of the site by its path under BASE, or null: never a path that leaves the site
// or names a hidden file, and a host's HTML fallback page is no JSON or Markdown file.
function siteFiles(get, origin) {
  return async (path) => {
    const segments = path.split("/");
    if (segments.some((s) => s === "" || s.startsWith("."))) return null;
    const url = new URL(BASE + segments.map(encodeURIComponent).join("/"), origin);
    let response;
    try {
      response = await get(url);
    } catch {
      return null; // the tool says the file answered nothing
    }
    const type = response.headers.get("content-type") || "";
    if (response.ok && type.startsWith("text/html") && !/\.html?$/.test(path)) {
      return new Response(null, { status: 404 });
    }
    return response;
  };
}

let endpoint = null;
"""


@dataclass(frozen=True, slots=True)
class FunctionFile:
    """One host's function: where it goes in the project, and its text."""

    path: str
    text: str


def _endpoint_path(endpoint: str, base: str) -> str:
    """The endpoint's URL path: ``mcp`` under the site's base path, ``/mcp`` (or a URL's
    path) from the root."""
    if "://" in endpoint:
        endpoint = urlsplit(endpoint).path
    if not _ENDPOINT_NAME.match(endpoint) or any(s in (".", "..") for s in endpoint.split("/")):
        raise InputError(f"The endpoint must be a URL path like /docs/mcp (got {endpoint!r}).")
    return endpoint if endpoint.startswith("/") else base + endpoint


VERCEL_FUNCTION = "api/mcp.js"
"""Where Vercel's function goes; it answers at ``/api/mcp`` (Vercel routes ``api/``)."""

# Each host's entry point: the endpoint made on the first request of an instance (its
# loaded site kept for the next ones), reading the same deployment's files.
_CLOUDFLARE = """export async function onRequest({ request, env }) {
  endpoint ??= createEndpoint({ version: VERSION,
    readFile: siteFiles((url) => env.ASSETS.fetch(url), request.url) });
  return endpoint(request);
}
"""
_NETLIFY = """export default async (request) => {
  endpoint ??= createEndpoint({ version: VERSION,
    readFile: siteFiles((url) => fetch(url), request.url) });
  return endpoint(request);
};

export const config = { path: PATH };
"""
_VERCEL = """export default {
  fetch(request) {
    endpoint ??= createEndpoint({ version: VERSION,
      readFile: siteFiles((url) => fetch(url), request.url) });
    return endpoint(request);
  },
};
"""
# host -> (platform, where the file goes, its entry point); Vercel routes api/mcp.js at
# /api/mcp, and the file's header names the route to add for another path.
_HOSTS = {"cloudflare": ("Cloudflare Pages Functions", "functions{path}.js", _CLOUDFLARE),
          "netlify": ("Netlify Edge Functions", "netlify/edge-functions/agentprose-mcp.js",
                      _NETLIFY),
          "vercel": ("Vercel Functions, Node.js runtime", VERCEL_FUNCTION, _VERCEL)}
MCP_HOSTS = tuple(_HOSTS)
"""The hosts :func:`mcp_function` writes a function for."""


def mcp_function(host: str, *, base_path: str = "/", endpoint: str = "mcp") -> FunctionFile:
    """The MCP endpoint as ``host``'s function file, for a site published at ``base_path``
    whose endpoint is at ``endpoint`` (a path: ``mcp`` is under the base path)."""
    if host not in _HOSTS:
        raise InputError(f"host must be one of {', '.join(MCP_HOSTS)} (got {host!r}).")
    base = normalize_base_path(base_path)
    path = _endpoint_path(endpoint, base)
    platform, where, entry = _HOSTS[host]
    where = where.format(path=path)
    entry = entry.replace("PATH", json.dumps(path))
    head = (f"// {where} ({platform}): agentprose's MCP endpoint at {path},\n"
            f"// answering from the files this deployment publishes under {base}.\n"
            f"// Generated by agentprose {__version__}; write it again after upgrading.\n")
    if host == "vercel" and path != "/api/mcp":
        route = json.dumps({"src": f"^{regex_escape(path)}$", "dest": "/api/mcp"})
        head += f"// vercel.json: put this route first in \"routes\": {route}\n"
    constants = (f"const BASE = {json.dumps(base)};\n"
                 f"const VERSION = {json.dumps(__version__)};\n")
    return FunctionFile(where, head + constants + endpoint_bundle() + _SITE_FILES + "\n" + entry)
