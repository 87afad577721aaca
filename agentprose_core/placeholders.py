"""Placeholders: parts of a page we render ourselves and splice in after the engine.

Code, math and footnote markers must come out byte-exact, whatever the Markdown
engine would escape or re-indent. Normalize swaps each for a token of letters and
digits that no engine touches; :func:`splice` puts the text back, indenting block
content to the token's place (inside a list item or a blockquote).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Placeholders", "splice"]

_TOKEN = re.compile(r"AgPrX(\d+)X")


@dataclass
class Placeholders:
    """The tokens handed out for one page, and what each stands for."""

    blocks: dict[str, str] = field(default_factory=dict)
    inlines: dict[str, str] = field(default_factory=dict)

    def block(self, text: str) -> str:
        """A token for a block (a fenced code block, display math)."""
        token = f"AgPrX{len(self.blocks) + len(self.inlines)}X"
        self.blocks[token] = text
        return token

    def inline(self, text: str) -> str:
        """A token for inline text that must not be escaped (inline math, ``[^1]``)."""
        token = f"AgPrX{len(self.blocks) + len(self.inlines)}X"
        self.inlines[token] = text
        return token


def _continuation(prefix: str) -> str:
    """The prefix of a block's later lines: quote markers kept, list markers blanked."""
    return "".join(ch if ch in "> " else " " for ch in prefix)


def _indent_block(text: str, prefix: str) -> str:
    rest = _continuation(prefix)
    lines = text.split("\n")
    out = [prefix + lines[0]]
    out.extend((rest + line).rstrip() if not line.strip() else rest + line for line in lines[1:])
    return "\n".join(out)


def splice(markdown: str, placeholders: Placeholders) -> str:
    """``markdown`` with every token replaced by its text."""
    if not placeholders.blocks and not placeholders.inlines:
        return markdown
    lines = markdown.split("\n")
    for number, line in enumerate(lines):
        if "AgPrX" not in line:
            continue
        stripped = line.rstrip()
        match = _TOKEN.search(stripped)
        if match and match.group(0) in placeholders.blocks and stripped.endswith(match.group(0)):
            text = placeholders.blocks[match.group(0)]
            lines[number] = _indent_block(text, stripped[: match.start()])
            continue
        lines[number] = _TOKEN.sub(lambda m: _inline_text(m, placeholders), line)
    return "\n".join(lines)


def _inline_text(match: re.Match[str], placeholders: Placeholders) -> str:
    token = match.group(0)
    return placeholders.inlines.get(token, placeholders.blocks.get(token, ""))
