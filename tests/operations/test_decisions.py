"""Decision records: events come from commits Curator makes, never from files an agent edits."""

from __future__ import annotations

import json

import pytest

from curator.proposals import trailers
from tests.builders import make_proposal, modify
from tests.conftest import GitVault, note


def _pending(v: GitVault, committed: bool = True) -> str:
    c, d = modify(v, "notes/alpha.md", v.read("notes/alpha.md").replace("Second line.", "Second line, edited."))
    pid = make_proposal(v, [c], diff=d, title="Edit alpha")
    if committed:
        v.commit("an agent's proposal")
    return pid


def _line(event: str) -> bytes:
    return (json.dumps({"at": "2026-11-29T10:00:00Z", "event": event, "by": "human:me", "reason": "x"}) + "\n").encode()


@pytest.mark.parametrize("event", ["rejected", "superseded", "applied"])
def test_a_forged_event_is_kp001_and_the_proposal_stays_in_the_queue(vault: GitVault, cli, event: str) -> None:
    pid = _pending(vault)
    other = _pending(vault)
    (vault.root / f".kp/proposals/{pid}/events.jsonl").write_bytes(_line(event))
    r = cli("--vault", vault.root, "validate", "--format", "json")
    assert r.code == 1, r
    by_id = {p["id"]: p for p in json.loads(r.out)["proposals"]}
    assert by_id[pid]["status"] == "pending"
    assert [(f["code"], f["path"]) for f in by_id[pid]["findings"]] == [("KP001", f".kp/proposals/{pid}/events.jsonl")]
    assert "forged" in by_id[pid]["findings"][0]["message"]
    assert by_id[other]["ok"]
    queue = json.loads(cli("--vault", vault.root, "--json", "proposals").out)["proposals"]
    assert {p["id"]: p["status"] for p in queue} == {pid: "pending", other: "pending"}


def test_a_rewritten_committed_record_is_kp001(vault: GitVault, cli) -> None:
    pid = _pending(vault)
    assert cli("--vault", vault.root, "reject", pid, "--reason", "not now").code == 0
    path = vault.root / f".kp/proposals/{pid}/events.jsonl"
    path.write_bytes(path.read_bytes().replace(b"rejected", b"superseded"))
    r = cli("--vault", vault.root, "validate", "--all", "--format", "json")
    assert r.code == 1
    (report,) = json.loads(r.out)["proposals"]
    assert report["status"] == "rejected" and "rewritten" in report["findings"][0]["message"]


@pytest.mark.parametrize("committed", [True, False], ids=["committed", "untracked"])
def test_reject_records_the_decision_in_its_own_commit(vault: GitVault, cli, committed: bool) -> None:
    pid = _pending(vault, committed)
    vault.write("notes/staged.md", note("kp:staged", "Staged"))
    vault.git("add", "notes/staged.md")
    vault.write("notes/beta.md", vault.read("notes/beta.md") + "my unstaged words\n")
    staged, unstaged = vault.git("diff", "--cached").stdout, vault.git("diff").stdout
    head = vault.git("rev-parse", "HEAD").stdout.strip()
    r = cli(
        "--vault", vault.root, "--json", "reject", pid, "--reason", "not now\nKp-Proposal: 01J00000000000000000000000"
    )
    assert r.code == 0, r
    commit = json.loads(r.out)["commit"]
    assert vault.git("rev-parse", "HEAD").stdout.strip() == commit
    assert vault.git("rev-parse", "HEAD~1").stdout.strip() == head
    msg = vault.git("log", "-1", "--format=%B").stdout
    assert trailers.decision_of(msg) == (pid, "rejected")
    changed = set(vault.git("diff", "--name-only", "HEAD~1", "HEAD").stdout.split())
    assert changed <= {f".kp/proposals/{pid}/{n}" for n in ("events.jsonl", "proposal.yaml", "changes.diff")}
    assert f".kp/proposals/{pid}/events.jsonl" in changed
    assert vault.git("diff", "--cached").stdout == staged and vault.git("diff").stdout == unstaged
    assert ".kp/" not in vault.status()
    assert json.loads(cli("--vault", vault.root, "--json", "proposals").out)["proposals"] == []
    assert cli("--vault", vault.root, "validate", "--all").code == 0
    again = cli("--vault", vault.root, "reject", pid, "--reason", "twice")
    assert again.code == 1 and "already rejected" in again.err


def test_reject_refuses_a_record_with_uncommitted_changes(vault: GitVault, cli) -> None:
    pid = _pending(vault)
    path = vault.root / f".kp/proposals/{pid}/events.jsonl"
    path.write_bytes(_line("superseded"))
    head = vault.git("rev-parse", "HEAD").stdout.strip()
    r = cli("--vault", vault.root, "reject", pid, "--reason", "no")
    assert r.code == 1 and f"rm .kp/proposals/{pid}/events.jsonl" in r.err, r
    assert vault.git("rev-parse", "HEAD").stdout.strip() == head
    assert path.read_bytes() == _line("superseded")


def test_apply_commit_carries_the_event_trailer(vault: GitVault, cli) -> None:
    pid = _pending(vault)
    assert cli("--vault", vault.root, "apply", pid, "--yes").code == 0
    msg = vault.git("log", "-1", "--format=%B").stdout
    assert trailers.decision_of(msg) == (pid, "applied")
    assert trailers.trailers(msg)["Kp-Author"] == ["agent:tester"]
