"""``agentprose mcp``: a site's own tools for local agents, from its ``agentprose.json``.

``site`` reads an index, ``sources`` fetches it from a built folder or a deployed
site's origin, ``search`` ranks pages, ``tools`` writes each tool's answer and
``server`` puts them on the Model Context Protocol with the official SDK.
"""

from __future__ import annotations

__all__: list[str] = []
