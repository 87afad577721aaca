"""Writing outputs into the site directory: atomically, and never outside it."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable
from pathlib import Path

from .errors import OutputError

__all__ = ["safe_target", "write_atomic"]

# Temporary names unique to a process and a call: no random names to draw and retry
# as mkstemp does (a build writes thousands of files), and no clash between Sphinx's
# writer processes or our threads.
_TEMPORARY = itertools.count()


def safe_target(site_dir: Path, relative: str) -> Path:
    """``site_dir / relative``, refusing any path that would leave ``site_dir``.

    The check is on the path's text (``..`` and absolute parts): the relative paths
    come from page URLs, and links the site's owner made inside the site directory
    are theirs to make.
    """
    root = site_dir.absolute()
    target = Path(os.path.normpath(root / relative))
    if target != root and root not in target.parents:
        raise OutputError(f"Refusing to write {relative!r}: it is outside {site_dir}.")
    return target


def _holds(path: Path, data: bytes) -> bool:
    """True when the file at ``path`` holds exactly ``data`` (reading it costs a tenth
    of writing it again)."""
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def write_atomic(path: Path, data: str | bytes | Iterable[str] | Iterable[bytes]) -> int:
    """Write ``data`` to ``path`` through a temporary file and a rename.

    ``data`` may be an iterable of chunks (text or bytes), written as they come, so
    that a large index is never held whole in memory. A crash leaves either the old
    file or the new one, never half of one. A file that already holds exactly ``data``
    (given whole) is left as it is, its time too: a rebuild into the same folder
    (Sphinx, ``mkdocs build --dirty``, ``agentprose build`` again) rewrites only what
    changed, and servers keep answering ``304`` for the rest. Returns the number of
    bytes the file holds. Raises :class:`OutputError` with the reason on failure.
    """
    chunks: Iterable[bytes]
    if isinstance(data, (bytes, str)):
        whole = data.encode("utf-8") if isinstance(data, str) else data
        if _holds(path, whole):
            return len(whole)
        chunks = (whole,)
    else:
        chunks = (chunk if isinstance(chunk, bytes) else chunk.encode("utf-8") for chunk in data)
    written = 0
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}-{next(_TEMPORARY)}.tmp")
        # 0o666 less the umask: the mode any other file of the build gets.
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
        try:
            with os.fdopen(fd, "wb") as handle:
                for chunk in chunks:
                    written += handle.write(chunk)
            tmp.replace(path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    except OSError as error:
        reason = error.strerror or str(error)
        raise OutputError(f"Could not write {path}: {reason}.") from error
    return written
