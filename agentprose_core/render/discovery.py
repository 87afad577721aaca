"""The files that tell agents where a site's MCP endpoint is, written only when the
``mcp_endpoint`` setting names one (a plain static site advertises nothing).

Chosen for their readers (docs/mcp.md says more):

- ``.well-known/mcp/server-card.json``: an MCP Server Card, in the shape of the MCP
  proposal SEP-2127 (the registry's ``server.json`` fields: ``name``, ``version``,
  ``remotes`` with the Streamable HTTP URL, ``capabilities`` and the static ``tools``).
  Agent-readiness scanners and Mintlify's hosted docs use this path.
- ``.well-known/mcp.json``: the same card at the path of the earlier proposal (SEP-1649),
  which MCP gateways and Mintlify also serve.
- ``.well-known/agent-skills/index.json`` and one skill's ``SKILL.md`` (the Agent Skills
  discovery RFC, v0.2.0): how an agent should use this site's docs (the endpoint, its
  tools, ``llms.txt``, ``agentprose.json`` and the ``.md`` views), with the digests the
  RFC asks for.

Well-known files mean something only at the root of a domain (RFC 8615), so a site
under a sub-path gets none: :func:`discovery_files` says so instead.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from agentprose_core.diagnostics import Diagnostic
from agentprose_core.model import INDEX_NAME, LLMS_NAME
from agentprose_core.urls import base_url_of

if TYPE_CHECKING:
    from collections.abc import Sequence

    from agentprose_core.model import SiteRecord

__all__ = [
    "DISCOVERY_ROOT",
    "MCP_JSON_NAME",
    "MCP_PROTOCOL_VERSIONS",
    "SERVER_CARD_NAME",
    "SKILLS_INDEX_NAME",
    "discovery_files",
    "endpoint_url",
    "tool_list",
]

DISCOVERY_ROOT = ".well-known/mcp"
"""The folder a build with ``mcp_endpoint`` writes the server card into."""
SERVER_CARD_NAME = ".well-known/mcp/server-card.json"
MCP_JSON_NAME = ".well-known/mcp.json"
SKILLS_INDEX_NAME = ".well-known/agent-skills/index.json"
MCP_PROTOCOL_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
"""The MCP versions our endpoints answer ``initialize`` in, the newest first."""

_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"
_SKILLS_VERSION = "0.2.0"
_DESCRIPTION_CHARS = 100  # the registry's limit on a server's description


@cache
def tool_list() -> list[dict[str, Any]]:
    """The seven tools as ``tools/list`` gives them (the endpoints' shared listing), read
    once; not to be changed by callers."""
    text = (files("agentprose_core") / "mcp" / "static" / "tool-list.json").read_text(
        encoding="utf-8")
    tools: list[dict[str, Any]] = json.loads(text)
    return tools


def endpoint_url(site_url: str, setting: str) -> str:
    """The endpoint's absolute URL: the setting's URL, or its path on the site's origin."""
    return urljoin(base_url_of(site_url), setting)


def _slug(text: str) -> str:
    """Lowercase ASCII letters, digits and single hyphens (an Agent Skills name)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:50].strip("-")


def _server_name(site: SiteRecord, slug: str) -> str:
    """A reverse-DNS name with one slash: ``example.coast/shore-notes``."""
    host = (urlsplit(site.url).hostname or "localhost").split(".")
    return ".".join(reversed(host)) + "/" + slug


def _server_card(site: SiteRecord, endpoint: str, version: str, slug: str) -> str:
    name = site.name.strip() or base_url_of(site.url)
    description = f"Search and read the documentation of {name}."
    if len(description) > _DESCRIPTION_CHARS:
        description = "Search and read this documentation site."
    card = {
        "$schema": _CARD_SCHEMA,
        "name": _server_name(site, slug),
        "version": version,
        "description": description,
        "title": name,
        "websiteUrl": base_url_of(site.url),
        "remotes": [{"type": "streamable-http", "url": endpoint,
                     "supportedProtocolVersions": list(MCP_PROTOCOL_VERSIONS)}],
        "capabilities": {"tools": {"listChanged": False}},
        "tools": tool_list(),
    }
    return json.dumps(card, ensure_ascii=False, indent=2) + "\n"


def _views_sentence(pages: Sequence[tuple[str, str]]) -> str:
    """How a page's view is found, with one of the site's pages as the example (the view
    layout decides where views are)."""
    sentence = ("- Each page has a Markdown version, linked by the page's "
                '`<link rel="alternate" type="text/markdown">`')
    if not pages:
        return sentence + ". Read it instead of the HTML.\n"
    url, view = pages[1] if len(pages) > 1 else pages[0]
    return f"{sentence}: `{url}` has `{view}`. Read it instead of the HTML.\n"


def _skill(site: SiteRecord, pages: Sequence[tuple[str, str]], endpoint: str,
           slug: str) -> str:
    """The skill's ``SKILL.md``: front matter, then how to use this site's docs."""
    name = site.name.strip() or base_url_of(site.url)
    base = base_url_of(site.url)
    description = (f"Look things up in the documentation of {name} ({base}): search it, "
                   "read a page or one section, list its pages. Use when a question is "
                   f"about {name}.")
    tools = "\n".join(f"- `{tool['name']}`: {tool['description'].split('. ')[0].rstrip('.')}."
                      for tool in tool_list())
    return (f"---\nname: {slug}\ndescription: {json.dumps(description, ensure_ascii=False)}\n"
            f"---\n\n# The documentation of {name}\n\n"
            "Answer from this site's own pages, and cite the page URLs they give.\n\n"
            "## With MCP (best)\n\n"
            f"Connect to the site's MCP server: `{endpoint}` (Streamable HTTP, no "
            "sign-in, read-only). Its tools:\n\n"
            f"{tools}\n\n"
            "Start with `search_docs`, then `get_section` or `get_page` on what it finds.\n\n"
            "## Without MCP\n\n"
            f"- `{base}{LLMS_NAME}` lists every page with a one-line summary and links each "
            "page's Markdown.\n"
            f"- `{base}{INDEX_NAME}` holds every page's metadata (title, summary, section, "
            "dates, headings) and its Markdown, in one JSON file.\n"
            + _views_sentence(pages))


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _skills_index(slug: str, skill: str, description: str) -> str:
    """The RFC's index for one skill of one file; the skill's digest is that of its
    manifest (``path NUL hex LF`` per file, sorted by path)."""
    file_hex = hashlib.sha256(skill.encode("utf-8")).hexdigest()
    manifest = f"SKILL.md\0{file_hex}\n".encode()
    index = {"version": _SKILLS_VERSION, "skills": [{
        "name": slug, "description": description, "digest": _digest(manifest),
        "files": [{"path": "SKILL.md", "digest": "sha256:" + file_hex}]}]}
    return json.dumps(index, ensure_ascii=False, indent=2) + "\n"


def discovery_files(site: SiteRecord, pages: Sequence[tuple[str, str]], endpoint: str, *,
                    version: str) -> tuple[dict[str, str], list[Diagnostic]]:
    """The well-known files for the MCP endpoint at ``endpoint`` (an absolute URL), by
    path under the site (``pages``: the URL and view URL of its first pages, in reading
    order); none, and a note that says why, for a site under a sub-path."""
    base = base_url_of(site.url)
    if urlsplit(base).path != "/":
        return {}, [Diagnostic("mcp-discovery", (
            f"the site is under {urlsplit(base).path}, and well-known files are read only "
            "at the root of a domain, so the build writes no MCP server card or agent "
            f"skill for {endpoint} (its llms.txt names it). Serve them from the domain's "
            "root to advertise the endpoint there."), severity="info")]
    slug = _slug(site.name) or "docs"
    slug = slug if slug.endswith("docs") else f"{slug}-docs"
    card = _server_card(site, endpoint, version, slug)
    skill = _skill(site, pages, endpoint, slug)
    description = re.search(r"^description: (.*)$", skill, re.MULTILINE)
    assert description is not None  # written just above
    return {
        SERVER_CARD_NAME: card,
        MCP_JSON_NAME: card,
        SKILLS_INDEX_NAME: _skills_index(slug, skill, json.loads(description[1])),
        f".well-known/agent-skills/{slug}/SKILL.md": skill,
    }, []
