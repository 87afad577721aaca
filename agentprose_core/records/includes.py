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

An API page documents code: mkdocstrings' ``::: package.module.Object`` lines name the
module whose file (``package/module.py``, or a package's ``__init__.py``) dates the
page too, looked for in the handler's ``paths``; objects from installed packages
outside the project resolve to no file and say nothing of the page's date.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Container, Iterable, Iterator, Sequence

__all__ = [
    "content_dependencies",
    "documented_modules",
    "documented_rst_modules",
    "included_files",
    "module_dirs",
    "search_dirs",
    "summarized_modules",
]

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


_IDENTIFIER = re.compile(r"^[ \t]*:::[ \t]+([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)", re.MULTILINE)


def documented_modules(markdown: str, *, folders: Sequence[Path]) -> tuple[Path, ...]:
    """The module files of the objects that ``markdown``'s ``::: identifier`` lines
    document, in order, each once: for ``a.b.C``, the first of ``a/b/C.py``,
    ``a/b/C/__init__.py``, ``a/b.py``, ``a/b/__init__.py``, ``a.py``, ``a/__init__.py``
    that exists in one of ``folders``."""
    return _named_modules(_IDENTIFIER, markdown, folders) if ":::" in markdown else ()


def _named_modules(pattern: re.Pattern[str], text: str,
                   folders: Sequence[Path]) -> tuple[Path, ...]:
    """The module files of the dotted names ``pattern``'s first group finds, each once."""
    found: dict[Path, None] = {}
    for match in pattern.finditer(text):
        module = _module_file(match.group(1).split("."), folders)
        if module is not None:
            found[module] = None
    return tuple(found)


def _module_file(parts: list[str], folders: Sequence[Path]) -> Path | None:
    for length in range(len(parts), 0, -1):
        relative = Path(*parts[:length])
        for folder in folders:
            for candidate in (folder / f"{relative}.py", folder / relative / "__init__.py"):
                if candidate.is_file():
                    return candidate.resolve()
    return None


_RST_MODULE = re.compile(
    r"^[ \t]*\.\.[ \t]+(?:py:module|automodule|py:currentmodule|currentmodule|module)"
    r"::[ \t]+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)", re.MULTILINE)


def documented_rst_modules(text: str, *, folders: Sequence[Path]) -> tuple[Path, ...]:
    """The module files a reStructuredText source documents: those its ``.. py:module::``
    or ``.. automodule::`` (and ``currentmodule``) directives name, as generated API
    sources write them, found in one of ``folders``."""
    return _named_modules(_RST_MODULE, text, folders) if "module::" in text else ()


_AUTOSUMMARY = re.compile(r"^([ \t]*)\.\.[ \t]+autosummary::")
_CURRENT_MODULE = re.compile(r"^[ \t]*\.\.[ \t]+(?:py:)?currentmodule::[ \t]+([\w.]+)")
_DOTTED = re.compile(r"~?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)")


def summarized_modules(text: str, *, folders: Sequence[Path]) -> tuple[Path, ...]:
    """The module files of the objects an ``.. autosummary::`` table lists: the table
    shows each one's first docstring line, so the page changes when they do (Sphinx
    records no dependency for it). Names are taken after ``currentmodule`` as Sphinx
    does; only those found in ``folders`` count."""
    if "autosummary::" not in text:
        return ()
    found: dict[Path, None] = {}
    current = ""
    lines = text.splitlines()
    for number, line in enumerate(lines):
        module = _CURRENT_MODULE.match(line)
        if module:
            current = module.group(1)
            continue
        opened = _AUTOSUMMARY.match(line)
        if not opened:
            continue
        for entry in _entries(lines[number + 1:], len(opened.group(1))):
            name = _DOTTED.fullmatch(entry)
            if name is None:
                continue
            parts = name.group(1).split(".")
            # A full name when its first part is a module, else one under currentmodule.
            path = _module_file(parts, folders) if _module_file(parts[:1], folders) else None
            if path is None and current:
                path = _module_file([*current.split("."), *parts], folders)
            if path is not None:
                found[path] = None
    return tuple(found)


def _entries(lines: Sequence[str], indent: int) -> Iterator[str]:
    """The names of a directive's body: its indented lines, options left out."""
    for line in lines:
        if not line.strip():
            continue
        if len(line) - len(line.lstrip()) <= indent:
            return
        entry = line.strip()
        if not entry.startswith(":"):
            yield entry.split()[0]


def module_dirs(paths: object, *, config_dir: Path) -> tuple[Path, ...]:
    """Where mkdocstrings' Python handler finds modules: its ``paths`` option (relative
    to the config's folder; ``.`` by default), then ``src``, where a package installed
    for development usually lives."""
    given = [item for item in paths if isinstance(item, str)] if isinstance(paths, list) else []
    return tuple(dict.fromkeys([*(config_dir / item for item in given or ["."]),
                                config_dir / "src"]))


# Files a build tool reads for every page that say how to build, not what a page says.
CONFIGURATION_FILES = frozenset({"docutils.conf", "conf.py"})


def content_dependencies(dependencies: Iterable[str], *, media: Container[str] = ()) -> list[str]:
    """Of the files a build tool says a page depends on, those its text comes from
    (includes, literal includes, documented modules, translations): not configuration
    (``docutils.conf``, which Sphinx records for every document), nor ``media`` (images,
    downloads), whose bytes no view holds. Only these date the page."""
    return [path for path in dependencies
            if PurePosixPath(path).name not in CONFIGURATION_FILES and path not in media]
