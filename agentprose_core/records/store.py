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
file systems keep times to the second.) Beside each record the pickle keeps what the
caller made from it (the page's parts of the site files: rendering them again for every
page cost a one-page rebuild more than the page), valid as long as the record is. The
pickle is written and read one record at a time, so that no second copy of every
page's Markdown is ever in memory. It is written again only once an eighth of it is
out of date: a one-page rebuild of a 1,000-page site would otherwise write 12 MB to
spare itself parsing one record."""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import pickle
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agentprose_core.errors import AgentproseError
from agentprose_core.files import write_atomic
from agentprose_core.records.page import record_from_json, record_to_json
from agentprose_core.version import __version__

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from pathlib import Path

    from agentprose_core.model import PageRecord

__all__ = ["UNREADABLE", "RecordStore", "StoredRecords"]

_MEMO = "records.pickle"
_HEAD = "git-head"
_SITE_FILES = "site-files"
_HEADER = ("agentprose records", 2, __version__)
UNREADABLE = (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError,
               IndexError, TypeError, ValueError)
"""What reading a pickle another build wrote may raise: the file is then not used."""


@dataclass
class StoredRecords:
    """The records of a build's documents (:meth:`RecordStore.load_stored`), with what
    the last build kept beside each one that is still current (``kept``)."""

    records: dict[str, PageRecord] = field(default_factory=dict)
    digests: dict[str, bytes] = field(default_factory=dict)
    kept: dict[str, object] = field(default_factory=dict)
    fresh: set[str] = field(default_factory=set)  # parsed now: the memo had them not
    gone: int = 0  # entries of the memo for documents no longer there

    def replace(self, docname: str, record: PageRecord, digest: bytes) -> None:
        """``docname``'s record as saved again by this build (:meth:`RecordStore.save`):
        what was kept beside the old one is not for it."""
        self.records[docname] = record
        self.digests[docname] = digest
        self.kept.pop(docname, None)
        self.fresh.add(docname)


class RecordStore:
    """The records under ``directory``, by docname."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path(self, docname: str) -> Path:
        """Where ``docname``'s record is kept."""
        return self.directory / f"{docname}.json"

    def save(self, docname: str, record: PageRecord) -> bytes:
        """Write one page's record (any process); returns its digest. Through a rename:
        a build stopped mid-write must not leave half a record for the next build to
        trip on."""
        data = record_to_json(record).encode("utf-8")
        write_atomic(self.path(docname), data)
        return _digest(data)

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
        stored = self.load_stored(docnames)
        self.keep(stored, stored.kept)
        return stored.records

    def load_stored(self, docnames: Iterable[str]) -> StoredRecords:
        """The records of those ``docnames`` that have one and what the last build kept
        beside them (see :meth:`keep`)."""
        memo = self._memo()
        stored = StoredRecords()
        for docname in docnames:
            try:
                data = self.path(docname).read_bytes()
            except OSError:
                continue
            digest = _digest(data)
            known = memo.get(docname)
            if known is None or known[0] != digest:
                stored.records[docname] = record_from_json(data.decode("utf-8"))
                stored.fresh.add(docname)
            else:
                stored.records[docname] = known[1]
                if known[2] is not None:
                    stored.kept[docname] = known[2]
            stored.digests[docname] = digest
        stored.gone = sum(1 for docname in memo if docname not in stored.records)
        return stored

    def keep(self, stored: StoredRecords, beside: Mapping[str, object]) -> None:
        """After a build: its records with what it made from each (``beside``, by
        docname; what the next :meth:`load_stored` gives back as ``kept`` while the
        record is the same), written only when an eighth of the memo is out of date."""
        changed = stored.fresh | {docname for docname in stored.records
                                  if beside.get(docname) is not stored.kept.get(docname)}
        stale = len(changed) + stored.gone
        if not stale or stale * 8 < len(stored.records):
            return
        entries = ((docname, stored.digests[docname], record, beside.get(docname))
                   for docname, record in stored.records.items())
        chunks = (pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
                  for value in itertools.chain([_HEADER], entries))
        # The memo only saves time: without it the next build parses every record again.
        with contextlib.suppress(AgentproseError):
            write_atomic(self.directory / _MEMO, chunks)

    def _memo(self) -> dict[str, tuple[bytes, PageRecord, object]]:
        memo: dict[str, tuple[bytes, PageRecord, object]] = {}
        # Missing, cut short, or written by another version: what was read is still
        # good (each entry's digest is checked against its file), the rest is parsed.
        with contextlib.suppress(*UNREADABLE), (self.directory / _MEMO).open("rb") as handle:
            if pickle.load(handle) != _HEADER:
                return {}
            while True:
                docname, digest, record, beside = pickle.load(handle)
                memo[docname] = (digest, record, beside)
        return memo


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()
