"""Languages the Markdown source gave its fenced code blocks.

Themes may drop a block's language from the HTML (``pymdownx.highlight`` without
``pygments_lang_class``); the source still says it, and the agent view must too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .htmltext import GENERIC_LANGUAGES

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["source_languages"]

_FENCE = re.compile(r"^\s*(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\n]*)$")


def _language(info: str) -> str:
    first = info.strip().split()[0] if info.strip() else ""
    return first.strip("{}").lstrip(".").lower()


def fence_languages(markdown: str) -> list[str]:
    """The language of every top-level fenced block, in order ("" when it has none)."""
    languages: list[str] = []
    opened = ""
    for line in markdown.splitlines():
        match = _FENCE.match(line)
        if not opened:
            if match:
                opened = match.group("fence")
                languages.append(_language(match.group("info")))
        elif match and match.group("fence").startswith(opened) and not match.group("info"):
            opened = ""
    return languages


def source_languages(source: Path | None) -> int:
    """How many fenced blocks of a Markdown source name a language (0 for other sources)."""
    if source is None or source.suffix != ".md" or not source.is_file():
        return 0
    found = fence_languages(source.read_text(encoding="utf-8"))
    return sum(language not in GENERIC_LANGUAGES for language in found)
