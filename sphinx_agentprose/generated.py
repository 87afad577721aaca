"""API sources a build generates (sphinx-autoapi, sphinx-autodoc2, autosummary): no
commit dates them, the code they document does; and autosummary tables, whose
docstring lines change with the code while the page's source does not.

Such a source is untracked, so its page would take the file's modification time,
new on every build (two builds differ, and ``no-git`` breaks ``-W``). Its date is the
newest commit of the modules it documents: those its directives name (``.. py:module::``,
``.. automodule::``), found where the build finds them, and those autodoc recorded as
its dependencies; an index page in a generator's output folder that names none takes
the newest of the code that generator reads.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from agentprose_core.build.incremental import documented_rst_modules, summarized_modules

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__all__ = ["GeneratedApi", "generated_api"]


@dataclass(frozen=True)
class GeneratedApi:
    """Where generators write (folders relative to the source folder), where modules are
    found, and the code the generators read."""

    folders: tuple[str, ...]
    module_dirs: tuple[Path, ...]
    code: tuple[Path, ...]
    summaries: bool = False  # autosummary is on: its tables show docstrings

    def modules_of(self, source: Path) -> tuple[Path, ...]:
        """The module files ``source``'s directives document."""
        text = _text(source)
        return documented_rst_modules(text, folders=self.module_dirs) + \
            summarized_modules(text, folders=self.module_dirs)

    def summarized_in(self, source: Path) -> tuple[Path, ...]:
        """The module files of the objects ``source``'s autosummary tables list."""
        return summarized_modules(_text(source), folders=self.module_dirs) \
            if self.summaries else ()

    def holds(self, relative: str) -> bool:
        """True for a source (relative to the source folder) in a generator's folder."""
        return any(relative == folder or relative.startswith(folder + "/")
                   for folder in self.folders)


def _text(source: Path) -> str:
    try:
        return source.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return ""


def _paths(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    found = []
    for item in value if isinstance(value, (list, tuple)) else ():
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict) and isinstance(item.get("path"), str):
            found.append(item["path"])  # autodoc2_packages' {"path": ...}
    return found


def generated_api(app: Sphinx) -> GeneratedApi:
    """What this build's API generators (if any) write and read."""
    confdir = Path(app.confdir)
    config = app.config
    folders: list[str] = []
    read: list[Path] = []
    if "autoapi.extension" in app.extensions:
        folders.append(str(getattr(config, "autoapi_root", "autoapi")).strip("/"))
        read += [confdir / path for path in _paths(getattr(config, "autoapi_dirs", []))]
    if "autodoc2" in app.extensions:
        folders.append(str(getattr(config, "autodoc2_output_dir", "apidocs")).strip("/"))
        read += [confdir / path for path in _paths(getattr(config, "autodoc2_packages", []))]
    # A package folder's parent holds it by its name; sys.path as conf.py left it.
    dirs = [*read, *(path.parent for path in read), confdir,
            *(Path(entry) for entry in sys.path if entry)]
    code = sorted({file.resolve() for folder in read if folder.is_dir()
                   for file in folder.rglob("*.py")} |
                  {folder.resolve() for folder in read if folder.is_file()})
    return GeneratedApi(tuple(folders), tuple(dict.fromkeys(dirs)), tuple(code),
                        summaries="sphinx.ext.autosummary" in app.extensions)
