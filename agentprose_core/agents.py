"""Who counts as an agent fetching a page for a person, and the ``Link`` header we send.

One list for ``agentprose serve`` and every host configuration we generate (they are made
from :data:`AGENT_TOKENS`, :data:`CRAWLER_TOKENS` and :data:`SIGNATURE_AGENTS`), so that
all of them answer the same request the same way.

Only *user-initiated* fetchers are listed: the tokens AI companies publish for the agent
that fetches a page because a person asked it to, right now. Their training crawlers and
search indexers are not (they index what people see, so they get the HTML like any search
engine), and a User-Agent naming a search crawler never counts as an agent, whatever else
it says.

Detection is opt-in (the ``detect_agents`` setting, ``agentprose serve --detect-agents``):
an agent recognised here gets a page's agent view even when its ``Accept`` reads like a
browser's, and the answers for page URLs then vary by ``User-Agent`` too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "AGENT_TOKENS",
    "CRAWLER_TOKENS",
    "SIGNATURE_AGENTS",
    "VARY_AGENTS",
    "agent_pattern",
    "crawler_pattern",
    "is_agent",
    "link_header",
    "not_found_markdown",
    "signature_pattern",
]

AGENT_TOKENS: tuple[str, ...] = (
    "Claude-User",  # Anthropic: Claude fetching a page a user asked about
    "ChatGPT-User",  # OpenAI: ChatGPT and Codex acting for a user
    "Perplexity-User",  # Perplexity: fetches for a user's question
    "MistralAI-User",  # Mistral: Le Chat fetching for a user
    "Meta-ExternalFetcher",  # Meta AI: fetches a link a user gave
)
"""User-Agent product tokens of user-initiated agent fetchers (case-insensitive)."""

CRAWLER_TOKENS: tuple[str, ...] = (
    "Googlebot", "Google-InspectionTool", "Storebot-Google", "bingbot", "Slurp",
    "DuckDuckBot", "Baiduspider", "YandexBot", "Applebot", "SeznamBot", "Qwantbot",
    "GPTBot", "OAI-SearchBot", "ClaudeBot", "Claude-SearchBot", "PerplexityBot", "CCBot",
)
"""Tokens of crawlers and indexers: they always get the HTML."""

SIGNATURE_AGENTS: tuple[str, ...] = ("https://chatgpt.com",)
"""``Signature-Agent`` values (HTTP Message Signatures for bots) of user-initiated agents."""

VARY_AGENTS = "Accept, User-Agent, Signature-Agent"
"""The ``Vary`` of a page URL's answers while agent detection is on: every header the
choice reads, so that a cache never gives a browser what a signed agent with the same
User-Agent got."""

# A token stands alone: not inside a longer name (``NotClaude-User``, ``Claude-Users``).
# Plain groups and character classes only, so PCRE, RE2 and JavaScript read it alike.
_EDGE_BEFORE = "(^|[^a-z0-9_-])"
_EDGE_AFTER = "([^a-z0-9_-]|$)"


def _alternatives(tokens: Iterable[str]) -> str:
    return "|".join(re.escape(token).replace("\\-", "-") for token in tokens)


def agent_pattern() -> str:
    """A case-insensitive regular expression matching a User-Agent of a listed agent."""
    return f"{_EDGE_BEFORE}({_alternatives(AGENT_TOKENS)}){_EDGE_AFTER}"


def crawler_pattern() -> str:
    """A case-insensitive regular expression matching a User-Agent of a crawler."""
    return f"{_EDGE_BEFORE}({_alternatives(CRAWLER_TOKENS)}){_EDGE_AFTER}"


def signature_pattern() -> str:
    """A case-insensitive regular expression matching a listed ``Signature-Agent``."""
    origins = "|".join(re.escape(origin).replace("\\:", ":").replace("\\/", "/")
                       for origin in SIGNATURE_AGENTS)
    return f'^\\s*"?({origins})/?"?\\s*$'


_AGENT = re.compile(agent_pattern(), re.IGNORECASE)
_CRAWLER = re.compile(crawler_pattern(), re.IGNORECASE)
_SIGNATURE = re.compile(signature_pattern(), re.IGNORECASE)


def is_agent(user_agent: str | None, signature_agent: str | None = None) -> bool:
    """True for a request from a listed agent fetcher and not from a crawler."""
    user_agent = user_agent or ""
    if _CRAWLER.search(user_agent):
        return False
    return bool(_AGENT.search(user_agent)
                or (signature_agent and _SIGNATURE.search(signature_agent)))


def link_header(*, view: str | None = None, describedby: str | None = None,
                index: str | None = None) -> str:
    """The ``Link`` field value for a page (RFC 8288): its agent view, the llms.txt that
    covers it (llms.txt v2) and the site index, each when given (URLs or absolute paths)."""
    links = []
    if view:
        links.append(f'<{view}>; rel="alternate"; type="text/markdown"')
    if describedby:
        links.append(f'<{describedby}>; rel="describedby"')
    if index:
        links.append(f'<{index}>; rel="agentprose-index"; type="application/json"')
    return ", ".join(links)


def _markdown_url(url: str) -> str:
    """``url`` as a Markdown link destination: parentheses would end it early."""
    return url.replace("(", "%28").replace(")", "%29").replace(" ", "%20")


def not_found_markdown(*, describedby: str | None = None, index: str | None = None) -> str:
    """The body of a ``404`` for a client that asked for Markdown: a heading, one sentence,
    and links to the ``llms.txt`` that covers the path and to the site index, each when
    given (URLs or absolute paths)."""
    lines = ["# Page not found", "", "This page does not exist."]
    links = []
    if describedby:
        links.append(f"- [llms.txt]({_markdown_url(describedby)}): the pages of this site")
    if index:
        links.append(f"- [agentprose.json]({_markdown_url(index)}): the index of every page")
    return "\n".join([*lines, *(["", *links] if links else [])]) + "\n"
