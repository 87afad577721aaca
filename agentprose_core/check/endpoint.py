"""``agentprose check`` and a site's MCP endpoint: the files that advertise it, and, over
HTTP, the endpoint itself.

Both targets check what a site at a domain's root advertises: the MCP server card
(``.well-known/mcp/server-card.json``) is a card with a Streamable HTTP remote and its
tools, names the endpoint ``llms.txt`` names, and the agent skill's digests match its
file (``mcp-files``). A URL adds a call of the endpoint the site advertises (the card's,
else the one ``llms.txt`` names), when it is on the checked origin: ``initialize``,
``tools/list``, a search for the first page's title that finds it, and that page
(``mcp-endpoint``). The calls are four small ``POST`` requests of the request budget.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from agentprose_core.check.rules import SiteCheck, text_of
from agentprose_core.model import LLMS_NAME
from agentprose_core.phrases import BUILTIN_LANGUAGES, phrases_for
from agentprose_core.render.discovery import (
    MCP_PROTOCOL_VERSIONS,
    SERVER_CARD_NAME,
    SKILLS_INDEX_NAME,
)
from agentprose_core.urls import same_origin

if TYPE_CHECKING:
    from agentprose_core.check.client import Client
    from agentprose_core.reading.fetch import HttpResponse

__all__ = ["advertised_endpoint", "check_endpoint", "check_mcp_files"]

_MCP_ACCEPT = "application/json, text/event-stream"
_TOOLS = ("search_docs", "get_page")  # the two the check calls


def _root(check: SiteCheck) -> str | None:
    """The origin's root when the site is at it (well-known files count only there)."""
    parts = urlsplit(check.base)
    return check.base if parts.path == "/" else None


def _json(check: SiteCheck, url: str) -> Any:
    read = check.read(url, "file")
    if read.text is None:
        return None
    try:
        return json.loads(read.text)
    except ValueError as error:
        check.add("mcp-files", url, f"not JSON: {error}")
        return None


def _llms_endpoint(check: SiteCheck) -> str | None:
    """The endpoint the root ``llms.txt`` names, in any language of the phrasebook."""
    read = check.read(check.base + LLMS_NAME, "file")
    if read.text is None:
        return None
    labels = {phrases_for(lang).llms_mcp for lang in BUILTIN_LANGUAGES}
    for line in read.text.split("\n## ", 1)[0].splitlines():
        for label in labels:
            if line.startswith(label + " ") and re.fullmatch(r"https?://\S+",
                                                              line[len(label) + 1:]):
                return line[len(label) + 1:]
    return None


def _card_endpoint(card: Any) -> str | None:
    """The card's Streamable HTTP URL, if it gives one."""
    remotes = card.get("remotes") if isinstance(card, dict) else None
    for remote in remotes if isinstance(remotes, list) else []:
        url = remote.get("url") if isinstance(remote, dict) else None
        if remote.get("type") == "streamable-http" and isinstance(url, str) and \
                re.match(r"https?://", url):
            return url
    return None


def _check_skills(check: SiteCheck, root: str) -> None:
    """Every skill's ``SKILL.md`` matches the digests the index gives it."""
    index = _json(check, root + SKILLS_INDEX_NAME)
    skills = index.get("skills") if isinstance(index, dict) else None
    for skill in skills if isinstance(skills, list) else []:
        name = skill.get("name") if isinstance(skill, dict) else None
        files = skill.get("files") if isinstance(skill, dict) else None
        if not isinstance(name, str) or not isinstance(files, list):
            check.add("mcp-files", root + SKILLS_INDEX_NAME, f"a skill without a name or files: "
                                                             f"{str(skill)[:80]}")
            continue
        folder = root + SKILLS_INDEX_NAME.rsplit("/", 1)[0] + f"/{name}/"
        for entry in files:
            path = entry.get("path") if isinstance(entry, dict) else None
            read = check.read(folder + str(path), "file")
            if read.text is None:
                check.missing("mcp-files", read, f"the skill's {path}")
            elif entry.get("digest") != "sha256:" + hashlib.sha256(
                    read.text.encode("utf-8")).hexdigest():
                check.add("mcp-files", read.url, "its digest is not the one index.json gives")


def advertised_endpoint(check: SiteCheck) -> str | None:
    """The endpoint the site advertises: its server card's, else its ``llms.txt``'s."""
    root = _root(check)
    card = _json(check, root + SERVER_CARD_NAME) if root else None
    return _card_endpoint(card) or _llms_endpoint(check)


