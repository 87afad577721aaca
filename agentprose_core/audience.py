"""Blocks an author writes for one audience: agents only, or people only.

A block for agents only (``data-agent-only``, or the class ``agent-only``) is in the
page's view, its post in ``agentprose.json`` and ``llms-full.txt``, and hidden from
people: the page carries it with the ``hidden`` attribute, which every browser honours
without a stylesheet. A block for people only (``data-human-only``, the class
``human-only``) is shown on the page and left out of every agent output. The converter
reads both marks (:mod:`agentprose_core.convert.rules.hidden`); this module hides the
first from people in a page's HTML.
"""

from __future__ import annotations

import re

__all__ = ["AGENT_ONLY", "HUMAN_ONLY", "hide_agent_only", "hide_agent_only_bytes"]

AGENT_ONLY = "agent-only"
"""The class (and, with ``data-``, the attribute) of a block written for agents only."""
HUMAN_ONLY = "human-only"
"""The class (and, with ``data-``, the attribute) of a block written for people only."""

# A start tag whose attributes (quoted values may hold ">") name the block for agents.
_START_TAG = re.compile(r"""<([A-Za-z][\w-]*)((?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?)>""")
_CLASS_NAME = rf"(?<![\w-]){AGENT_ONLY}(?![\w-])"
_MARKED = re.compile(
    rf"""\sdata-{AGENT_ONLY}(?=[\s=/>]|$)"""
    rf"""|\sclass\s*=\s*(?:"[^"]*{_CLASS_NAME}[^"]*"|'[^']*{_CLASS_NAME}[^']*'|{_CLASS_NAME})""",
    re.IGNORECASE,
)
_HIDDEN = re.compile(r"\shidden(?=[\s=/>]|$)")


def hide_agent_only(html: str) -> str:
    """``html`` with the ``hidden`` attribute on every block for agents only that lacks
    it (text in code is escaped, so never taken for a tag)."""
    if AGENT_ONLY not in html:
        return html
    return _START_TAG.sub(_hidden, html)


def hide_agent_only_bytes(document: bytes) -> bytes:
    """:func:`hide_agent_only` for a page as bytes, in any ASCII-compatible encoding."""
    if AGENT_ONLY.encode() not in document:
        return document
    # latin-1 maps each byte to one character and back: the markup is ASCII, the text
    # between tags (UTF-8 or another encoding) goes through untouched.
    return hide_agent_only(document.decode("latin-1")).encode("latin-1")


def _hidden(match: re.Match[str]) -> str:
    attributes = match.group(2)
    if not _MARKED.search(attributes) or _HIDDEN.search(attributes):
        return match.group(0)
    closing = "/" if attributes.rstrip().endswith("/") else ""
    kept = attributes.rstrip()[:-1] if closing else attributes
    return f"<{match.group(1)}{kept} hidden{closing}>"
