"""A partial apply (``apply --hunks``) killed at any step, the supersession of the proposal
included: the next command finishes it (the revision applied) or finds it undone (the proposal
pending, the notes as they were). Never a superseded proposal whose revision waits unapplied."""

from __future__ import annotations

import json

import pytest

from tests.conftest import GitVault, run_process
from tests.operations.test_revisions import PARTIAL_POINTS, _commit, _two_hunks


@pytest.mark.parametrize("point", PARTIAL_POINTS)
def test_a_killed_partial_apply_is_finished_or_undone_by_the_next_command(vault: GitVault, point: str) -> None:
    old = _two_hunks(vault)
    _commit(vault)
    original = vault.read("notes/long.md")
    killed = run_process(
        "--vault", vault.root, "apply", old, "--hunks", "notes/long.md:2", "--yes", env={"CURATOR_FAULT": point}
    )
    assert killed.returncode == 137, killed.stderr
    nxt = run_process("--vault", vault.root, "--json", "proposals", "--all")
    assert nxt.returncode == 0, nxt.stderr
    status = {p["id"]: p["status"] for p in json.loads(nxt.stdout)["proposals"]}
    revisions = [pid for pid in status if pid != old]
    text = vault.read("notes/long.md")
    assert "Line two." not in text
    if not revisions:  # undone: killed before the revision was staged whole
        assert status == {old: "pending"} and text == original
        return
    (new,) = revisions
    assert (status[old], status[new]) == ("superseded", "applied"), (point, status, nxt.stderr)
    assert "Line nineteen." in text
    assert vault.git("status", "--porcelain").stdout == ""
    assert not (vault.root / ".git" / "curator-then-apply.json").exists()
