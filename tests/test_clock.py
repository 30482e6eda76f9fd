"""curator.clock: the one reader of a timestamp and the one age a person is shown."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from curator import clock

NOW = dt.datetime(2026, 12, 4, 0, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-12-03T23:57:43Z", "2m"),
        ("2026-12-03T23:57:43", "2m"),  # no zone: UTC, as every time Curator reads
        ("2026-12-03T23:57:43+00:00", "2m"),
        ("2026-12-04T01:57:43+02:00", "2m"),
        ("2026-12-03T21:00:00-01:00", "2h"),
        ("2026-11-29T10:00:00Z", "4d"),
        ("2026-12-03T23:59:20.5Z", "40s"),
        ("2026-12-05T00:00:00Z", "0s"),  # ahead of the clock
        ("2026-12-03", "1d"),
    ],
)
def test_age_reads_every_iso_form_as_an_instant(text: str, expected: str) -> None:
    assert clock.age(text, NOW) == expected


@pytest.mark.parametrize(
    "text",
    [None, "", "yesterday", "2026-13-01T00:00:00Z", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"],
)
def test_age_of_no_time_or_one_beyond_utc_is_a_question_mark(text: str | None) -> None:
    assert clock.age(text, NOW) == "?"


def test_parse_refuses_a_time_utc_cannot_hold_with_a_value_error() -> None:
    with pytest.raises(ValueError, match="out of range"):
        clock.parse("0001-01-01T00:00:00+01:00")


def test_read_keeps_the_offset_as_written() -> None:
    assert clock.read("2026-12-03T23:57:43").tzinfo is None
    assert clock.read("2026-12-03T23:57:43Z").utcoffset() == dt.timedelta(0)
    assert clock.read("2026-12-03T23:57:43+02:00").utcoffset() == dt.timedelta(hours=2)
    assert clock.parse(" 2026-12-03T23:57:43+02:00\n") == dt.datetime(2026, 12, 3, 21, 57, 43, tzinfo=dt.UTC)


@given(st.datetimes(min_value=dt.datetime(1900, 1, 2), max_value=dt.datetime(9999, 12, 30), timezones=st.timezones()))
def test_iso_and_parse_round_trip_to_the_second(when: dt.datetime) -> None:
    instant = when.astimezone(dt.UTC).replace(microsecond=0)
    assert clock.parse(clock.iso(when)) == instant
    assert clock.iso(clock.parse(clock.iso(when))) == clock.iso(when)
