"""Applying and rejecting: all or nothing, exactly the touched paths, the user's work intact."""

from __future__ import annotations

import json

import pytest

from curator.vault.identity import mint
from tests.builders import created, delete, make_proposal, modify, user_state, user_work, vault_lock_free
from tests.conftest import GitVault, run_process


def _proposal(v: GitVault) -> str:
    c1, d1 = modify(v, "notes/alpha.md", v.read("notes/alpha.md").replace("Second line.", "Second line, edited."))
    c2, d2 = delete(v, "notes/beta.md")
    c3, f3 = created("notes/gamma.md", f"---\nkp_id: {mint()}\ntitle: Gamma\n---\n# Gamma\n")
    return make_proposal(v, [c1, c2, c3], diff=d1 + d2, files=f3, title="Edit alpha, drop beta, add gamma")


def test_apply_commits_exactly_the_touched_paths(vault: GitVault, cli) -> None:
    user_work(vault)
    before = user_state(vault)
    pid = _proposal(vault)
    head = vault.git("rev-parse", "HEAD").stdout.strip()
    r = cli("--vault", vault.root, "--json", "apply", pid, "--yes")
    assert r.code == 0, r
    commit = json.loads(r.out)["commit"]
    assert vault.git("rev-parse", "HEAD").stdout.strip() == commit
    assert vault.git("rev-parse", "HEAD~1").stdout.strip() == head
    changed = set(vault.git("diff", "--name-only", "HEAD~1", "HEAD").stdout.split("\n")) - {""}
    prefix = f".kp/proposals/{pid}/"
    assert {c for c in changed if not c.startswith(prefix)} == {"notes/alpha.md", "notes/beta.md", "notes/gamma.md"}
    assert f"{prefix}events.jsonl" in changed and f"{prefix}proposal.yaml" in changed
    message = vault.git("log", "-1", "--format=%B").stdout
    assert message.startswith("Edit alpha, drop beta, add gamma\n\nbecause\n")
    assert f"Kp-Proposal: {pid}" in message and "Kp-Author: agent:tester" in message
    events = [json.loads(x) for x in (vault.root / prefix / "events.jsonl").read_text().splitlines()]
    assert [e["event"] for e in events] == ["applied"]
    assert "Second line, edited." in vault.read("notes/alpha.md")
    assert not (vault.root / "notes/beta.md").exists()
    assert user_state(vault) == before
    status = vault.status()
    assert "notes/alpha.md" not in status and "gamma" not in status and "beta" not in status
    again = cli("--vault", vault.root, "apply", pid, "--yes")
    assert again.code == 1 and "already applied" in again.err


def test_apply_keeps_the_users_own_edits_in_a_touched_file_unstaged(vault: GitVault, cli) -> None:
    filler = "".join(f"filler {i}\n" for i in range(12))
    vault.write("notes/alpha.md", vault.read("notes/alpha.md") + filler)
    vault.commit("longer alpha")
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("filler 10", "Third line, improved."))
    pid = make_proposal(vault, [c], diff=d)
    vault.write("notes/alpha.md", vault.read("notes/alpha.md").replace("Alpha links", "My own words: Alpha links"))
    r = cli("--vault", vault.root, "apply", pid, "--yes")
    assert r.code == 0, r
    committed = vault.git("show", "HEAD:notes/alpha.md").stdout
    assert "Third line, improved." in committed and "My own words" not in committed
    on_disk = vault.read("notes/alpha.md")
    assert "Third line, improved." in on_disk and "My own words" in on_disk
    assert vault.git("diff", "--cached").stdout == ""


def test_apply_refuses_an_invalid_proposal_and_writes_nothing(vault: GitVault, cli) -> None:
    c, f = created("notes/anon.md", "---\ntitle: no id\n---\n")
    pid = make_proposal(vault, [c], files=f)
    before = vault.status()
    r = cli("--vault", vault.root, "apply", pid, "--yes")
    assert r.code == 1 and "KP006" in r.err
    assert vault.status() == before


def test_locked_git_index_is_refused(vault: GitVault, cli) -> None:
    pid = _proposal(vault)
    (vault.root / ".git" / "index.lock").write_text("")
    r = cli("--vault", vault.root, "apply", pid, "--yes")
    assert r.code == 2 and "index is locked" in r.err
    assert vault.git("log", "--oneline").stdout.count("\n") == 1


def test_reject_records_the_reason_and_leaves_the_vault(vault: GitVault, cli) -> None:
    pid = _proposal(vault)
    before = {p: p.read_bytes() for p in (vault.root / "notes").iterdir()}
    r = cli("--vault", vault.root, "reject", pid, "--reason", "not now")
    assert r.code == 0, r
    events = [json.loads(x) for x in (vault.root / f".kp/proposals/{pid}/events.jsonl").read_text().splitlines()]
    assert [(e["event"], e["reason"]) for e in events] == [("rejected", "not now")]
    assert before == {p: p.read_bytes() for p in (vault.root / "notes").iterdir()}
    assert cli("--vault", vault.root, "apply", pid, "--yes").code == 1
    listed = json.loads(cli("--vault", vault.root, "--json", "proposals").out)["proposals"]
    assert listed == []
    everything = json.loads(cli("--vault", vault.root, "--json", "proposals", "--all").out)["proposals"]
    assert [(p["id"], p["status"]) for p in everything] == [(pid, "rejected")]
    # the rejection is Curator's own record: committing it passes the validator
    assert cli("--vault", vault.root, "validate", f".kp/proposals/{pid}/events.jsonl").code == 0


