"""A date a person writes without a zone (`created: 2026-12-04 08:05`, as Obsidian and Templater
write it) is read in the vault's zone: notes.timezone, else the machine's. One parser
(curator.clock), the same answer every run."""

from __future__ import annotations

import datetime as dt
import json
import zoneinfo
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator import clock
from tests.conftest import GitVault, make_git_vault
from tests.librarian.conftest import config, dated

TOKYO_MORNING = "2026-12-04 08:05"  # 2026-12-03T23:05Z
CLOCK = "2026-12-04T00:00:00Z"  # 09:00 in Tokyo, the same morning


def _vault(tmp_path: Path, extra: str = "") -> GitVault:
    v = make_git_vault(tmp_path / "v")
    v.write(".kp/config.yaml", config(extra))
    v.write("Daily/2026-12-04.md", dated(None, "Morning pages", TOKYO_MORNING, ["daily"], "Wrote before work."))
    v.git("add", "-A")
    v.git("commit", "-q", "-m", "notes", "--date", "2026-12-01T00:00:00Z")
    return v


def _digest(cli, v: GitVault, now: str = CLOCK) -> dict:
    r = cli("--vault", v.root, "digest", "--now", now, "--json")
    assert r.code == 0, r
    return json.loads(r.out)


def _timezone(config_text: str) -> str:
    return config_text.replace("  timezone:\n", "  timezone: Asia/Tokyo\n")


def test_a_zoneless_created_is_the_vaults_local_time(tmp_path: Path, cli, fake_embedder: None) -> None:
    v = _vault(tmp_path)
    v.write(".kp/config.yaml", _timezone(v.read(".kp/config.yaml")))
    v.commit("zone")
    out = _digest(cli, v)
    assert out["warnings"] == [], out["warnings"]
    [entry] = out["entries"]
    assert entry["path"] == "Daily/2026-12-04.md" and entry["created"] == "2026-12-03T23:05:00Z"
    assert entry["created_from"] == "frontmatter:created"
    shown = cli("--vault", v.root, "digest", "--now", CLOCK, "--force").out
    assert "  2026-12-04  Daily/2026-12-04.md  Morning pages" in shown  # the day as written


def test_without_a_setting_the_machines_zone_reads_it(
    tmp_path: Path, cli, fake_embedder: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    v = _vault(tmp_path)
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    assert _digest(cli, v)["entries"][0]["created_from"] == "frontmatter:created"
    # In UTC the same words are an hour after this clock: named, and the commit dates it.
    monkeypatch.setenv("TZ", "UTC")
    utc = json.loads(cli("--vault", v.root, "digest", "--now", CLOCK, "--json", "--force").out)
    assert utc["entries"][0]["created_from"] == "git"
    assert any("is after the digest's clock" in w for w in utc["warnings"]), utc["warnings"]


def test_a_date_ends_at_midnight_in_the_vaults_zone(tmp_path: Path, cli, fake_embedder: None) -> None:
    v = _vault(tmp_path)
    v.write(".kp/config.yaml", _timezone(v.read(".kp/config.yaml")))
    v.write("Daily/2026-12-04.md", dated(None, "Morning pages", "2026-12-04", ["daily"], "Wrote before work."))
    v.commit("a date")
    r = cli("--vault", v.root, "digest", "--now", "2026-12-04T14:59:59Z", "--json")  # 23:59:59 in Tokyo
    assert json.loads(r.out)["status"] == "nothing-new", r.out
    assert _digest(cli, v, "2026-12-04T15:00:00Z")["entries"][0]["created"] == "2026-12-04T15:00:00Z"


def test_a_zone_that_does_not_exist_is_a_one_line_config_error(tmp_path: Path, cli) -> None:
    v = _vault(tmp_path)
    v.write(".kp/config.yaml", v.read(".kp/config.yaml").replace("  timezone:\n", "  timezone: Mars/Olympus\n"))
    r = cli("--vault", v.root, "digest", "--now", CLOCK)
    assert r.code == 2 and "notes.timezone" in r.err and "Mars/Olympus" in r.err and r.err.count("\n") <= 2


def test_daylight_saving_is_the_zones_own() -> None:
    berlin = clock.zone("Europe/Berlin")
    assert clock.iso(clock.parse("2026-07-01 08:05", berlin)) == "2026-07-01T06:05:00Z"
    assert clock.iso(clock.parse("2026-01-01 08:05", berlin)) == "2026-01-01T07:05:00Z"
    assert clock.iso(clock.parse("2026-01-01T08:05:00+03:00", berlin)) == "2026-01-01T05:05:00Z"
    assert clock.parse("2026-01-01 08:05") == dt.datetime(2026, 1, 1, 8, 5, tzinfo=dt.UTC)


ZONES = ["UTC", "Asia/Tokyo", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu"]


@settings(deadline=None)  # a zone's first load reads its file: slow on a busy machine, not wrong
@given(
    st.datetimes(min_value=dt.datetime(1971, 1, 1), max_value=dt.datetime(2100, 1, 1)).map(
        lambda d: d.replace(microsecond=0)
    ),
    st.sampled_from(ZONES),
)
def test_a_local_time_read_in_its_zone_shows_the_same_wall_clock(when: dt.datetime, name: str) -> None:
    zone = zoneinfo.ZoneInfo(name)
    text = when.isoformat(sep=" ")
    instant = clock.parse(text, clock.zone(name))
    assert instant == clock.parse(text, clock.zone(name))  # deterministic
    back = instant.astimezone(zone).replace(tzinfo=None)
    if back != when:  # only a time the zone skips (a spring-forward gap) reads as another
        assert when.replace(tzinfo=zone).utcoffset() != when.replace(tzinfo=zone, fold=1).utcoffset()
