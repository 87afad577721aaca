"""Blocks of docs pages generated from the code: kept in the page files, so that they
read right where people read them (on GitHub, in an editor), and refreshed at every
docs build. A test checks that the copies in the repository are current;
``python docs/hooks/options.py`` (or ``diagnostics.py``) writes them again."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent


def _block(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- {re.escape(name)}[^\n]*-->\n).*?(<!-- /{re.escape(name)} -->)",
                      re.DOTALL)


def refreshed(markdown: str, name: str, content: str) -> str:
    """``markdown`` with the block ``name`` holding ``content``; unchanged without one."""
    return _block(name).sub(lambda found: f"{found.group(1)}\n{content}\n{found.group(2)}",
                            markdown)


def write(page: str, name: str, content: str) -> bool:
    """Refresh the block ``name`` of ``docs/<page>``; True when the file changed."""
    path = DOCS / page
    text = path.read_text(encoding="utf-8")
    if not _block(name).search(text):
        raise SystemExit(f"docs/{page} has no block '<!-- {name} -->' … '<!-- /{name} -->'")
    new = refreshed(text, name, content)
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text