def check_mcp_files(check: SiteCheck) -> None:
    """The server card and the agent skill, when the site publishes them."""
    root = _root(check)
    card = _json(check, root + SERVER_CARD_NAME) if root else None
    if root is None or card is None:
        return
    where = root + SERVER_CARD_NAME
    endpoint = _card_endpoint(card)
    tools = card.get("tools") if isinstance(card, dict) else None
    if endpoint is None:
        check.add("mcp-files", where, "no remote of type streamable-http with an http(s) URL")
    if not isinstance(tools, list) or not all(isinstance(t, dict) and "name" in t
                                              for t in tools):
        check.add("mcp-files", where, "its tools are not a list of tools with names")
    named = _llms_endpoint(check)
    if endpoint and named and endpoint != named:
        check.add("mcp-files", where, f"names the endpoint {endpoint}, and llms.txt names "
                                      f"{named}")
    _check_skills(check, root)


# -- calling the endpoint --------------------------------------------------------------


def _answer(response: HttpResponse | None) -> tuple[dict[str, Any] | None, str]:
    """The JSON-RPC message of an answer (JSON, or an event stream's first data), or
    None and why."""
    if response is None:
        return None, "no answer"
    if response.status != 200:
        return None, f"HTTP {response.status}"
    text = response.body.decode("utf-8", "replace")
    if response.media_type == "text/event-stream":
        data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
        text = data[0] if data else ""
    try:
        message = json.loads(text)
    except ValueError:
        return None, f"not JSON ({response.media_type or 'no type'})"
    if not isinstance(message, dict) or "result" not in message:
        error = message.get("error") if isinstance(message, dict) else None
        return None, f"an error: {json.dumps(error)[:200]}"
    return message, ""


def _call(client: Client, url: str, number: int, method: str,
          params: dict[str, Any]) -> tuple[Any, str]:
    body = json.dumps({"jsonrpc": "2.0", "id": number, "method": method, "params": params})
    response = client.post(url, body.encode(), headers={
        "Content-Type": "application/json", "Accept": _MCP_ACCEPT,
        "MCP-Protocol-Version": MCP_PROTOCOL_VERSIONS[0]})
    message, why = _answer(response)
    return (message["result"] if message else None), why


def _tool_text(result: Any) -> tuple[str, bool]:
    content = result.get("content") if isinstance(result, dict) else None
    first = content[0] if isinstance(content, list) and content else {}
    text = first.get("text") if isinstance(first, dict) else None
    return (text if isinstance(text, str) else ""), bool(
        isinstance(result, dict) and result.get("isError"))


def _problems(client: Client, endpoint: str, post: dict[str, Any]) -> list[str]:
    """What is wrong with the endpoint, in the order the calls found it."""
    started, why = _call(client, endpoint, 1, "initialize", {
        "protocolVersion": MCP_PROTOCOL_VERSIONS[0], "capabilities": {},
        "clientInfo": {"name": "agentprose-check", "version": "1"}})
    if started is None:
        return [f"initialize: {why}"]
    listed, why = _call(client, endpoint, 2, "tools/list", {})
    tools = listed.get("tools") if isinstance(listed, dict) else None
    names = {t.get("name") for t in tools if isinstance(t, dict)} if isinstance(
        tools, list) else set()
    if listed is None or not set(_TOOLS) <= names:
        return [f"tools/list: {why or 'no ' + ' or '.join(set(_TOOLS) - names)}"]
    problems = []
    title, url = text_of(post, "title") or "", text_of(post, "url") or ""
    found, why = _call(client, endpoint, 3, "tools/call",
                       {"name": "search_docs", "arguments": {"query": title}})
    text, failed = _tool_text(found)
    if found is None or failed or url not in text:
        problems.append(f"search_docs for {title!r}: " + (why or (
            text[:200] if failed else f"{url} is not among the results")))
    page, why = _call(client, endpoint, 4, "tools/call",
                      {"name": "get_page", "arguments": {"url_or_path": url}})
    text, failed = _tool_text(page)
    if page is None or failed or not text.startswith("---\n"):
        problems.append(f"get_page {url}: " + (why or text[:200] or "no view"))
    return problems


def check_endpoint(check: SiteCheck, client: Client) -> None:
    """Call the endpoint the site advertises, when it is on the checked origin."""
    endpoint = advertised_endpoint(check)
    posts = [post for post in check.posts if text_of(post, "url") and text_of(post, "title")]
    if endpoint is None or not posts:
        return
    if not same_origin(endpoint, client.origin):
        check.report.notes.append(f"The MCP endpoint {endpoint} is on another origin: not "
                                  "called (the check stays on the site's origin).")
        return
    for problem in _problems(client, endpoint, posts[0]):
        check.add("mcp-endpoint", endpoint, problem)
    if "mcp-endpoint" not in check.report.rules_broken():
        check.report.notes.append(f"The MCP endpoint {endpoint} answered initialize, "
                                  "tools/list, search_docs and get_page.")
