"""The fenced code blocks of a page's Markdown source: their languages and code.

Themes often leave a block's language out of the HTML; the source still has it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentprose_core.convert.languages import clean_language, language_of_file

__all__ = ["SourceFence", "fences_of"]


@dataclass(frozen=True)
class SourceFence:
    """A fenced code block as the page's Markdown source wrote it."""

    language: str | None
    code: str


# A fence may stand in a blockquote (markdown-callouts' and admonitions' "> " lines).
_FENCE_OPEN = re.compile(
    r"^(?P<quote>(?:[ \t]*>)*)(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)$")
_QUOTED = re.compile(r"^(?:[ \t]*>)+[ \t]?")


_TITLE = re.compile(r"""title\s*=\s*["']([^"']+)["']""")


def _info_language(info: str) -> str | None:
    """The language of a fence's info string: ``py title="x"``, ``{.python .numberLines}``,
    or, with none, of the file its title names (``title="app.py"``)."""
    info = info.strip()
    if info.startswith("{"):
        match = re.search(r"\.([\w+#-]+)", info)
        return match.group(1) if match else None
    word = info.split(maxsplit=1)[0] if info else ""
    if word and clean_language(word):
        return word
    title = _TITLE.search(info)
    return language_of_file(title.group(1)) if title else None


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= len(fence) and set(stripped) == {fence[0]}


def fences_of(source: str) -> tuple[SourceFence, ...]:
    """Every fenced code block of a Markdown source, with its language and code."""
    found: list[SourceFence] = []
    lines = source.splitlines()
    index = 0
    while index < len(lines):
        match = _FENCE_OPEN.match(lines[index])
        index += 1
        if not match:
            continue
        body: list[str] = []
        quoted = bool(match.group("quote"))
        indent = len(match.group("indent")) - (1 if quoted and match.group("indent") else 0)
        while index < len(lines):
            line = _QUOTED.sub("", lines[index]) if quoted else lines[index]
            if _closes(line, match.group("fence")):
                break
            body.append(line[indent:] if line[:indent].isspace() else line)
            index += 1
        index += 1
        found.append(SourceFence(_info_language(match.group("info")), "\n".join(body)))
    return tuple(found)
