"""Times as agentprose writes them: UTC ISO 8601 with seconds (``2026-03-14T10:30:00Z``)."""

from __future__ import annotations

import datetime as dt
import re

__all__ = ["format_utc", "to_utc_iso"]


def format_utc(moment: dt.datetime) -> str:
    """A moment as ``YYYY-MM-DDTHH:MM:SSZ``; a naive one is taken as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def to_utc_iso(value: object) -> str | None:
    """A metadata time as ``YYYY-MM-DDTHH:MM:SSZ``, or None when it is not a time.

    Accepts datetimes, dates, ISO 8601 strings (date-only, with ``Z`` or an offset,
    with a space for the ``T``) and POSIX timestamps. A naive time is taken as UTC.
    """
    if isinstance(value, dt.datetime):
        return format_utc(value)
    if isinstance(value, dt.date):
        return format_utc(dt.datetime(value.year, value.month, value.day))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return format_utc(dt.datetime.fromtimestamp(value, dt.UTC))
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str):
        text = value.strip()
        if text.endswith(("Z", "z")):
            text = text[:-1] + "+00:00"
        try:
            return format_utc(dt.datetime.fromisoformat(text))
        except ValueError:
            return _english_date(value.strip())
    return None


_MONTHS = {name: number for number, names in enumerate((
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
    ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
    ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
    ("december", "dec")), start=1) for name in names}
# "Jan 01, 2022" (ablog's default), "March 14, 2026", "14 March 2026", each with an
# optional "HH:MM[:SS]" after it (the git-revision-date plugin's English dates).
_ENGLISH = re.compile(
    r"(?:(?P<month>[A-Za-z]{3,9})\.?\s+(?P<day>\d{1,2})|(?P<day2>\d{1,2})\s+"
    r"(?P<month2>[A-Za-z]{3,9})\.?),?\s+(?P<year>\d{4})"
    r"(?:\s+(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2}))?)?")


def _english_date(text: str) -> str | None:
    """A date written in English words, in any locale (``strptime``'s ``%b`` follows the
    process's, which Sphinx sets from the environment)."""
    found = _ENGLISH.fullmatch(text)
    if found is None:
        return None
    month = _MONTHS.get((found["month"] or found["month2"]).lower())
    if month is None:
        return None
    try:
        moment = dt.datetime(int(found["year"]), month, int(found["day"] or found["day2"]),
                             int(found["hour"] or 0), int(found["minute"] or 0),
                             int(found["second"] or 0))
    except ValueError:
        return None
    return format_utc(moment)
