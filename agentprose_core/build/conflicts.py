"""Other tools that write the files agentprose writes: found and said, once a build.

A site that ships mkdocs-llmstxt's configuration and adds agentprose gets ``llms.txt``
from one plugin and ``llms-full.txt`` (and the ``.md`` pages) from the other, whichever
ran last; a Zensical site whose own llms.txt module ran before ``agentprose build``
gets it replaced. Neither is wrong enough to stop a build, but the user must choose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentprose_core.diagnostics import Diagnostic
from agentprose_core.model import INDEX_NAME, LLMS_FULL_NAME, LLMS_NAME

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from agentprose_core.settings import Settings

__all__ = ["COMPETING_PLUGINS", "competing_plugins", "foreign_llms_files"]

COMPETING_PLUGINS = {
    "llmstxt": "mkdocs-llmstxt",
    "llms-source": "mkdocs-llms-source",
    "llmstxt-md": "mkdocs-llmstxt-md",
    "llms-txt": "mkdocs-llms-txt",
}
"""MkDocs plugins (by their name in ``plugins:``) that write ``llms.txt``, per-page
``.md`` files or both."""


def competing_plugins(names: Iterable[str], settings: Settings) -> list[Diagnostic]:
    """One warning for each plugin in ``names`` that writes what agentprose writes."""
    if not (settings.llms_txt or settings.llms_full_txt):
        return []
    return [Diagnostic(
        "llms-txt-conflict",
        f"The {COMPETING_PLUGINS[name]} plugin ('{name}' in plugins) also writes llms.txt, "
        "llms-full.txt and Markdown pages, so the site would get some files from each. "
        f"Remove '{name}' from plugins: agentprose writes all of them (a view per page, "
        "llms.txt, llms-full.txt). To keep that plugin's llms.txt files instead, set "
        "agentprose's llms_txt and llms_full_txt to false.")
        for name in names if name in COMPETING_PLUGINS]


def foreign_llms_files(site_dir: Path, settings: Settings) -> list[Diagnostic]:
    """A warning when the built site already holds ``llms.txt`` or ``llms-full.txt``
    that agentprose did not write (no ``agentprose.json`` beside them): another tool's
    (Zensical's llmstxt module), which this run replaces."""
    if (site_dir / INDEX_NAME).exists():
        return []
    written = [name for name, on in ((LLMS_NAME, settings.llms_txt),
                                     (LLMS_FULL_NAME, settings.llms_full_txt))
               if on and (site_dir / name).is_file()]
    if not written:
        return []
    return [Diagnostic(
        "llms-txt-conflict",
        f"The site already has {' and '.join(written)}, written by another tool (Zensical's "
        "llms.txt module?); agentprose replaces them with its own, which link every page's "
        "view. Turn the other tool's llms.txt off to silence this.")]
