"""When files last changed in git."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import subprocess
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from agentprose_core.diagnostics import Diagnostic
from agentprose_core.errors import OutputError
from agentprose_core.files import write_atomic
from agentprose_core.timefmt import format_utc

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = ["GitHistory", "LastChanged", "covering_folders", "git_history", "is_shallow"]

GitHistory = dict[str, str]
"""Repository-relative POSIX path -> UTC ISO time of the last commit that touched it."""


def _git(directory: Path, *args: str) -> str | None:
    """What a git command prints in ``directory``, or None when git fails or is missing."""
    try:
        out = subprocess.run(
            ["git", "-c", "core.quotepath=off", *args],
            cwd=directory, capture_output=True, text=True, check=True, encoding="utf-8",
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout


def is_shallow(directory: Path) -> bool:
    """True when ``directory`` is in a shallow clone (every file would get one date)."""
    found = _work_tree(directory)
    return found is not None and found[1]


def _work_tree(directory: Path) -> tuple[Path, bool, str | None] | None:
    """The repository root, whether the clone is shallow, and the HEAD commit (None
    before the first commit), in one git call."""
    out = _git(directory, "rev-parse", "--show-toplevel", "--is-shallow-repository", "HEAD")
    lines = (out or "").splitlines()
    if len(lines) == 3:
        return Path(lines[0]), lines[1].strip() == "true", lines[2].strip()
    out = _git(directory, "rev-parse", "--show-toplevel", "--is-shallow-repository")
    lines = (out or "").splitlines()
    if len(lines) != 2:
        return None
    return Path(lines[0]), lines[1].strip() == "true", None


def git_history(directory: Path) -> tuple[Path, GitHistory] | None:
    """When each file under ``directory`` last changed, from one ``git log`` pass.

    Returns the repository root and a map of root-relative paths to times, or None
    when ``directory`` is not in a git work tree (or git is missing).
    """
    found = _work_tree(directory)
    return None if found is None else (found[0], _history(directory))


def _stored_history(directory: Path, head: str, cache_dir: Path,
                    also: tuple[str, ...] = ()) -> GitHistory:
    """:func:`_history`, kept in ``cache_dir`` for as long as HEAD stays the same: a
    rebuild without a new commit reads a file instead of the whole log."""
    place = hashlib.sha256(str(directory.resolve()).encode()).hexdigest()[:12]
    scope = "\n".join((str(directory.resolve()), *also))
    # _HISTORY_RULES changes when the rule of what dates a file does: a stored history
    # from an older rule is read again.
    key = hashlib.sha256(f"{_HISTORY_RULES}\n{head}\n{scope}".encode()).hexdigest()[:20]
    path = cache_dir / f"git-history-{place}-{key}.json"
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(found, dict):
            return {str(k): str(v) for k, v in found.items()}
    except (OSError, ValueError):
        pass
    history = _history(directory, also)
    try:
        for old in cache_dir.glob(f"git-history-{place}-*.json"):  # an older HEAD's
            old.unlink(missing_ok=True)
        write_atomic(path, json.dumps(history, ensure_ascii=False))
    except (OSError, OutputError):
        pass  # a cache that cannot be written is only slower
    return history


_HISTORY_RULES = 2  # 2: merges that changed a file against every parent date it


def covering_folders(files: Iterable[str], docs: str) -> tuple[str, ...]:
    """Fewer paths for ``git log`` to follow than ``files`` (root-relative), covering
    them all: each file's folder, unless that folder is the repository's root or holds
    ``docs`` (the whole tree, near enough), then the file itself; folders inside another
    one left out.

    git matches every entry of every tree it compares against each path it was given:
    Flask's eighteen autodoc modules, named one by one, cost its ``git log`` 1,178 M
    instructions, their one folder 683 M. The history then also dates the folder's
    other files, which is no harm: their dates are as true as those asked for.
    """
    chosen: set[str] = set()
    for file in files:
        folder = file.rpartition("/")[0]
        holds_docs = folder in ("", docs) or docs.startswith(folder + "/")
        chosen.add(file if holds_docs else folder)
    return tuple(sorted(path for path in chosen if not _under_any(path, chosen)))


def _under_any(path: str, folders: set[str]) -> bool:
    parts = path.split("/")
    return any("/".join(parts[:n]) in folders for n in range(1, len(parts)))


def _history(directory: Path, also: tuple[str, ...] = ()) -> GitHistory:
    """When each file under ``directory`` (and under each of ``also``, files or folders
    from the repository's root) last changed, from one ``git log`` pass."""
    tops = [f":(top,literal){path}" for path in also]
    # -c: a merge lists the files it changed against every parent, which is when
    # `git log -1 -- path` names the merge itself (a conflict resolved there).
    log = _git(directory, "log", "--no-renames", "-c", "--format=%x00%ct", "--name-only",
               "--", ".", *tops)
    history: GitHistory = {}
    when = ""
    for line in (log or "").splitlines():
        if line.startswith("\0"):
            when = format_utc(dt.datetime.fromtimestamp(int(line[1:]), dt.UTC))
        elif line and line not in history:
            history[line] = when
    return history


_NAMED = 5  # files a warning names before it says how many more


class LastChanged:
    """When source files last changed: git history read once, else file times.

    Git runs on the first question, not before: a rebuild that writes no page runs none;
    or from :meth:`start`, in the background, for a build that will ask.
    With a ``cache_dir``, the history is kept there until HEAD moves: a rebuild without
    a new commit runs one quick ``git rev-parse`` and no ``git log``.
    ``notes()`` tells the user, once per build, when dates came from file times (not
    in git) or from a shallow clone (where every file gets the same date).
    """

    def __init__(self, directory: Path, cache_dir: Path | None = None,
                 fallback: Path | None = None) -> None:
        self._directory = directory
        self._fallback = fallback  # where the sources are when ``directory`` is a copy
        self._cache_dir = cache_dir
        self._located = False
        self._loaded = False
        self._root: Path | None = None
        self._head: str | None = None
        self._history: GitHistory = {}
        self._whole_repository = False
        self._shallow = False
        self._from_mtime: list[str] = []
        self._ignored_paths: frozenset[str] | None = None  # what git ignores in the tree
        self._expected: tuple[str, ...] = ()  # what outside the folder joins its git log
        self._reading: threading.Thread | None = None  # the history, read in the background
        self._failure: BaseException | None = None  # what stopped it, raised when asked

    def expect(self, paths: Iterable[Path]) -> None:
        """Name, before the first question, the files that will be asked about: those
        in the repository but outside the folder (an autodoc page's modules, an included
        ``../CHANGES.rst``) then join the folder's one ``git log`` pass, limited to
        them and their folders (:func:`covering_folders`), instead of a second pass over
        the whole repository's history."""
        self._locate()
        if self._loaded or self._root is None:
            return
        self._expect(paths)

    def _expect(self, paths: Iterable[Path]) -> None:
        assert self._root is not None  # located, in a repository
        root, inside = self._root, self._directory.resolve()
        outside = set()
        for path in paths:
            resolved = path.resolve()
            if root in resolved.parents and inside not in resolved.parents:
                outside.add(resolved.relative_to(root).as_posix())
        self._expected = covering_folders(outside, inside.relative_to(root).as_posix())

    def _locate(self) -> None:
        """The repository, whether it is shallow, and HEAD: one quick git call."""
        if self._located:
            return
        self._located = True
        found = _work_tree(self._directory)
        if found is None and self._fallback is not None:
            # A plugin built the docs from a copy outside the repository (mkdocs-monorepo
            # merges several docs folders in a temporary one): the sources' own folder.
            found = _work_tree(self._fallback)
            if found is not None:
                self._directory = self._fallback
        if found is not None:
            self._root, self._shallow, self._head = found[0].resolve(), found[1], found[2]

    def start(self, expect: Callable[[], Iterable[Path]] | None = None) -> None:
        """Read the history now, in a thread, for a build that will ask for dates: the
        ``git log`` pass (0.1–0.3 s on a repository of a few thousand commits) then runs
        on another CPU while the tool renders pages, not when the first date is asked.
        Call it after :meth:`expect`, or give ``expect`` what it would be given, found
        in the thread first (MkDocs: the code and snippets each page's source names,
        which would otherwise cost a second, whole-repository pass when asked), and not
        in a process that will fork before the first question (Sphinx's parallel
        writers): a forked child has no thread."""
        if self._loaded or self._reading is not None:
            return
        self._locate()  # here: head() may be asked meanwhile
        if self._root is None:
            return
        self._loaded = True
        self._reading = threading.Thread(target=self._read_in_background, args=(expect,),
                                         name="agentprose-git-history", daemon=True)
        self._reading.start()

    def _read_in_background(self, expect: Callable[[], Iterable[Path]] | None) -> None:
        try:
            if expect is not None:
                self._expect(expect())
            self._history = self._read(self._directory, self._expected)
        except BaseException as error:  # raised where the history is asked for
            self._failure = error

    def _load(self) -> None:
        if self._reading is not None:
            self._reading.join()
            self._reading = None
            failure, self._failure = self._failure, None
            if failure is not None:
                raise failure
        if self._loaded:
            return
        self._loaded = True
        self._locate()
        if self._root is not None:
            self._history = self._read(self._directory, self._expected)

    def _read(self, directory: Path, also: tuple[str, ...] = ()) -> GitHistory:
        if self._head is not None and self._cache_dir is not None:
            return _stored_history(directory, self._head, self._cache_dir, also)
        return _history(directory, also)

    def _in_history(self, relative: str) -> str | None:
        found = self._history.get(relative)
        if found is None and not self._whole_repository and self._root is not None:
            # A file outside the docs folder (an autodoc module in src/, an included
            # ../CHANGES.rst, a snippet): one more pass, over the whole repository.
            self._whole_repository = True
            self._history = {**self._read(self._root), **self._history}
            found = self._history.get(relative)
        return found

    def of(self, path: Path) -> str:
        """The time ``path`` last changed, as ``YYYY-MM-DDTHH:MM:SSZ``: its last commit
        when git tracks it; the newest commit when a tool generated it (outside the
        repository, or in a folder git ignores); else its modification time (and the
        user is told)."""
        self._load()
        if self._root is not None:  # outside a work tree, no path needs resolving
            resolved = path.resolve()
            if not self._in_repository(resolved):
                return self.latest()  # a plugin's temporary folder (Material's blog)
            found = self._in_history(resolved.relative_to(self._root).as_posix())
            if found:
                return found
            if self._ignored(resolved):  # generated in the tree (sphinx-autodoc2's apidocs)
                return self.latest()
        self._from_mtime.append(self._shown(path))
        return format_utc(dt.datetime.fromtimestamp(path.stat().st_mtime, dt.UTC))

    def _repository_path(self, path: Path) -> str | None:
        """``path`` relative to the repository's root, or None outside one."""
        self._load()
        if self._root is None:
            return None
        resolved = path.resolve()
        return resolved.relative_to(self._root).as_posix() \
            if self._in_repository(resolved) else None

    def committed(self, path: Path) -> str | None:
        """The time of the last commit that changed ``path``, or None when git has none
        for it (no repository, not tracked, outside the repository)."""
        relative = self._repository_path(path)
        return None if relative is None else self._in_history(relative)

    def untracked(self, path: Path) -> bool:
        """True for a file in the repository that git neither tracks nor ignores: a new
        file not committed yet, or one a build step wrote (generated API sources)."""
        relative = self._repository_path(path)
        return relative is not None and self._in_history(relative) is None \
            and not self._ignored(path.resolve())

    def newest(self, paths: Iterable[Path]) -> str:
        """When a page built from ``paths`` last changed: the newest of them that are in
        the repository. Files from elsewhere (installed packages an autodoc page also
        documents) say nothing of the project's history; a page built from those only
        takes :meth:`of` its first file."""
        existing = [path for path in paths if path.exists()]
        self._load()
        own = [path for path in existing if self._in_repository(path.resolve())]
        return max((self.of(path) for path in own or existing[:1]), default=self.latest())

    def _in_repository(self, resolved: Path) -> bool:
        return self._root is None or self._root in resolved.parents

    def _ignored(self, resolved: Path) -> bool:
        """True when git ignores the file: a build step wrote it, nobody commits it.
        One git call for the whole tree, the first time a file is asked about (a site
        of new, uncommitted pages asks about each of them)."""
        if self._ignored_paths is None:
            assert self._root is not None
            listed = _git(self._root, "ls-files", "--others", "--ignored", "--exclude-standard",
                          "--directory", "-z")
            self._ignored_paths = frozenset((listed or "").split("\0")) - {""}
        relative = resolved.relative_to(self._root).as_posix() if self._root else ""
        if relative in self._ignored_paths:
            return True
        parts = relative.split("/")[:-1]
        return any("/".join(parts[:n]) + "/" in self._ignored_paths
                   for n in range(1, len(parts) + 1))

    def _shown(self, path: Path) -> str:
        """``path`` as the warning names it: relative to the docs folder when inside."""
        try:
            return path.resolve().relative_to(self._directory.resolve()).as_posix()
        except ValueError:
            return str(path)

    def latest(self) -> str:
        """The newest time in the history, for pages a plugin generates from no file
        (or from a file of its own outside the repository)."""
        self._load()
        if self._history:
            return max(self._history.values())
        modified = self._directory.stat().st_mtime
        return format_utc(dt.datetime.fromtimestamp(modified, dt.UTC))

    def head(self) -> str | None:
        """The commit the work tree is at (None outside git or before a first commit):
        a page's date can only have moved since a build that saw another one."""
        self._locate()
        return self._head

    def notes(self) -> list[Diagnostic]:
        """What the user should know about where the dates came from."""
        found: list[Diagnostic] = []
        if self._shallow:
            found.append(Diagnostic(
                "shallow-clone",
                "The repository is a shallow clone, so git gives every page the date of the "
                "last commit. Fetch the full history: 'fetch-depth: 0' in actions/checkout on "
                "GitHub Actions, 'git fetch --unshallow' in a Read the Docs pre-build job.",
                str(self._directory),
            ))
        if self._from_mtime:
            where = (
                "they are not in a git work tree" if self._root is None
                else "git does not track them"
            )
            files = sorted(set(self._from_mtime))
            named = ", ".join(files[:_NAMED]) + (f" and {len(files) - _NAMED} more"
                                                 if len(files) > _NAMED else "")
            found.append(Diagnostic(
                "no-git",
                f"The dates of {len(files)} source file(s) come from their modification "
                f"time, as {where}: {named}. Pages built from them without a date in "
                "their metadata take that time as 'modified'. Commit the files, or set "
                "'modified' in the page metadata.",
                str(self._directory),
            ))
        return found
