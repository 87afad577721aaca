"""Writing outputs into the site directory: atomically, and never outside it."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from .errors import OutputError

__all__ = ["safe_target", "write_atomic"]


def safe_target(site_dir: Path, relative: str) -> Path:
    """``site_dir / relative``, refusing any path that would leave ``site_dir``."""
    root = site_dir.resolve()
    target = (root / relative).resolve()
    if target != root and root not in target.parents:
        raise OutputError(f"Refusing to write {relative!r}: it is outside {site_dir}.")
    return target


def write_atomic(path: Path, data: str | bytes | Iterable[str]) -> int:
    """Write ``data`` to ``path`` through a temporary file and a rename.

    ``data`` may be an iterable of text chunks, written as they come, so that a large
    index is never held whole in memory. A crash leaves either the old file or the new
    one, never half of one. Returns the number of bytes written. Raises
    :class:`OutputError` with the reason on failure.
    """
    chunks: Iterable[bytes]
    if isinstance(data, bytes):
        chunks = (data,)
    elif isinstance(data, str):
        chunks = (data.encode("utf-8"),)
    else:
        chunks = (chunk.encode("utf-8") for chunk in data)
    written = 0
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                for chunk in chunks:
                    written += handle.write(chunk)
            Path(tmp).chmod(0o644)
            Path(tmp).replace(path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as error:
        reason = error.strerror or str(error)
        raise OutputError(f"Could not write {path}: {reason}.") from error
    return written
