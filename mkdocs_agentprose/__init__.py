"""The MkDocs plugin of agentprose (``plugins: [agentprose]``).

The plugin itself arrives with its own issue; the core already does the work
(``agentprose_core``), and ``agentprose build site/`` covers MkDocs sites meanwhile.
"""

from __future__ import annotations

__all__: list[str] = []
