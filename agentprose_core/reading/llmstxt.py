"""``llms.txt`` read back: its title, summary, prose and link sections, with what
breaks the format, and the other ``llms.txt`` files its prose links (the sections'
and the other languages').
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentprose_core.reading.text import Finding

__all__ = [
    "LlmsFile", "LlmsLink", "language_llms_files", "linked_llms_files", "linked_urls",
    "parse_llms_txt",
]


@dataclass(frozen=True)
class LlmsLink:
    """One ``- [Title](url): description`` line."""

    title: str
    url: str
    description: str
    line: int


@dataclass
class LlmsFile:
    """``llms.txt`` as our parser reads it, with what breaks the format."""

    title: str = ""
    summary: str = ""
    info: str = ""
    """The prose between the summary and the first section."""
    sections: list[tuple[str, list[LlmsLink]]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def links(self) -> list[LlmsLink]:
        """Every link of every section, in order."""
        return [link for _, links in self.sections for link in links]


_H1 = re.compile(r"# (?P<text>\S.*)")
_H2 = re.compile(r"## (?P<text>\S.*)")
_SUMMARY = re.compile(r"> ?(?P<text>\S.*)")
_LINK = re.compile(
    r"- \[(?P<title>[^\]]+)\]\((?P<url>[^)\s]+)\)(?:: (?P<desc>\S.*))?"
)


def parse_llms_txt(text: str) -> LlmsFile:
    """Read ``llms.txt``: a ``# title``, a ``> summary``, prose, ``##`` link sections."""
    parsed = LlmsFile()
    lines = text.split("\n")
    numbered = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    if not numbered or not _H1.fullmatch(numbered[0][1]):
        parsed.findings.append(("llms-format", 1, "llms.txt must start with '# Site name'"))
    else:
        parsed.title = numbered[0][1][2:].strip()
        numbered = numbered[1:]
    if numbered and _SUMMARY.fullmatch(numbered[0][1]):
        parsed.summary = numbered[0][1][1:].strip()
        numbered = numbered[1:]
    else:
        parsed.findings.append(("llms-format", numbered[0][0] if numbered else 1,
                                "a '> summary' line must follow the title"))
    _read_body(numbered, parsed)
    return parsed


def _read_body(numbered: list[tuple[int, str]], parsed: LlmsFile) -> None:
    current: list[LlmsLink] | None = None
    for number, line in numbered:
        heading = _H2.fullmatch(line)
        if heading:
            current = []
            parsed.sections.append((heading.group("text").strip(), current))
        elif line.lstrip().startswith("#"):
            parsed.findings.append(("llms-format", number, "only '##' section headings"))
        elif current is None:
            parsed.info += line + "\n"
        else:
            link = _LINK.fullmatch(line.rstrip())
            if link is None:
                parsed.findings.append(("llms-format", number,
                                        f"not a '- [Title](url): summary' line: {line[:60]!r}"))
                continue
            current.append(LlmsLink(link.group("title"), link.group("url"),
                                    link.group("desc") or "", number))
    for name, links in parsed.sections:
        if not links:
            parsed.findings.append(("llms-format", 0, f"section {name!r} has no links"))
    if not parsed.sections:
        parsed.findings.append(("llms-format", 0, "llms.txt has no '## Section' of links"))


_INLINE_LINK = re.compile(r"\[[^\]]*\]\((?P<url>[^)\s]+)\)")


def linked_urls(text: str) -> list[str]:
    """The destinations of the inline links ``[text](url)`` in ``text``."""
    return [match["url"] for match in _INLINE_LINK.finditer(text)]


# A link to another language's llms.txt: its text ends with the language's tag.
_LANGUAGE_LINK = re.compile(r"\[[^\]]* \((?P<lang>[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*)\)\]"
                            r"\((?P<url>[^)\s]+/llms\.txt)\)")


def _links_languages(line: str) -> bool:
    """Whether ``line`` is the sentence that links the other languages: in whatever
    language it is written, every link in it is ``[Name (tag)](…/llms.txt)``."""
    return bool(linked_urls(line)) and \
        len(_LANGUAGE_LINK.findall(line)) == len(linked_urls(line))


def linked_llms_files(info: str) -> list[str]:
    """The URLs of the ``llms.txt`` files a root file's prose links (its sections')."""
    prose = "\n".join(line for line in info.splitlines() if not _links_languages(line))
    return [url for url in linked_urls(prose) if url.endswith("/llms.txt")]


def language_llms_files(info: str) -> list[str]:
    """The URLs of the other languages' ``llms.txt`` that a root file's prose links."""
    return [url for line in info.splitlines() if _links_languages(line)
            for url in linked_urls(line)]
