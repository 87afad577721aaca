"""MkDocs hook: the table of docs/diagnostics.md, generated from the core's ``CODES``
so that every code a build can report is listed, with how to silence it."""

from __future__ import annotations

from typing import Any

from agentprose_core.diagnostics import CODES, Code

MARKER = "<!-- agentprose-diagnostics -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _row(code: Code) -> str:
    return " | ".join([
        f"| `{code.name}`",
        code.severity,
        _cell(code.meaning),
        f"`quiet: [{code.name}]`",
        _cell(f'`agentprose_quiet = ["{code.name}"]`') + " |",
    ])


def diagnostics_table() -> str:
    rows = ["| code | level | what happened, what to do | MkDocs | Sphinx |",
            "|---|---|---|---|---|"]
    rows += [_row(code) for code in sorted(CODES.values(), key=lambda c: c.name)]
    return "\n".join(rows) + "\n"


def on_page_markdown(markdown: str, **_: Any) -> str:
    return markdown.replace(MARKER, diagnostics_table())
