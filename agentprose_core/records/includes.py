"""The files a Markdown page pulls in, so that its date is the newest of them all.

A page that includes a snippet, a changelog or a code sample from outside its own file
changes when they do. The include syntaxes of the common MkDocs extensions:

- pymdownx.snippets: ``--8<-- "path"`` (also ``;``-commented and ``:lines`` suffixes)
  and the block form, one path a line between two ``--8<--`` lines;
- mkdocs-include-markdown and macros: ``{% include "path" %}``,
  ``{% include-markdown "path" %}``;
- markdown-include and FastAPI's docs: ``{! path !}``, ``{* path *}``.

Each name is looked for in the page's folder, the docs folder, and the extra folders
the build names (pymdownx.snippets' ``base_path``, the config's folder): the first file
that exists is the one included. Names that resolve nowhere (URLs, globs, variables)
are left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

__all__ = ["included_files", "search_dirs"]

_SNIPPET_MARK = "--8<--"
_INLINE_SNIPPET = re.compile(r"""^[ \t>]*-{1,}8<-{1,}[ \t]+(["'])(?P<name>[^"'\n]+)\1""",
                             re.MULTILINE)
_BLOCK_SNIPPET = re.compile(r"^[ \t>]*-{1,}8<-{1,}[ \t]*$")
_TEMPLATE = re.compile(r"""\{%-?\s*include(?:-markdown)?\s+(["'])(?P<name>[^"'\n]+)\1""")
_BRACES = re.compile(r"""\{([!*])\s*(?P<name>[^\s!*}]+)[^}\n]*?\1\}""")
_SNIPPET_OPTIONS = re.compile(r"(?::-?\d+(?::-?\d+)?(?:,-?\d+(?::-?\d+)?)*|:[\w-]+)$")


def _names(markdown: str) -> Iterator[str]:
    if _SNIPPET_MARK in markdown:
        yield from (match["name"] for match in _INLINE_SNIPPET.finditer(markdown))
        yield from _block_names(markdown)
    if "{%" in markdown:
        yield from (match["name"] for match in _TEMPLATE.finditer(markdown))
    if "{!" in markdown or "{*" in markdown:
        yield from (match["name"] for match in _BRACES.finditer(markdown))


def _block_names(markdown: str) -> Iterator[str]:
    inside = False
    for line in markdown.splitlines():
        if _BLOCK_SNIPPET.match(line):
            inside = not inside
        elif inside:
            name = line.strip(" \t>")
            if name and not name.startswith(";"):
                yield name


def _clean(name: str) -> str | None:
    """The path in an include's name, without snippets' line ranges and sections."""
    name = name.strip()
    if not name or name.startswith((";", "http://", "https://")) or any(
            c in name for c in "*?{}$"):
        return None
    return _SNIPPET_OPTIONS.sub("", name) or None


def included_files(
    markdown: str, *, page_file: Path | None, docs_dir: Path, search: Sequence[Path] = ()
) -> tuple[Path, ...]:
    """The existing files that ``markdown`` includes, in order, each once."""
    folders = [*([page_file.parent] if page_file is not None else []), docs_dir, *search]
    found: dict[Path, None] = {}
    for raw in _names(markdown):
        name = _clean(raw)
        if name is None:
            continue
        for folder in folders:
            candidate = folder / name
            if candidate.is_file():
                found[candidate.resolve()] = None
                break
    return tuple(found)


def search_dirs(base_path: object, *, config_dir: Path) -> tuple[Path, ...]:
    """Where includes are looked for besides the page's and the docs folder: the
    folders of pymdownx.snippets' ``base_path`` (a string or a list, relative to the
    config's folder, as MkDocs runs there), then the config's folder itself."""
    given = [base_path] if isinstance(base_path, str) else (
        base_path if isinstance(base_path, list) else [])
    found = [config_dir / item for item in given if isinstance(item, str)]
    return tuple(dict.fromkeys([*found, config_dir]))
