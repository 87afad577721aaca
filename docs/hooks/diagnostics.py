"""MkDocs hook: the table of docs/diagnostics.md, generated from the core's ``CODES``
so that every code a build can report is listed, with how to silence it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from agentprose_core.diagnostics import CODES, Code

sys.path.insert(0, str(Path(__file__).resolve().parent))  # MkDocs 1.5 does not
from generated import refreshed, write  # the sibling module

BLOCK = "agentprose-diagnostics"
PAGE = "diagnostics.md"


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
    return refreshed(markdown, BLOCK, diagnostics_table())


if __name__ == "__main__":
    changed = write(PAGE, BLOCK, diagnostics_table())
    sys.stdout.write(f"docs/{PAGE}: {'written again' if changed else 'current'}\n")
