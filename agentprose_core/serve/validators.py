"""Validators of the files ``agentprose serve`` answers with: a strong ``ETag`` (a hash
of the media type and the bytes), kept per file while its inode, size and times stay,
``Last-Modified`` dates, and ``If-None-Match`` matching."""

from __future__ import annotations

import email.utils
import functools
import hashlib
import os
import re
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from io import BufferedReader
    from pathlib import Path

__all__ = ["INLINE_LIMIT", "entity_tag", "etag_matches", "http_date", "validated"]

# Bodies up to this size are read into memory (one read, and what tests of respond() look
# at); larger ones are streamed from the file by the handler.
INLINE_LIMIT = 64 * 1024
_ETAG_ENTRIES = 4096  # about 1 MB at most; a site larger than that rehashes cold files
_ENTITY_TAG = re.compile(r'(?:W/)?("[^"]*")')


def entity_tag(data: bytes, content_type: str) -> str:
    """A strong ``ETag``: differs whenever the bytes or the media type differ."""
    return _tag(hashlib.sha256(_tag_prefix(content_type) + data).hexdigest())


def _tag_prefix(content_type: str) -> bytes:
    return content_type.encode() + b"\0"


def _tag(hexdigest: str) -> str:
    return f'"{hexdigest[:32]}"'


def _hash_file(file: BufferedReader, size: int, content_type: str) -> tuple[str, bytes | None]:
    """The file's :func:`entity_tag`, and its bytes when small enough to keep for the body."""
    if size <= INLINE_LIMIT:
        data = file.read(size)
        return entity_tag(data, content_type), data
    # file_digest reads in fixed-size chunks: memory stays flat whatever the file's size.
    start = functools.partial(hashlib.sha256, _tag_prefix(content_type))
    digest = hashlib.file_digest(file, start)
    return _tag(digest.hexdigest()), None


_Stamp = tuple[int, int, int, int]


class _ETagCache:
    """ETags by file and media type, valid while the file's inode, size and times stay.

    Shared by the worker threads (hence the lock) and bounded: the least recently used
    file goes first. One entry per file, replaced when the file changes. A rewrite in
    place to the same size within one tick of the file system's clock would keep the old
    tag; nginx's ETag (time and size) has the same blind spot.
    """

    def __init__(self, entries: int = _ETAG_ENTRIES) -> None:
        self._entries = entries
        self._tags: OrderedDict[tuple[str, str], tuple[_Stamp, str]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._tags)

    def get(self, key: tuple[str, str], stamp: _Stamp) -> str | None:
        with self._lock:
            found = self._tags.get(key)
            if found is None or found[0] != stamp:
                return None
            self._tags.move_to_end(key)
            return found[1]

    def put(self, key: tuple[str, str], stamp: _Stamp, etag: str) -> None:
        with self._lock:
            self._tags[key] = (stamp, etag)
            self._tags.move_to_end(key)
            while len(self._tags) > self._entries:
                self._tags.popitem(last=False)


_ETAGS = _ETagCache()


def _stamp(status: os.stat_result) -> _Stamp:
    # ctime too: it moves on every write even when a tool restores the mtime (rsync -t).
    return (status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def http_date(timestamp: float) -> str:
    """An IMF-fixdate: ``Sun, 06 Nov 1994 08:49:37 GMT``."""
    return email.utils.formatdate(timestamp, usegmt=True)


def etag_matches(if_none_match: str, etag: str) -> bool:
    """Weak comparison of ``etag`` against an ``If-None-Match`` list (``*`` matches all)."""
    if if_none_match.strip() == "*":
        return True
    return etag.removeprefix("W/") in _ENTITY_TAG.findall(if_none_match)


def validated(file: BufferedReader, path: Path,
               content_type: str) -> tuple[os.stat_result, str, bytes | None]:
    """The open file's status and ETag (hashed only when not cached), and its bytes when
    hashing them read them."""
    status = os.fstat(file.fileno())
    key, stamp = (str(path), content_type), _stamp(status)
    etag = _ETAGS.get(key, stamp)
    if etag is not None:
        return status, etag, None
    etag, data = _hash_file(file, status.st_size, content_type)
    _ETAGS.put(key, stamp, etag)
    return status, etag, data
