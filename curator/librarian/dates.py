"""Frontmatter dates and the digest's clock, as instants in UTC (``curator.clock``).

A date or time a person wrote without an offset is theirs, in the vault's zone
(``notes.timezone``, else the machine's): ``created: 2026-12-04 08:05`` is 08:05 there,
as Obsidian and Templater mean it. A date without a time (``created: 2026-11-29``)
counts from the end of that day there: a digest run on the 29th cannot know which of
that day's notes are still to come, so the day's notes go into the first digest after
it ends, and into no other (a window is ``since < created <= until``). The day a note
is shown under is its date in that zone.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from curator import clock
from curator.errors import UsageError


def parse_clock(text: str) -> dt.datetime:
    """``--now``: an ISO-8601 date or time; without an offset it is UTC."""
    try:
        return clock.parse(text)
    except ValueError:
        raise UsageError(
            f"--now {text!r} is not an ISO-8601 time", hint="e.g. 2026-11-30T07:00:00Z or 2026-11-30"
        ) from None


def from_frontmatter(value: Any, zone: dt.tzinfo) -> tuple[dt.datetime, dt.datetime, str]:
    """(instant, earliest moment meant, display day) of a frontmatter date written in ``zone``;
    ValueError when it is none.

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
        start = clock.parse(day.isoformat(), zone)
        end = clock.parse((day + dt.timedelta(days=1)).isoformat(), zone)
        return end, start, day.isoformat()
    when = clock.parse(text, zone)
    return when, when, day_in(when, zone)


def day_in(when: dt.datetime, zone: dt.tzinfo) -> str:
    """The date ``when`` falls on in ``zone``, as the digest shows it (YYYY-MM-DD)."""
    return when.astimezone(zone).date().isoformat()
