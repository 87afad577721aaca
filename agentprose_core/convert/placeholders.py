"""Placeholders: parts of a page we render ourselves and splice in after the engine.

Code, math and footnote markers must come out byte-exact, whatever the Markdown
engine would escape or re-indent. Normalize swaps each for a token of letters and
digits that no engine touches; :func:`splice` puts the text back, indenting block
content to the token's place (inside a list item or a blockquote). The tokens' prefix
is chosen per page so that no text of the page can be mistaken for one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Placeholders", "leftover", "splice"]


def _prefix_for(text: str) -> str:
    prefix = "AgPr"
    number = 0
    while prefix in text:
        number += 1
        prefix = f"AgPr{number}q"
    return prefix


@dataclass
class Placeholders:
    """The tokens handed out for one page, and what each stands for."""

    prefix: str = "AgPr"
    blocks: dict[str, str] = field(default_factory=dict)
    inlines: dict[str, str] = field(default_factory=dict)

    @classmethod
    def avoiding(cls, text: str) -> Placeholders:
        """Placeholders whose tokens appear nowhere in ``text`` (the page's own text)."""
        return cls(prefix=_prefix_for(text))

    @property
    def separator(self) -> str:
        """A paragraph that keeps two blockquotes apart; the finishing pass removes it."""
        return f"{self.prefix}SEPX"

    def _token(self) -> str:
        return f"{self.prefix}X{len(self.blocks) + len(self.inlines)}X"

    def block(self, text: str) -> str:
        """A token for a block (a fenced code block, display math)."""
        token = self._token()
        self.blocks[token] = text
        return token

    def inline(self, text: str) -> str:
        """A token for inline text that must not be escaped (inline math, ``[^1]``)."""
        token = self._token()
        self.inlines[token] = text
        return token


def _continuation(prefix: str) -> str:
    """The prefix of a block's later lines: quote markers kept, list markers blanked."""
    return "".join(ch if ch in "> " else " " for ch in prefix)


def _indent_block(text: str, prefix: str) -> str:
    rest = _continuation(prefix)
    lines = text.split("\n")
    out = [prefix + lines[0]]
    # An empty line gets no trailing prefix; a line of spaces keeps them (code is exact).
    out.extend(rest + line if line else rest.rstrip() for line in lines[1:])
    return "\n".join(out)


def _token_pattern(placeholders: Placeholders) -> re.Pattern[str]:
    return re.compile(re.escape(placeholders.prefix) + r"X\d+X")


def _nested_resolved(placeholders: Placeholders, pattern: re.Pattern[str]) -> Placeholders:
    """The placeholders with the tokens inside their own texts replaced: a table kept as
    HTML holds the anchors and code of its cells as tokens. A token's text only holds
    tokens handed out before it, so one pass in the order they were made resolves all."""
    if not any(placeholders.prefix in text
               for texts in (placeholders.blocks, placeholders.inlines)
               for text in texts.values()):
        return placeholders
    resolved: dict[str, str] = {}
    merged = {**placeholders.blocks, **placeholders.inlines}
    for token in sorted(merged, key=lambda name: int(name[len(placeholders.prefix) + 1:-1])):
        resolved[token] = pattern.sub(lambda m: resolved.get(m.group(0), ""), merged[token])
    return Placeholders(
        prefix=placeholders.prefix,
        blocks={token: resolved[token] for token in placeholders.blocks},
        inlines={token: resolved[token] for token in placeholders.inlines},
    )


def leftover(markdown: str, placeholders: Placeholders) -> tuple[str, int]:
    """``markdown`` without any token that :func:`splice` could not place, and how many
    there were (none, unless an engine split or moved one); a separator left over (it
    stands for nothing) goes without being counted."""
    if placeholders.prefix not in markdown:
        return markdown, 0
    markdown = markdown.replace(placeholders.separator, "")
    # Any prefix is one of ours (no text of the page holds it), whole token or not.
    stray = re.compile(re.escape(placeholders.prefix) + r"(?:X\d*X?)?")
    return stray.subn(lambda m: _inline_text(m, placeholders), markdown)


def splice(markdown: str, placeholders: Placeholders) -> str:
    """``markdown`` with every token replaced by its text."""
    if not placeholders.blocks and not placeholders.inlines:
        return markdown
    pattern = _token_pattern(placeholders)
    placeholders = _nested_resolved(placeholders, pattern)
    lines = markdown.split("\n")
    for number, line in enumerate(lines):
        if placeholders.prefix not in line:
            continue
        stripped = line.rstrip()
        match = next((m for m in pattern.finditer(stripped) if m.group(0) in placeholders.blocks),
                     None)
        if match:
            text = placeholders.blocks[match.group(0)]
            before, after = stripped[: match.start()], stripped[match.end():]
            if not after and _MARKERS.fullmatch(before):
                lines[number] = _indent_block(text, before)
            else:  # inside inline markup (`**` + code + `**`): the block on lines of its own
                lines[number] = _split_line(before, text, after, placeholders)
            continue
        lines[number] = pattern.sub(lambda m: _inline_text(m, placeholders), line)
    return "\n".join(lines)


# What may stand before a block on its line: quote and list markers.
_MARKERS = re.compile(r"(?:[ \t]*(?:>|(?:[-*+]|\d{1,9}[.)])(?=[ \t])))*[ \t]*")


def _split_line(before: str, text: str, after: str, placeholders: Placeholders) -> str:
    """A line that holds a block between other content, as three blocks."""
    marker = _MARKERS.match(before)
    lead = marker.group() if marker else ""
    rest = _continuation(lead)
    parts = []
    if before.strip() != lead.strip() or not lead:
        parts.extend([splice(before, placeholders), rest.rstrip()])
    parts.append(_indent_block(text, rest if parts else lead))
    if after.strip():
        parts.extend([rest.rstrip(), rest + splice(after.lstrip(), placeholders)])
    return "\n".join(parts)


def _inline_text(match: re.Match[str], placeholders: Placeholders) -> str:
    token = match.group(0)
    return placeholders.inlines.get(token, placeholders.blocks.get(token, ""))
