"""A Markdown source read as MkDocs reads it: YAML front matter, then the body.

``agentprose build --source DOCS_DIR`` takes from a page's source what the MkDocs
plugin takes from MkDocs: the front matter (title, dates, authors, ``agentprose:
false``) and the fences (code languages the theme left out of the HTML).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import yaml

from agentprose_core.diagnostics import Diagnostic

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["Source", "read_source"]

# MkDocs' rule (mkdocs.utils.meta): a "---" line first, then YAML up to "---" or "...".
_FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\n(.*?\n)?(?:-{3}|\.{3})[ \t]*(?:\n|\Z)", re.DOTALL)


@dataclass(frozen=True)
class Source:
    """A page's source: its front matter (empty when it has none) and its body."""

    meta: dict[str, Any] = field(default_factory=dict)
    markdown: str = ""
    diagnostics: tuple[Diagnostic, ...] = ()


def read_source(path: Path, location: str) -> Source:
    """The source at ``path``; front matter that is not a YAML mapping is reported
    (``location`` names the page) and read as none, as MkDocs does."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        return Source(diagnostics=(Diagnostic(
            "bad-source", f"its source {path} could not be read ({error}).", location),))
    match = _FRONT_MATTER.match(text)
    if match is None:
        return Source(markdown=text)
    body = text[match.end():]
    try:
        meta = yaml.safe_load(match.group(1) or "")
    except yaml.YAMLError as error:
        return Source(markdown=body, diagnostics=(Diagnostic(
            "bad-metadata", f"its front matter is not valid YAML ({error}); it is ignored.",
            location),))
    return Source(meta=meta if isinstance(meta, dict) else {}, markdown=body)
