"""Search over a site's posts: the terms, the ranked index, the links between pages.

What ``agentprose mcp`` and the remote MCP endpoint answer searches with, and what a
build writes to ``agentprose-search.json`` so that answering is a lookup, not an index
build (:mod:`agentprose_core.render.searchfile`).
"""

from __future__ import annotations

__all__: list[str] = []
