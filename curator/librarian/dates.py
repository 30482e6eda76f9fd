"""Instants for the librarian: the clock, frontmatter dates and commit times, all in UTC.

A date without a time (``created: 2026-11-29``) counts from the end of that day:
a digest run on the 29th cannot know which of that day's notes are still to
come, so the day's notes go into the first digest after it ends, and into no
other (a window is ``since < created <= until``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from curator.errors import UsageError

UTC = dt.UTC


def iso(when: dt.datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_clock(text: str) -> dt.datetime:
    """``--now``: an ISO-8601 date or time; without an offset it is UTC."""
    try:
        when = _parse_datetime(text.strip())
    except ValueError:
        raise UsageError(
            f"--now {text!r} is not an ISO-8601 time", hint="e.g. 2026-11-30T07:00:00Z or 2026-11-30"
        ) from None
    return when


def _parse_datetime(text: str) -> dt.datetime:
    when = dt.datetime.fromisoformat(text)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).replace(microsecond=0)


def from_frontmatter(value: Any) -> tuple[dt.datetime, dt.datetime, str]:
    """(instant, earliest moment meant, display day) of a frontmatter date; ValueError when it is none.

    The index keeps frontmatter as JSON, so YAML dates and times arrive as text.
    """
    if isinstance(value, bool) or not isinstance(value, str):
        raise ValueError(value)
    text = value.strip()
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        pass
    else:
        start = dt.datetime(day.year, day.month, day.day, tzinfo=UTC)
        return start + dt.timedelta(days=1), start, day.isoformat()
    when = _parse_datetime(text)
    return when, when, when.date().isoformat()


def from_text(value: str | None) -> dt.datetime | None:
    """A time this package wrote (a digest's window, a sighting); None when unreadable."""
    if not value:
        return None
    try:
        return _parse_datetime(str(value).strip())
    except ValueError:
        return None


def from_epoch(seconds: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(seconds, UTC)


def age_days(now: dt.datetime, when: dt.datetime) -> float:
    return max(0.0, (now - when).total_seconds() / 86400.0)
