"""Snapshots of the review UI at a fixed size, on the example vault (fixed commits, fixed clock).

Update them after an intended change with `make snapshots`, then look at the SVGs in
tests/review/__snapshots__/ before committing them.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from textual.pilot import Pilot

from curator.commands.app import App
from curator.review.app import ReviewApp, make_app
from tests.builders import make_proposal, modify
from tests.conftest import GitVault, note
from tests.review.pilot import screen, settle, until

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
SIZE = (110, 32)
CLEAN = "01M8E20AT0VM9WZ08ADCQC4XAJ"
MANAGED = "01M8HEE5Z0RZHG7NJCZMDBD2MF"
CONFLICTS = "01M8GX8VV0TCGJTD2GKCX648R0"


def _app(root: Path) -> ReviewApp:
    return make_app(*App(vault_arg=str(root)).place()[:2], now=NOW)


def _select(ulid: str, *keys: str):  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        s = screen(pilot)
        s.queue.select(ulid)
        await until(
            pilot, lambda: s.diff.model is not None and s.diff.model is s.preflight.models.get(ulid), "the diff"
        )
        for key in keys:
            await pilot.press(key)
        await settle(pilot)

    return run_before


def test_queue(snap_compare, example_vault: GitVault) -> None:
    assert snap_compare(_app(example_vault.root), terminal_size=SIZE, run_before=_select(CLEAN))


def test_queue_at_80x24(snap_compare, example_vault: GitVault) -> None:
    assert snap_compare(_app(example_vault.root), terminal_size=(80, 24), run_before=_select(CLEAN))


def test_diff_with_a_managed_region_and_findings(snap_compare, example_vault: GitVault) -> None:
    assert snap_compare(_app(example_vault.root), terminal_size=SIZE, run_before=_select(MANAGED))


def test_split_diff(snap_compare, example_vault: GitVault) -> None:
    assert snap_compare(_app(example_vault.root), terminal_size=SIZE, run_before=_select(CONFLICTS, "s"))


def test_confirm_dialog(snap_compare, example_vault: GitVault) -> None:
    assert snap_compare(_app(example_vault.root), terminal_size=SIZE, run_before=_select(CLEAN, "a"))


def test_empty_state(snap_compare, vault: GitVault) -> None:
    assert snap_compare(_app(vault.root), terminal_size=SIZE, run_before=settle)


# At the two sizes a reviewer most often has: a laptop's 80x24 and a roomier 120x36.
SIZES = {"80x24": (80, 24), "120x36": (120, 36)}
GARDEN = "01M8PN0000000000000000GRDN"
NAIVE = "01M8PN0000000000000000NTZ0"
PARAGRAPH = (
    "Varieties this year: San Marzano, Black Krim, Cherokee Purple, Green Zebra, Sungold and Yellow Pear, "
    "sown in March under glass, pricked out in April and planted out after the last frost in May, "
    "with the first fruit in July and the last in October, Blue Beech."
)


def _garden(v: GitVault, monkeypatch: pytest.MonkeyPatch) -> None:
    """A note kept as Obsidian keeps a paragraph (one long line), and a proposal that edits its end."""
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2026-11-29T12:00:00Z")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-11-29T12:00:00Z")
    v.write("garden/tomatoes.md", note("kp:01M8PN000000000000000TMTO", "Tomatoes", PARAGRAPH + "\n"))
    v.commit("tomatoes")
    c, d = modify(v, "garden/tomatoes.md", v.read("garden/tomatoes.md").replace("Blue Beech.", "Brandywine."))
    make_proposal(
        v, [c], diff=d, ulid=GARDEN, title="Name the last variety", overrides={"created": "2026-11-30T09:00:00Z"}
    )


@pytest.mark.parametrize("size", SIZES)
def test_a_long_line_wrapped_with_its_word_highlights_paged_down(
    snap_compare, example_vault: GitVault, monkeypatch: pytest.MonkeyPatch, size: str
) -> None:
    """PgDn from the queue pages the diff: the paragraph's end and its highlighted edit."""
    _garden(example_vault, monkeypatch)
    app = _app(example_vault.root)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=_select(GARDEN, "pagedown"))


@pytest.mark.parametrize("size", SIZES)
def test_the_help_fits_or_scrolls(snap_compare, example_vault: GitVault, size: str) -> None:
    assert snap_compare(_app(example_vault.root), terminal_size=SIZES[size], run_before=_select(CLEAN, "question_mark"))


@pytest.mark.parametrize("size", SIZES)
def test_a_created_time_without_a_zone_has_an_age_and_a_finding(
    snap_compare, example_vault: GitVault, size: str
) -> None:
    v = example_vault
    c, d = modify(v, "now.md", v.read("now.md") + "\nA line added by hand.\n")
    make_proposal(v, [c], diff=d, ulid=NAIVE, title="Edited by hand", overrides={"created": "2026-11-30T11:00:00"})
    assert snap_compare(_app(v.root), terminal_size=SIZES[size], run_before=_select(NAIVE))
