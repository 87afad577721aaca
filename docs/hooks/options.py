"""MkDocs hook: the options table of docs/configuration.md, generated from the core
``Settings`` so that the reference cannot drift from the code."""

from __future__ import annotations

from typing import Any

from agentprose_core.settings import options

MARKER = "<!-- agentprose-options -->"


def _default(value: Any) -> str:
    if value in ((), None):
        return "—"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    return f"`{value}`"


def options_table() -> str:
    rows = ["| option | default | what it does |", "|---|---|---|"]
    rows += [f"| `{o.name}` | {_default(o.default)} | {o.help} |" for o in options()]
    return "\n".join(rows)


def on_page_markdown(markdown: str, **_: Any) -> str:
    return markdown.replace(MARKER, options_table())
