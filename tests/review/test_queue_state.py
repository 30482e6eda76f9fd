"""What the queue says stays true as it changes: the pending count after a decision, ages as the
clock moves, a decided proposal without drift, and a revision's whole chain."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from curator import clock
from curator.review import entries
from curator.review.confirm import ConfirmScreen
from curator.review.queue_rows import COLUMNS
from tests.builders import make_proposal, modify
from tests.conftest import GitVault
from tests.review.pilot import screen, settle, until
from tests.review.test_review_app import _reword, drive

AGE = [key for key, _label in COLUMNS].index("age")


def test_after_a_reject_the_header_counts_what_is_pending(vault: GitVault, monkeypatch: pytest.MonkeyPatch) -> None:
    pid = _reword(vault, "Second line.", "Second row.", "Only one")

    # Only the pre-flight reports here (the queue's own check finds nothing to do), as when
    # it is checking the proposal just decided while the queue's worker reaches it.
    def nothing(*args: Any, **kwargs: Any) -> Iterator[Any]:
        return iter(())

    monkeypatch.setattr(entries, "check_all", nothing)

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(pilot, lambda: s.queue.entries[pid].report is not None, "the pre-flight")
        assert str(s.queue.border_title).endswith("1 pending")
        await pilot.press("r")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the reason dialog")
        await pilot.press(*"not now", "enter")
        await until(pilot, lambda: s.queue.entries[pid].status == "rejected", "the rejection")
        await settle(pilot)
        assert str(s.queue.border_title).endswith("0 pending"), s.queue.border_title

    drive(vault.root, scenario)


def test_ages_move_on_with_the_clock(vault: GitVault, monkeypatch: pytest.MonkeyPatch) -> None:
    pid = _reword(vault, "Second line.", "Second row.", "Aging")
    at = [dt.datetime(2026, 11, 29, 10, 5, tzinfo=dt.UTC)]
    monkeypatch.setattr(clock, "now", lambda: at[0])

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(pilot, lambda: s.queue.entries[pid].report is not None, "the check")
        assert str(s.queue.get_row(pid)[AGE]) == "5m"
        assert s.queue.ticking is not None  # the ages are redrawn on a timer
        at[0] += dt.timedelta(hours=3)
        s.queue.tick()
        assert str(s.queue.get_row(pid)[AGE]) == "3h"

    drive(vault.root, scenario)


def test_a_decided_proposal_shows_no_drift(vault: GitVault) -> None:
    pid = _reword(vault, "Second line.", "Second row.", "To apply")

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(pilot, lambda: s.queue.entries[pid].verdict == "valid" and not s.preflight.checking, "checked")
        await pilot.press("a")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the dialog")
        await pilot.press("y")
        await until(pilot, lambda: s.queue.entries[pid].status == "applied", "applied")
        s.queue.select(pid)
        await until(pilot, lambda: pid not in s.preflight.checking and s.diff.of == pid, "its diff")
        entry = s.queue.entries[pid]
        # Its change is in the vault now: against the vault it "conflicts", which says nothing.
        assert entry.drift == "" and str(s.queue.get_row(pid)[4]) == ""
        headers = [r.text for r in s.diff.model.rows if r.kind == "file"]
        assert headers and not any(s.diff.model.files[i].drift for i in range(len(headers)))
        rendered = " ".join(s.diff._renderer.unified(i).plain for i in range(len(s.diff.model.rows)))
        assert "[conflicts" not in rendered and "conflicts" not in str(s.query_one("#detail-text").render())
        assert "Applied" in str(s.query_one("#status").render())

    drive(vault.root, scenario)


def test_a_third_revision_names_its_whole_chain(vault: GitVault) -> None:
    c, d = modify(vault, "notes/beta.md", vault.read("notes/beta.md").replace("Beta text.", "Beta one."))
    ids = [f"01M8PN{n:020d}" for n in (1, 2, 3)]
    make_proposal(vault, [c], diff=d, title="v1", ulid=ids[0])
    for n in (1, 2):
        make_proposal(vault, [c], diff=d, title=f"v{n + 1}", ulid=ids[n], overrides={"supersedes": ids[n - 1]})
        # Superseded as operations.revise marks it: an event in the folder and in a commit.
        folder = vault.root / ".kp" / "proposals" / ids[n - 1]
        (folder / "events.jsonl").write_text(
            f'{{"at": "2026-11-29T10:00:0{n}Z", "event": "superseded", "by": "human:t", "reason": "r", '
            f'"superseded_by": "{ids[n]}"}}\n'
        )
    vault.git("add", ".kp")
    vault.git("commit", "-q", "--no-verify", "-m", "revisions")

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(pilot, lambda: all(e.report is not None for e in s.queue.entries.values()), "every check")
        await until(pilot, lambda: s.queue.chosen == ids[2] and not s.preflight.checking, "v3 highlighted")
        detail = str(s.query_one("#detail-text").render())
        assert f"Revisions v1 {ids[0][-6:]} → v2 {ids[1][-6:]} → v3 {ids[2][-6:]}" in detail, detail
        assert str(s.queue.get_row(ids[2])[0]).startswith("v3 ")

    drive(vault.root, scenario)
