"""Times as the agent view writes them, and when files last changed in git."""

from __future__ import annotations

import datetime as dt
import subprocess
from pathlib import Path

__all__ = ["GitHistory", "git_history", "is_shallow", "to_utc_iso"]

GitHistory = dict[str, str]
"""Repository-relative POSIX path -> UTC ISO time of the last commit that touched it."""


def _format(moment: dt.datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    return moment.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def to_utc_iso(value: object) -> str | None:
    """A metadata time as ``YYYY-MM-DDTHH:MM:SSZ``, or None when it is not a time.

    Accepts datetimes, dates, ISO 8601 strings (date-only, with ``Z`` or an offset,
    with a space for the ``T``) and POSIX timestamps. A naive time is taken as UTC.
    """
    if isinstance(value, dt.datetime):
        return _format(value)
    if isinstance(value, dt.date):
        return _format(dt.datetime(value.year, value.month, value.day))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return _format(dt.datetime.fromtimestamp(value, dt.timezone.utc))
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str):
        text = value.strip()
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            return _format(dt.datetime.fromisoformat(text))
        except ValueError:
            return None
    return None


def _repo_root(directory: Path) -> Path | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=directory, capture_output=True, text=True, check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return Path(out.stdout.strip())


def is_shallow(directory: Path) -> bool:
    """True when ``directory`` is in a shallow clone (every file would get one date)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--is-shallow-repository"],
            cwd=directory, capture_output=True, text=True, check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return False
    return out.stdout.strip() == "true"


def git_history(directory: Path) -> tuple[Path, GitHistory] | None:
    """When each file under ``directory`` last changed, from one ``git log`` pass.

    Returns the repository root and a map of root-relative paths to times, or None
    when ``directory`` is not in a git work tree (or git is missing).
    """
    root = _repo_root(directory)
    if root is None:
        return None
    try:
        out = subprocess.run(
            ["git", "-c", "core.quotepath=off", "log", "--no-renames", "--format=%x00%ct",
             "--name-only", "--", "."],
            cwd=directory, capture_output=True, text=True, check=True, encoding="utf-8",
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    history: GitHistory = {}
    when = ""
    for line in out.stdout.splitlines():
        if line.startswith("\0"):
            when = _format(dt.datetime.fromtimestamp(int(line[1:]), dt.timezone.utc))
        elif line and line not in history:
            history[line] = when
    return root, history
