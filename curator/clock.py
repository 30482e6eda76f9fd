"""Time, in one place: the UTC clock, the one ISO-8601 form Curator writes, and how it reads one back.

Everything Curator records (an event's ``at``, a manifest's ``created``, an epoch's last
reconcile, a digest's window) is UTC to the second, written ``2026-11-30T07:00:00Z``. A
time Curator reads without an offset is taken in the zone its reader names: a time a person
wrote in a note (``created: 2026-12-04 08:05``, as Obsidian and Templater write it) in the
vault's zone (``zone``: ``notes.timezone``, else the machine's), anything else (``--now``, a
time Curator wrote without its ``Z``) as UTC.
"""

from __future__ import annotations

import datetime as dt
import os
import zoneinfo

UTC = dt.UTC
FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def now() -> dt.datetime:
    """This instant in UTC, to the second (what every recorded time is rounded to)."""
    return dt.datetime.now(UTC).replace(microsecond=0)


def iso(when: dt.datetime | None = None) -> str:
    """``when`` (default: now) in Curator's one written form, ``YYYY-MM-DDTHH:MM:SSZ``."""
    when = now() if when is None else when
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).strftime(FORMAT)


def read(text: str) -> dt.datetime:
    """An ISO-8601 date or time as written: with its offset, or naive when it has none.

    The one reader of a timestamp (``parse`` builds on it); ValueError when ``text`` is none."""
    return dt.datetime.fromisoformat(text)


def zone(name: str | None) -> dt.tzinfo:
    """The time zone ``name`` (an IANA name such as ``Europe/Berlin``; ValueError when there is
    no such zone), or, for None, the machine's: ``TZ`` when it names a zone, else the zone
    ``/etc/localtime`` is a link into, else the machine's current offset (no daylight saving:
    only a system that names no zone at all gets that)."""
    if name:
        try:
            return zoneinfo.ZoneInfo(name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"{name!r} is not a time zone (an IANA name such as Europe/Berlin or UTC)") from None
    named = os.environ.get("TZ", "").removeprefix(":")
    if not named:
        target = os.path.realpath("/etc/localtime")
        named = target.split("/zoneinfo/", 1)[1] if "/zoneinfo/" in target else ""
    if named:
        try:
            return zoneinfo.ZoneInfo(named)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass  # TZ in POSIX form (EST5EDT,M3.2.0,...): the C library's own offset below
    local = dt.datetime.now().astimezone().tzinfo
    return local if local is not None else UTC


def name_of(tz: dt.tzinfo) -> str:
    """How a zone is said: its IANA name, else its offset's name (``UTC``, ``+0900``)."""
    key = getattr(tz, "key", None)
    return str(key) if key else (tz.tzname(None) or "UTC")


def parse(text: str, in_zone: dt.tzinfo = UTC) -> dt.datetime:
    """An ISO-8601 date or time as a UTC instant to the second, a time without an offset taken in
    ``in_zone`` (default UTC); ValueError when it is none, or lies where UTC cannot reach (year 1
    at +01:00)."""
    when = read(text.strip())
    if when.tzinfo is None:
        when = when.replace(tzinfo=in_zone)
    try:
        return when.astimezone(UTC).replace(microsecond=0)
    except OverflowError:
        raise ValueError(f"{text!r} is out of range in UTC") from None


def parse_or_none(value: object) -> dt.datetime | None:
    """A time Curator wrote itself (a digest's window, a sighting), or None when unreadable."""
    if not value:
        return None
    try:
        return parse(str(value))
    except ValueError:
        return None


def from_epoch(seconds: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(seconds, UTC)


def age(when: str | None, now: dt.datetime) -> str:
    """How long before ``now`` a recorded time was, as the review queue and ``curator proposals``
    show it: ``3d``, ``5h``, ``12m``, ``40s`` (``0s`` for a time ahead of ``now``); ``?`` when
    there is none or it is not a time."""
    at = parse_or_none(when)
    if at is None:
        return "?"
    secs = max(0, int((now - at).total_seconds()))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if secs >= size:
            return f"{secs // size}{unit}"
    return f"{secs}s"


def age_days(now: dt.datetime, when: dt.datetime) -> float:
    return max(0.0, (now - when).total_seconds() / 86400.0)


def duration(seconds: float) -> str:
    """A span as a person reads it: ``45s``, ``12 min``, ``2.5 h``."""
    seconds = round(seconds)
    if seconds < 90:
        return f"{seconds}s"
    if seconds < 5400:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"
