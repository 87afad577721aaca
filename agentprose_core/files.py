"""Writing outputs into the site directory: atomically, and never outside it."""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING

from agentprose_core.errors import OutputError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["remove_stale_temporaries", "safe_target", "update_in_place", "write_atomic"]

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
    root = Path(os.path.normpath(site_dir.absolute()))  # "../site-pages/2.0" as well
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


_IN_PLACE = os.O_RDWR | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


def update_in_place(path: Path, change: Callable[[bytes], bytes | None]) -> int:
    """Give the file at ``path`` the bytes ``change`` makes of its bytes, written over
    it in place; nothing happens when ``change`` returns None.

    For the pages another tool built and we add a few tags to: on ext4, replacing a
    500 KB page through a rename (:func:`write_atomic`) costs 1.7–2.7 ms, since the
    rename makes the kernel allocate and start writing the new file's blocks at once
    and free the old one's; writing over it costs 0.55 ms. The bytes go in one write,
    so an interrupt (Ctrl-C) lands before or after it, never inside; a write that fails
    (a full disk) puts the old bytes back. A symlink, a file with other hard links (a
    copy shared with another folder keeps its bytes) and a file we may not open for
    writing are replaced through :func:`write_atomic` instead. Returns the number of
    bytes written. Raises :class:`OutputError` with the reason on failure.
    """
    try:
        fd = os.open(path, _IN_PLACE)
    except OSError:
        return _replace(path, change)
    with os.fdopen(fd, "rb", buffering=0) as handle:  # written with pwrite on ``fd``
        info = os.fstat(fd)
        old = handle.read()
        new = change(old)
        if new is None:
            return 0
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
            return write_atomic(path, new)
        try:
            _write_at_start(fd, new, len(old))
        except OSError as error:
            with contextlib.suppress(OSError):
                _write_at_start(fd, old, len(new))
            reason = error.strerror or str(error)
            raise OutputError(f"Could not write {path}: {reason}.") from error
    return len(new)


def _write_at_start(fd: int, data: bytes, size: int) -> None:
    """Write ``data`` from the start of a file of ``size`` bytes, and cut what is left."""
    view = memoryview(data)
    while view:
        view = view[os.pwrite(fd, view, len(data) - len(view)):]
    if size > len(data):
        os.ftruncate(fd, len(data))


def _replace(path: Path, change: Callable[[bytes], bytes | None]) -> int:
    try:
        old = path.read_bytes()
    except OSError as error:
        reason = error.strerror or str(error)
        raise OutputError(f"Could not read {path}: {reason}.") from error
    new = change(old)
    return 0 if new is None else write_atomic(path, new)


# What write_atomic names its temporaries: ".<file name>.<process id>-<number>.tmp".
_OUR_TEMPORARY = re.compile(r"\.(?P<name>.+)\.(?P<pid>\d{1,10})-\d+\.tmp")


def remove_stale_temporaries(folders: Iterable[Path]) -> list[Path]:
    """Remove from ``folders`` (not below them) the temporary files of a build that was
    killed mid-write: those :func:`write_atomic` names, of a process that is gone (a
    deploy would publish them). Returns what was removed."""
    removed = []
    for folder in dict.fromkeys(folders):
        with contextlib.suppress(OSError), os.scandir(folder) as entries:
            for entry in entries:
                found = _OUR_TEMPORARY.fullmatch(entry.name)
                path = Path(entry.path)
                if found and entry.is_file(follow_symlinks=False) and \
                        not _alive(int(found["pid"]), path):
                    with contextlib.suppress(OSError):
                        path.unlink()
                        removed.append(path)
    return removed


def _alive(pid: int, path: Path) -> bool:
    """True when the process ``pid`` may still be writing ``path``: ours, a writer of
    this build, anyone's that runs. (On Windows, where asking a process is ending it,
    a temporary younger than an hour.)"""
    if pid == os.getpid():
        return True
    if os.name == "nt":
        with contextlib.suppress(OSError):
            return time.time() - path.stat().st_mtime < 3600
        return False
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except PermissionError:  # it does, another user's
        return True
    except (ProcessLookupError, OverflowError, OSError):
        return False
    return True
