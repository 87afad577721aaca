"""A conversion cache: an unchanged page is never converted twice.

Keyed by a hash of everything a conversion depends on (the content HTML, the page URL,
the site's pages and their views, the settings, the Markdown source and our version), so
a hit is always the same bytes a fresh conversion would give. One small JSON file per
entry, written atomically, so parallel writer processes can share the folder.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import time
from functools import lru_cache
from typing import TYPE_CHECKING

from agentprose_core.convert.fences import fences_of
from agentprose_core.diagnostics import Diagnostic
from agentprose_core.errors import OutputError
from agentprose_core.files import write_atomic
from agentprose_core.model import Conversion, Heading
from agentprose_core.version import __version__

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from agentprose_core.settings import Settings

__all__ = ["ConversionCache", "cache_key", "convert_cached", "site_digest"]


def site_digest(site_map: Mapping[str, str]) -> str:
    """A digest of the site's pages and their views: links depend on all of them."""
    text = "\n".join(f"{key} {value}" for key, value in sorted(site_map.items()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_key(
    fragment: str, *, page_url: str, site: str, settings: Settings, source_markdown: str = "",
) -> str:
    """The key of one conversion; ``site`` is :func:`site_digest` of the site map.

    ``source_markdown`` is the page's source, whose fences the conversion reads: hashing
    it costs far less than parsing the fences, which only a conversion needs.
    """
    parts = [__version__, page_url, site, _settings_text(settings), source_markdown, fragment]
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", errors="surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=16)
def _settings_text(settings: Settings) -> str:
    return repr(settings)  # the same few settings for every page of a build


_GITIGNORE = "# Created by agentprose: a cache, never committed.\n*\n"


def _ignored_by_git(directory: Path) -> None:
    """A ``.gitignore`` in the cache folder that ignores all of it, itself included (as
    pytest's and mypy's caches do): the folder never shows in ``git status``."""
    ignore = directory / ".gitignore"
    if ignore.exists():
        return
    with contextlib.suppress(OSError, OutputError):  # a cache that can't be written: slower
        write_atomic(ignore, _GITIGNORE)


class ConversionCache:
    """Conversions stored under ``directory`` by :func:`cache_key`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.started = time.time()
        _ignored_by_git(directory)

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> Conversion | None:
        """The stored conversion, or None (missing or unreadable: convert again)."""
        path = self._path(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            os.utime(path)  # marks the entry as used by this build, for prune()
            return Conversion(
                markdown=data["markdown"],
                headings=tuple(Heading(**h) for h in data["headings"]),
                diagnostics=tuple(Diagnostic(**d) for d in data["diagnostics"]),
                unanchored=tuple(data.get("unanchored", ())),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def has(self, key: str) -> bool:
        """True when an entry is stored under ``key`` (then marked as used, as by
        :meth:`get`), without reading it."""
        try:
            os.utime(self._path(key))
        except OSError:
            return False
        return True

    def put(self, key: str, conversion: Conversion) -> None:
        """Store a conversion; a cache that cannot be written is only slower."""
        data = dataclasses.asdict(conversion)
        try:
            write_atomic(self._path(key), json.dumps(data, ensure_ascii=False))
        except OutputError:
            return

    def prune(self) -> int:
        """Remove the entries no process of this build used; returns how many.

        An entry counts as used when it was read or written since the cache was opened
        (file times), so writer processes under ``sphinx-build -j`` need no shared state.
        """
        removed = 0
        for path in self.directory.glob("*/*.json"):
            try:
                if path.stat().st_mtime < self.started - 1:
                    path.unlink()
                    removed += 1
            except OSError:
                continue
        return removed


def convert_cached(
    fragment: str,
    *,
    page_url: str,
    site_map: Mapping[str, str],
    settings: Settings,
    source_markdown: str = "",
    cache: ConversionCache | None,
    site: str | None = None,
) -> Conversion:
    """:func:`~agentprose_core.convert.fragment.convert_fragment` through the cache,
    when there is one.

    ``source_markdown`` is the page's Markdown source, if it has one: the languages of
    its fenced code blocks. ``site`` is :func:`site_digest` of ``site_map``, computed
    once per build by callers that convert many pages.
    """
    from agentprose_core.convert.fragment import (
        convert_fragment,  # lxml and the engine load on the first use
    )

    def convert() -> Conversion:
        return convert_fragment(fragment, page_url=page_url, site_map=site_map,
                                settings=settings, source_fences=fences_of(source_markdown))

    if cache is None:
        return convert()
    key = cache_key(fragment, page_url=page_url, site=site or site_digest(site_map),
                    settings=settings, source_markdown=source_markdown)
    found = cache.get(key)
    if found is not None:
        return found
    conversion = convert()
    cache.put(key, conversion)
    return conversion
