"""What a build keeps for the next one, so that an incremental build (Sphinx without
``-E``, ``mkdocs build --dirty``, either tool's ``serve``) writes the site files a full
build would, though the tool hands over only the pages that changed.

:class:`RecordStore`: page records, one JSON file per page (Sphinx: under the doctree
folder). Each page's record is written where the tool writes the page (a writer
process under ``-j``) and read back when the site files are made, the unchanged pages
of earlier builds included. Parsing every record again costs more than the rest of an incremental
build's work for us, so the records read last time are kept in one pickle beside
them, each with a digest of its JSON file: only the files that changed since are
parsed. (A digest, not the file's time and size: an edit can keep the size, and some
file systems keep times to the second.) The pickle is written and read one record at a
time, so that no second copy of every page's Markdown is ever in memory. It is written
again only once an eighth of it is out of date: a one-page rebuild of a 1,000-page site
would otherwise write 12 MB to spare itself parsing one record."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import pickle
from typing import TYPE_CHECKING

from agentprose_core.errors import AgentproseError
from agentprose_core.files import write_atomic
from agentprose_core.records.page import record_from_json, record_to_json
from agentprose_core.version import __version__

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from agentprose_core.model import PageRecord

__all__ = ["UNREADABLE", "RecordStore"]

_MEMO = "records.pickle"
_HEAD = "git-head"
_SITE_FILES = "site-files"
_HEADER = ("agentprose records", __version__)
UNREADABLE = (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError,
               IndexError, TypeError, ValueError)
"""What reading a pickle another build wrote may raise: the file is then not used."""


class RecordStore:
    """The records under ``directory``, by docname."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path(self, docname: str) -> Path:
        """Where ``docname``'s record is kept."""
        return self.directory / f"{docname}.json"

    def save(self, docname: str, record: PageRecord) -> None:
        """Write one page's record (any process). Through a rename: a build stopped
        mid-write must not leave half a record for the next build to trip on."""
        write_atomic(self.path(docname), record_to_json(record))

    def docnames(self) -> list[str]:
        """Every docname with a record on disk, sorted."""
        if not self.directory.is_dir():
            return []
        return sorted(path.relative_to(self.directory).with_suffix("").as_posix()
                      for path in self.directory.rglob("*.json"))

    def load(self, docname: str) -> PageRecord:
        """``docname``'s record, as last saved."""
        return record_from_json(self.path(docname).read_text(encoding="utf-8"))

    def remove(self, docname: str) -> None:
        """Forget ``docname``'s record."""
        self.path(docname).unlink(missing_ok=True)

    def last_head(self) -> str | None:
        """The commit the last build dated its pages at, if it said."""
        with contextlib.suppress(OSError):
            return (self.directory / _HEAD).read_text(encoding="utf-8").strip() or None
        return None

    def keep_head(self, head: str | None) -> None:
        """After a build: the commit its pages were dated at (a commit moves dates of
        pages whose files did not change)."""
        with contextlib.suppress(OSError):
            self.directory.mkdir(parents=True, exist_ok=True)
            (self.directory / _HEAD).write_text(head or "", encoding="utf-8")

    def last_site_files(self) -> list[str]:
        """The site files (``llms.txt`` of each section, ``agentprose.json``, …) the last
        build wrote, relative to the output folder."""
        with contextlib.suppress(OSError):
            text = (self.directory / _SITE_FILES).read_text(encoding="utf-8")
            return [line for line in text.split("\n") if line]
        return []

    def keep_site_files(self, files: Iterable[str]) -> None:
        """After a build: the site files it wrote (the next build removes those it no
        longer writes: a section that lost pages has no ``llms.txt`` of its own)."""
        with contextlib.suppress(OSError):
            self.directory.mkdir(parents=True, exist_ok=True)
            (self.directory / _SITE_FILES).write_text(
                "".join(f"{name}\n" for name in sorted(set(files))), encoding="utf-8")

    def load_all(self, docnames: Iterable[str]) -> dict[str, PageRecord]:
        """The records of those ``docnames`` that have one, parsing only the files
        written since the memo was (once per build, where the site files are made)."""
        memo = self._memo()
        found: dict[str, tuple[bytes, PageRecord]] = {}
        parsed = 0
        for docname in docnames:
            try:
                data = self.path(docname).read_bytes()
            except OSError:
                continue
            digest = hashlib.blake2b(data, digest_size=16).digest()
            known = memo.get(docname)
            if known is None or known[0] != digest:
                known = (digest, record_from_json(data.decode("utf-8")))
                parsed += 1
            found[docname] = known
        # Out of date: the records parsed now, and those the memo holds for no page.
        stale = parsed + sum(1 for docname in memo if docname not in found)
        if stale and stale * 8 >= len(found):
            self._keep(found)
        return {docname: record for docname, (_, record) in found.items()}

    def _memo(self) -> dict[str, tuple[bytes, PageRecord]]:
        memo: dict[str, tuple[bytes, PageRecord]] = {}
        # Missing, cut short, or written by another version: what was read is still
        # good (each entry's digest is checked against its file), the rest is parsed.
        with contextlib.suppress(*UNREADABLE), (self.directory / _MEMO).open("rb") as handle:
            if pickle.load(handle) != _HEADER:
                return {}
            while True:
                docname, digest, record = pickle.load(handle)
                memo[docname] = (digest, record)
        return memo

    def _keep(self, memo: dict[str, tuple[bytes, PageRecord]]) -> None:
        entries = ((docname, digest, record) for docname, (digest, record) in memo.items())
        chunks = (pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
                  for value in itertools.chain([_HEADER], entries))
        # The memo only saves time: without it the next build parses every record again.
        with contextlib.suppress(AgentproseError):
            write_atomic(self.directory / _MEMO, chunks)
