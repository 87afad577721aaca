"""The Sphinx extension of agentprose (``extensions = ["sphinx_agentprose"]``).

The extension itself arrives with its own issue; the core already does the work
(``agentprose_core``), and ``agentprose build _build/html`` covers Sphinx sites meanwhile.
"""

from __future__ import annotations

__all__: list[str] = []
