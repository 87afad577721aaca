"""A site some other tool built, as files: its HTML pages in reading order, the URL each
is served at, and the Markdown source each was made from (MkDocs layout)."""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

__all__ = ["MARKDOWN_SUFFIXES", "SOURCE_SUFFIXES", "find_pages", "page_url_for", "source_of"]


def find_pages(site_dir: Path, exclude: Sequence[str] = ()) -> list[str]:
    """The HTML files of a built site, as sorted POSIX paths relative to ``site_dir``.

    Symlinked folders are not entered, and files reached through a symlink that leaves
    the site are skipped.
    """
    root = site_dir.resolve()
    found = []
    for relative, path, linked in _html_files(site_dir):
        if linked and root not in Path(path).resolve().parents:
            continue
        if not any(fnmatch.fnmatch(relative, pattern) for pattern in exclude):
            found.append(relative)
    return sorted(found, key=_reading_key)


def _html_files(site_dir: Path) -> Iterator[tuple[str, str, bool]]:
    """Each ``*.html`` file under ``site_dir``: its relative POSIX path, its path, and
    whether it is a symlink. One ``scandir`` per folder (``Path.rglob`` costs five
    times as much on a site of a folder per page); unreadable folders are skipped."""
    folders = [("", os.fspath(site_dir))]
    while folders:
        prefix, folder = folders.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError:
            continue
        for entry in listed:
            if entry.is_dir(follow_symlinks=False):
                folders.append((f"{prefix}{entry.name}/", entry.path))
            elif fnmatch.fnmatch(entry.name, "*.html") and entry.is_file():
                yield prefix + entry.name, entry.path, entry.is_symlink()


def _reading_key(relative: str) -> tuple[str, ...]:
    """Directory order with each directory's index page first."""
    parts = relative.split("/")
    if parts[-1] in ("index.html", "index.htm"):
        parts = parts[:-1]
    return tuple(parts)


def page_url_for(relative: str, base_url: str) -> str:
    """The URL a file of the built site is served at (``a/index.html`` -> ``…/a/``),
    percent-encoded (``café notes.html`` -> ``caf%C3%A9%20notes.html``)."""
    if relative == "index.html":
        return base_url
    path = relative[: -len("index.html")] if relative.endswith("/index.html") else relative
    return base_url + quote(path, safe="/")


def source_of(relative: str, source_dir: Path) -> Path | None:
    """The source a build made ``relative`` from, if it exists: Markdown first, then
    reStructuredText (``.rst``, and ``.txt`` as some Sphinx sites name it).

    ``a/b/index.html`` comes from ``a/b.md``, ``a/b/index.md`` or ``a/b/README.md``;
    ``a/b.html`` from ``a/b.md``; ``index.html`` from ``index.md`` or ``README.md``
    (each with ``.rst`` and ``.txt`` after ``.md``).
    """
    stem = relative[: -len(".html")] if relative.endswith(".html") else relative
    if stem == "index" or stem.endswith("/index"):
        folder = stem[: -len("index")]
        stems = [folder.rstrip("/")] if folder else []
        stems += [folder + "index", folder + "README"]
    else:
        stems = [stem]
    names = [name + suffix for suffix in SOURCE_SUFFIXES for name in stems]
    return next((source_dir / name for name in names if (source_dir / name).is_file()), None)


SOURCE_SUFFIXES = (".md", ".rst", ".txt")
"""The sources ``--source`` maps built pages to, in this order."""
MARKDOWN_SUFFIXES = frozenset({".md"})
"""Of those, the ones read for front matter and fences (the others only date the page)."""
