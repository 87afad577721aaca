"""The discovery ``<link>`` tags of a page's ``<head>``."""

from __future__ import annotations

import re
from html import escape

__all__ = ["add_to_head", "discovery_tags", "head_of", "inject_discovery"]

_HEAD_CLOSE = re.compile(rb"</head\s*>", re.IGNORECASE)
_HEAD_OPEN = re.compile(rb"<head(\s[^>]*)?>", re.IGNORECASE)
_MARKER = b'rel="agentprose-index"'


def discovery_tags(view_url: str, index_url: str | None, describedby: str | None = None) -> str:
    """The ``<link>`` tags that point agents at a page's view, the site index and the
    ``llms.txt`` that covers the page (llms.txt v2's ``describedby``)."""
    tags = [f'<link rel="alternate" type="text/markdown" href="{escape(view_url)}">']
    if index_url:
        tags.append(
            f'<link rel="agentprose-index" type="application/json" href="{escape(index_url)}">'
        )
    if describedby:
        tags.append(f'<link rel="describedby" href="{escape(describedby)}">')
    return "\n".join(tags)


def inject_discovery(document: bytes, tags: str) -> bytes | None:
    """``document`` with ``tags`` added at the end of its ``<head>``, once.

    Returns None when there is nothing to do: the tags are already there (a second
    run) or the document has no ``<head>``. Works on bytes so that nothing else in
    the page changes, whatever its encoding.
    """
    close = _HEAD_CLOSE.search(document)
    head = document[: close.start()] if close else document[:4096]
    if _MARKER in head or b'type="text/markdown"' in head:
        return None
    payload = tags.encode("utf-8") + b"\n"
    if close:
        return document[: close.start()] + payload + document[close.start() :]
    opened = _HEAD_OPEN.search(document)
    if opened:
        return document[: opened.end()] + b"\n" + payload + document[opened.end() :]
    return None


def head_of(document: bytes) -> str:
    """The ``<head>`` of a document as text (up to ``</head>``), for checks on what it has."""
    close = _HEAD_CLOSE.search(document)
    head = document[: close.start()] if close else document[:65536]
    return head.decode("utf-8", errors="replace")


def add_to_head(document: bytes, tags: str) -> bytes:
    """``document`` with ``tags`` added at the end of its ``<head>`` (unchanged if none)."""
    if not tags:
        return document
    close = _HEAD_CLOSE.search(document)
    if close is None:
        return document
    return document[: close.start()] + tags.encode("utf-8") + b"\n" + document[close.start() :]
