"""The MkDocs plugin of agentprose (``plugins: [agentprose]``): :mod:`.plugin` hands
each page to the core (``agentprose_core``) and writes what it returns."""

from __future__ import annotations

__all__: list[str] = []
