"""What an incremental build must do again that the tool would not: a page-at-a-time
tool (Sphinx without ``-E``, sphinx-autobuild) reads and writes only the documents
whose files changed, so a commit (which moves a page's date, not its file) or a
deleted page (whose view others link) would leave views, the index and JSON-LD out of
date. :func:`outdated_documents` names the documents to hand back to the tool.

A page's date is the newest of its source and of the files its text comes from: the
tool's dependencies without images and downloads (:func:`content_dependencies`), and
for API pages the code they document (:func:`documented_rst_modules`,
:func:`summarized_modules`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentprose_core.records.dates import LastChanged
from agentprose_core.records.includes import (
    content_dependencies,
    documented_rst_modules,
    summarized_modules,
)
from agentprose_core.records.page import out_of_date

if TYPE_CHECKING:
    from collections.abc import Callable, Collection

    from agentprose_core.records.store import RecordStore

__all__ = [
    "LastChanged",
    "content_dependencies",
    "documented_rst_modules",
    "outdated_documents",
    "remember_head",
    "summarized_modules",
]


def outdated_documents(records: RecordStore, dates: LastChanged, *, known: Collection[str],
                       changed: Collection[str], removed: Collection[str],
                       modified_now: Callable[[str], str]) -> list[str]:
    """The documents the tool would leave as they are whose views are out of date:
    ``known`` are the documents the site has now, ``changed`` those the tool reads
    again anyway, ``removed`` those gone; ``modified_now`` gives a document's date as
    it is now. Reads no record in the usual rebuild (nothing removed, the repository
    at the commit of the last build)."""
    moved = dates.head() != records.last_head()
    if not (removed or moved):
        return []
    stored_names = records.docnames()
    if not stored_names:
        return []
    stored = records.load_all(stored_names)
    gone = {stored[doc].markdown_url for doc in removed if doc in stored}
    unchanged = {doc: record for doc, record in stored.items()
                 if doc in known and doc not in changed and doc not in removed}
    return out_of_date(unchanged, gone=gone, modified_now=modified_now if moved else None)


def remember_head(records: RecordStore, dates: LastChanged | None) -> None:
    """After a build: the commit its pages were dated at."""
    records.keep_head(dates.head() if dates is not None else None)
