"""A Curator killed (SIGKILL) while recording a decision: the next command finishes it (the
branch moved) or finds nothing recorded (it did not), the user's staged, unstaged and
untracked work stays exactly as it was, and no change to ``events.jsonl`` is left in the
index or the work tree for the validator to call a forgery or for ``git commit -a`` to
commit over the decision."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.builders import make_proposal, modify, user_state, user_work, vault_lock_free
from tests.conftest import GitVault, run_process

POINTS = [
    "decide:after-journal",  # the commit exists; the branch has not moved
    "decide:after-commit",  # the branch moved; work tree and index hold the old record
    "decide:after-event",  # events.jsonl written; the index holds the old record
    "decide:index-locked",  # Curator's own .git/index.lock is in place
    "decide:after-index",  # all done but the journal
]


def _proposal(v: GitVault, committed: bool) -> str:
    c, d = modify(v, "notes/alpha.md", v.read("notes/alpha.md").replace("Second line.", "Second line, proposed."))
    pid = make_proposal(v, [c], diff=d)
    if committed:
        v.git("add", f".kp/proposals/{pid}")
        v.git("commit", "-q", "--no-verify", "-m", "an agent's proposal", "--", f".kp/proposals/{pid}")
    return pid


# "decide:after-index" leaves only the journal to clear; the untracked proposal is tried where the index matters.
CASES = [(p, True) for p in POINTS[:-1]] + [("decide:after-commit", False)]


@pytest.mark.parametrize(
    ("point", "committed"), CASES, ids=[f"{p}-{'committed' if c else 'untracked'}" for p, c in CASES]
)
def test_a_killed_rejection_is_finished_or_was_never_made(vault: GitVault, point: str, committed: bool) -> None:
    user_work(vault)
    before = user_state(vault)
    pid = _proposal(vault, committed)
    head = vault.git("rev-parse", "HEAD").stdout.strip()
    r = run_process("--vault", vault.root, "reject", pid, "--reason", "not now", env={"CURATOR_FAULT": point})
    assert r.returncode == 137, r.stderr
    nxt = run_process("--vault", vault.root, "--json", "proposals", "--all")  # any command recovers first
    assert nxt.returncode == 0, nxt.stderr
    status = json.loads(nxt.stdout)["proposals"][0]["status"]
    if point == "decide:after-journal":
        assert status == "pending" and vault.git("rev-parse", "HEAD").stdout.strip() == head
        assert "nothing was recorded" in nxt.stderr
    else:
        assert status == "rejected" and vault.git("rev-parse", "HEAD~1").stdout.strip() == head
        assert "rejected" in vault.git("log", "-1", "--format=%B").stdout.split("Kp-Event: ")[1]
        if point != "decide:after-index":
            assert f"finished recording the rejected decision on {pid}" in nxt.stderr
    folder = f".kp/proposals/{pid}"
    left = vault.git("status", "--porcelain", "--untracked-files=all", "--", folder).stdout
    assert left == (
        "" if status == "rejected" or committed else f"?? {folder}/changes.diff\n?? {folder}/proposal.yaml\n"
    )
    assert user_state(vault) == before
    for name in ("curator-decision.json", "index.lock", "curator-index.new"):
        assert not (vault.root / ".git" / name).exists(), name
    assert vault_lock_free(vault)
    assert [p.name for p in (vault.root / folder).iterdir() if p.name.startswith(".")] == []
    staged = run_process("--vault", vault.root, "validate", "--staged")
    assert staged.returncode == 0 and "KP001" not in staged.stdout + staged.stderr, staged.stdout + staged.stderr
    if status == "pending":
        again = run_process("--vault", vault.root, "reject", pid, "--reason", "not now")
        assert again.returncode == 0, again.stderr
        assert user_state(vault) == before


def test_a_commit_git_makes_over_an_interrupted_decision_waits_for_it(vault: GitVault, cli) -> None:
    """`git commit -a` right after the kill would commit the old record over the decision: the hook
    stops it (git holds the index, so Curator cannot finish yet), and the next command finishes."""
    user_work(vault)
    pid = _proposal(vault, committed=True)
    assert cli("--vault", vault.root, "hooks", "install").code == 0
    r = run_process(
        "--vault", vault.root, "reject", pid, "--reason", "no", env={"CURATOR_FAULT": "decide:after-commit"}
    )
    assert r.returncode == 137
    decided = vault.git("rev-parse", "HEAD").stdout.strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CURATOR_")}
    commit = subprocess.run(["git", "commit", "-qam", "mine"], cwd=vault.root, capture_output=True, text=True, env=env)
    assert commit.returncode != 0, commit.stdout + commit.stderr
    assert "interrupted while recording the rejected decision" in commit.stderr and "curator status" in commit.stderr
    assert vault.git("rev-parse", "HEAD").stdout.strip() == decided
    assert not (vault.root / ".git" / "index.lock").exists()  # git's own lock, released by git
    done = run_process("--vault", vault.root, "proposals")
    assert done.returncode == 0 and "finished recording the rejected decision" in done.stderr, done.stderr
    assert vault.git("status", "--porcelain", "--", f".kp/proposals/{pid}").stdout == ""
    again = subprocess.run(["git", "commit", "-qam", "mine"], cwd=vault.root, capture_output=True, text=True, env=env)
    assert again.returncode == 0, again.stdout + again.stderr
    log = json.loads(cli("--vault", vault.root, "--json", "proposals", "--all").out)["proposals"]
    assert [(p["id"], p["status"]) for p in log] == [(pid, "rejected")]
