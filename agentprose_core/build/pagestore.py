"""The pages as the tool handed them over (content and metadata), kept in one pickle
(MkDocs: in its cache folder) for a build that renders only some of them
(``mkdocs build --dirty``): the others are converted again from it with today's site
map, nav and git dates.
"""

from __future__ import annotations

import contextlib
import itertools
import pickle
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from agentprose_core.diagnostics import Diagnostic
from agentprose_core.errors import AgentproseError
from agentprose_core.files import update_in_place, write_atomic
from agentprose_core.records.store import UNREADABLE
from agentprose_core.render.decorate import redecorate_page
from agentprose_core.version import __version__

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from pathlib import Path

    from agentprose_core.build.assemble import CollectedPage
    from agentprose_core.model import PageRecord, SiteRecord
    from agentprose_core.settings import Settings

__all__ = ["PageStore", "UnrenderedPage", "refresh_heads"]

_PAGES_HEADER = ("agentprose pages", __version__)


@dataclass(frozen=True)
class UnrenderedPage:
    """A page a dirty build did not render: where it is written, and its place in
    today's nav."""

    source: str
    written: Path
    section: tuple[str, ...]
    in_nav: bool


class PageStore:
    """The pages of the last complete build, by the tool's name for them, in one file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, CollectedPage]:
        """The pages kept; none when there is no file, a file cut short, or one another
        version wrote."""
        pages: dict[str, CollectedPage] = {}
        with contextlib.suppress(*UNREADABLE), self.path.open("rb") as handle:
            if pickle.load(handle) != _PAGES_HEADER:
                return {}
            while (entry := pickle.load(handle)) is not None:
                name, page = entry
                pages[name] = page
            return pages
        return {}

    def save(self, pages: Mapping[str, CollectedPage]) -> bool:
        """Keep ``pages`` for the next build, one at a time (no second copy of every
        page's HTML in memory); False when they can't be (front matter that does not
        pickle, a full disk): that build then converts only what it renders."""
        entries = itertools.chain([_PAGES_HEADER], pages.items(), [None])
        chunks = (pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL) for entry in entries)
        try:
            write_atomic(self.path, chunks)
        except (AgentproseError, pickle.PicklingError, TypeError, AttributeError,
                RecursionError):
            with contextlib.suppress(OSError):  # an older file would not match the site
                self.path.unlink(missing_ok=True)
            return False
        return True


def refresh_heads(pages: Iterable[tuple[Path, PageRecord]], last: Mapping[str, PageRecord], *,
                  site: SiteRecord, settings: Settings) -> list[Diagnostic]:
    """The head tags of the pages a dirty build did not write (each written page with
    its record), where their record changed since the ``last`` build's (a commit moved a
    date, a neighbour came): the tool leaves those pages as they were."""
    notes = []
    for page, record in pages:
        if record == last.get(record.url) or not page.is_file():
            continue
        try:
            update_in_place(page, partial(redecorate_page, page=record, site=site,
                                          settings=settings))
        except AgentproseError as error:
            notes.append(Diagnostic("head", f"agentprose: the <head> of {page} was not "
                                            f"brought up to date: {error}"))
    return notes
