"""Diagnostics: what the core reports instead of logging."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Literal

__all__ = ["Diagnostic", "Severity", "audible", "unique"]

Severity = Literal["warning", "info"]


@dataclass(frozen=True)
class Diagnostic:
    """One thing a user may want to know about.

    ``code`` is a short stable identifier (``"unknown-construct"``, ``"no-git"``) that the
    plugins use as their warning subtype, so users can silence it.
    """

    code: str
    message: str
    location: str | None = None
    severity: Severity = "warning"

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.message} [{self.code}]"


def unique(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` without repeats, in first-seen order: one warning, not one a page."""
    return list(dict.fromkeys(diagnostics))


def audible(diagnostics: Iterable[Diagnostic], quiet: Collection[str]) -> list[Diagnostic]:
    """``diagnostics`` without repeats and without those whose code the user keeps
    quiet (the ``quiet`` setting)."""
    return [d for d in unique(diagnostics) if d.code not in quiet]
