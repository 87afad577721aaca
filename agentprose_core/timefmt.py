"""Times as agentprose writes them: UTC ISO 8601 with seconds (``2026-03-14T10:30:00Z``)."""

from __future__ import annotations

import datetime as dt

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
            return None
    return None
