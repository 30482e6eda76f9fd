"""Snapshots of the review UI at a fixed size, on the example vault (fixed commits, fixed clock).

Update them after an intended change with `make snapshots`, then look at the SVGs in
tests/review/__snapshots__/ before committing them.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from textual.pilot import Pilot

from curator.commands.app import App
from curator.review.app import ReviewApp, make_app
from tests.conftest import GitVault
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
