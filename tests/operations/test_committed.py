"""Whether HEAD decided a proposal: one answer for every command that asks."""

from __future__ import annotations

import json

from curator.proposals import events as events_mod
from tests.conftest import GitVault


def _staged(vault: GitVault, cli) -> str:
    vault.write("notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "Second line, better."))
    r = cli("--vault", vault.root, "--json", "propose", "--title", "Tidy")
    assert r.code == 0, r
    pid = json.loads(r.out)["id"]
    vault.git("add", f".kp/proposals/{pid}")
    vault.git("commit", "-q", "-m", "stage")
    return pid


def test_a_rejected_proposal_whose_log_gained_a_garbled_line_is_decided_for_every_command(
    vault: GitVault, cli
) -> None:
    pid = _staged(vault, cli)
    assert cli("--vault", vault.root, "reject", pid, "--reason", "not now").code == 0
    log = vault.root / ".kp" / "proposals" / pid / "events.jsonl"
    log.write_text(log.read_text() + "not an event\n")
    vault.git("commit", "-q", "--no-verify", "-am", "a line nobody wrote")

    assert events_mod.committed_status(log.read_bytes()) == "rejected"
    listed = json.loads(cli("--vault", vault.root, "--json", "validate").out)["proposals"]
    assert [p["id"] for p in listed] == []  # not pending: nothing to check in the queue
    again = cli("--vault", vault.root, "apply", pid, "--yes")
    assert again.code == 1 and "already rejected" in again.err
    # its folder may go: it is history, not the queue
    vault.git("rm", "-rq", f".kp/proposals/{pid}")
    removed = json.loads(cli("--vault", vault.root, "--json", "validate", "--all").out)["proposals"]
    assert all(not p["findings"] for p in removed), removed


def test_no_committed_record_is_pending() -> None:
    assert events_mod.committed_status(None) == "pending"
    assert events_mod.committed_status(b"") == "pending"
    assert events_mod.committed_status(b"\xff\n") == "pending"