POINTS = [
    "apply:after-journal",
    "apply:mid-write",
    "apply:after-write",
    "apply:after-event",
    "apply:after-commit",
    "apply:index-locked",
    "apply:after-index",
]


@pytest.mark.parametrize("point", POINTS)
def test_killed_apply_leaves_the_vault_unchanged_or_fully_applied(vault: GitVault, point: str) -> None:
    user_work(vault)
    before_user = user_state(vault)
    pid = _proposal(vault)
    head = vault.git("rev-parse", "HEAD").stdout.strip()
    notes_before = {n: (vault.root / n).read_bytes() for n in ("notes/alpha.md", "notes/beta.md")}
    r = run_process("--vault", vault.root, "apply", pid, "--yes", env={"CURATOR_FAULT": point})
    assert r.returncode == 137, (r.stdout, r.stderr)
    listed = run_process("--vault", vault.root, "--json", "proposals", "--all")
    assert listed.returncode == 0, listed.stderr
    status = json.loads(listed.stdout)["proposals"][0]["status"]
    now_head = vault.git("rev-parse", "HEAD").stdout.strip()
    if status == "pending":
        assert now_head == head
        assert {n: (vault.root / n).read_bytes() for n in notes_before} == notes_before
        assert not (vault.root / "notes/gamma.md").exists()
        assert point in ("apply:after-journal", "apply:mid-write", "apply:after-write", "apply:after-event")
    else:
        assert status == "applied"
        assert vault.git("rev-parse", "HEAD~1").stdout.strip() == head
        assert "Second line, edited." in vault.read("notes/alpha.md")
        assert not (vault.root / "notes/beta.md").exists() and (vault.root / "notes/gamma.md").exists()
        touched = vault.git("status", "--porcelain", "--", "notes/alpha.md", "notes/beta.md", "notes/gamma.md").stdout
        assert touched == ""
    assert user_state(vault) == before_user
    assert not (vault.root / ".git" / "curator-apply.json").exists()
    assert vault_lock_free(vault)
    assert not (vault.root / ".git" / "index.lock").exists()
    assert vault.git("add", "--dry-run", "-A").returncode == 0
    # and the apply can be finished afterwards
    if status == "pending":
        done = run_process("--vault", vault.root, "apply", pid, "--yes")
        assert done.returncode == 0, done.stderr
        assert user_state(vault) == before_user


def test_no_commit_applies_to_the_work_tree_only(vault: GitVault, cli) -> None:
    pid = _proposal(vault)
    head = vault.git("rev-parse", "HEAD").stdout.strip()
    r = cli("--vault", vault.root, "apply", pid, "--yes", "--no-commit")
    assert r.code == 0, r
    assert vault.git("rev-parse", "HEAD").stdout.strip() == head
    assert "Second line, edited." in vault.read("notes/alpha.md")
    assert (vault.root / "notes/gamma.md").exists()


def test_apply_without_yes_off_a_terminal_asks_for_it(vault: GitVault) -> None:
    pid = _proposal(vault)
    r = run_process("--vault", vault.root, "apply", pid)
    assert r.returncode == 2 and "--yes" in r.stderr  # a usage error: no one is there to answer


def test_apply_yes_says_when_a_proposal_drifted(vault: GitVault, cli) -> None:
    """`apply --yes` applies a drifted proposal where `git apply` would, and says so (text and JSON)."""
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Third line.", "Third line, edited."))
    first = make_proposal(vault, [c], diff=d)
    second = make_proposal(vault, [c], diff=d)
    vault.write("notes/alpha.md", vault.read("notes/alpha.md").replace("# Alpha\n", "# Alpha\n\nA new line.\n"))
    vault.commit("an edit above the hunk")
    r = cli("--vault", vault.root, "apply", first, "--yes", "--no-commit")
    assert r.code == 0, r
    assert "drifted: notes/alpha.md changed since the proposal was made" in r.out and "2 line(s)" in r.out, r
    vault.git("checkout", "--", "notes/alpha.md")
    j = cli("--vault", vault.root, "--json", "apply", second, "--yes", "--no-commit")
    assert j.code == 0 and json.loads(j.out)["drifted"] == [{"path": "notes/alpha.md", "offset": 2}], j


def test_proposals_json_names_its_schema(vault: GitVault, cli) -> None:
    pid = _proposal(vault)
    data = json.loads(cli("--vault", vault.root, "--json", "proposals").out)
    assert data["schema"] == "queue/v1" and [p["id"] for p in data["proposals"]] == [pid]
