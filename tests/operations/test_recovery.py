"""A Curator killed (SIGKILL) in the middle of apply or propose: the next command, whichever it
is, finishes or undoes the work before it reads the tree, removes a git index lock only when
it is provably Curator's own, and leaves no staging folder behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from tests.builders import make_proposal, modify
from tests.conftest import GitVault, run_process

PROPOSE_POINTS = ["propose:after-journal", "propose:mid-staging", "propose:after-publish", "propose:mid-restore"]


def _edit_two(v: GitVault) -> dict[str, str]:
    edited = {
        "notes/alpha.md": v.read("notes/alpha.md").replace("Second line.", "Second line, mine."),
        "notes/beta.md": v.read("notes/beta.md").replace("Beta text.", "Beta text, mine."),
    }
    for path, text in edited.items():
        v.write(path, text)
    return edited


@pytest.mark.parametrize("point", PROPOSE_POINTS)
def test_a_killed_propose_leaves_the_tree_untouched_or_fully_restored(vault: GitVault, point: str) -> None:
    committed = {p: vault.read(p) for p in ("notes/alpha.md", "notes/beta.md")}
    edited = _edit_two(vault)
    r = run_process("--vault", vault.root, "propose", env={"CURATOR_FAULT": point})
    assert r.returncode == 137, r.stderr
    nxt = run_process("--vault", vault.root, "validate")  # any command recovers first
    assert nxt.returncode in (0, 1), nxt.stderr
    proposals = vault.root / ".kp" / "proposals"
    staged = [p.name for p in proposals.iterdir()] if proposals.exists() else []
    assert not [n for n in staged if n.startswith(".staging-")]
    assert not (vault.root / ".git" / "curator-propose.json").exists()
    now = {p: vault.read(p) for p in edited}
    if staged:
        assert point in ("propose:after-publish", "propose:mid-restore")
        assert now == committed, "staged, so every edited file is restored"
        assert "finished the interrupted propose" in nxt.stderr
    else:
        assert now == edited, "not staged, so the user's edits are exactly as they were"


def _pid_of(v: GitVault) -> str:
    c, d = modify(v, "notes/alpha.md", v.read("notes/alpha.md").replace("Second line.", "Second line, applied."))
    return make_proposal(v, [c], diff=d)


def test_a_lock_left_by_a_killed_apply_is_removed_by_the_next_command(vault: GitVault) -> None:
    pid = _pid_of(vault)
    r = run_process("--vault", vault.root, "apply", pid, "--yes", env={"CURATOR_FAULT": "apply:index-locked"})
    assert r.returncode == 137
    lock = vault.root / ".git" / "index.lock"
    assert lock.exists()  # killed while holding it, as git or libgit2 would leave it
    assert vault.git("add", "-A", "--dry-run", check=False).returncode != 0
    nxt = run_process("--vault", vault.root, "validate")
    assert nxt.returncode == 0, nxt.stderr
    assert "finished the interrupted apply" in nxt.stderr
    assert not lock.exists()
    assert vault.git("add", "-A", "--dry-run").returncode == 0
    assert vault.git("status", "--porcelain").stdout == ""  # index agrees with the commit
    assert "Second line, applied." in vault.git("show", "HEAD:notes/alpha.md").stdout


def test_a_lock_git_holds_is_never_removed(vault: GitVault) -> None:
    pid = _pid_of(vault)
    r = run_process("--vault", vault.root, "apply", pid, "--yes", env={"CURATOR_FAULT": "apply:after-commit"})
    assert r.returncode == 137
    lock = vault.root / ".git" / "index.lock"
    lock.write_bytes(b"git's own lock")  # a git process is running
    nxt = run_process("--vault", vault.root, "validate")
    assert nxt.returncode == 2 and "index is locked" in nxt.stderr
    assert lock.read_bytes() == b"git's own lock"
    lock.unlink()  # git finished
    again = run_process("--vault", vault.root, "validate")
    assert again.returncode == 0 and "finished the interrupted apply" in again.stderr
    assert vault.git("status", "--porcelain").stdout == ""


@pytest.mark.parametrize("command", [["validate"], ["doctor"], ["status"], ["index"], ["search", "alpha"]])
def test_every_command_undoes_a_half_applied_tree_before_reading_it(vault: GitVault, command: list[str]) -> None:
    filler = "".join(f"filler {i}\n" for i in range(8))
    vault.write("notes/beta.md", vault.read("notes/beta.md") + filler)
    vault.commit("longer beta")
    c1, d1 = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "Second, new."))
    c2, d2 = modify(vault, "notes/beta.md", vault.read("notes/beta.md").replace("filler 3", "filler three"))
    pid = make_proposal(vault, [c1, c2], diff=d1 + d2)
    before = {p: vault.read(p) for p in ("notes/alpha.md", "notes/beta.md")}
    r = run_process("--vault", vault.root, "apply", pid, "--yes", env={"CURATOR_FAULT": "apply:mid-write"})
    assert r.returncode == 137
    assert vault.read("notes/alpha.md") != before["notes/alpha.md"]  # half applied
    assert vault.read("notes/beta.md") == before["notes/beta.md"]
    # the batched write had beta's new bytes in a temp file beside it, not yet renamed
    assert list((vault.root / "notes").glob(".beta.md.curator-*.tmp"))
    nxt = run_process("--vault", vault.root, *command, env={"CURATOR_EMBEDDER": "none"})
    assert "undid the interrupted apply" in nxt.stderr, nxt.stderr
    assert {p: vault.read(p) for p in before} == before
    assert not list((vault.root / "notes").glob(".*.tmp"))
    assert not (vault.root / ".git" / "curator-apply.json").exists()


def test_sigkill_during_a_real_apply_never_leaves_a_lock(vault: GitVault, tmp_path) -> None:
    """No fault point: a real SIGKILL as soon as the apply journal appears."""
    pid = _pid_of(vault)
    journal = vault.root / ".git" / "curator-apply.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "curator", "--vault", str(vault.root), "apply", pid, "--yes"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    while proc.poll() is None and not journal.exists():
        pass  # wait on the condition: the apply has started writing
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    nxt = run_process("--vault", vault.root, "--json", "proposals", "--all")
    assert nxt.returncode == 0, nxt.stderr
    status = json.loads(nxt.stdout)["proposals"][0]["status"]
    assert status in ("pending", "applied")
    assert not (vault.root / ".git" / "index.lock").exists()
    assert vault.git("add", "-A", "--dry-run").returncode == 0


@pytest.mark.parametrize("name", ["curator-apply.json", "curator-propose.json", "curator-decision.json"])
@pytest.mark.parametrize(
    "record",
    ["{", '{"proposal": "01J00000000000000000000000"}', "[1, 2]", '{"steps": 7}'],
    ids=["cut", "fields", "list", "types"],
)
def test_a_journal_that_cannot_be_read_whole_is_removed_and_nothing_else_changes(
    vault: GitVault, name: str, record: str
) -> None:
    """Every journal is written before anything it names is done: one that is not whole was never acted on."""
    before = vault.git("status", "--porcelain").stdout
    head = vault.git("rev-parse", "HEAD").stdout
    journal = vault.root / ".git" / name
    journal.write_text(record, encoding="utf-8")
    nxt = run_process("--vault", vault.root, "--json", "proposals", "--all")
    assert nxt.returncode == 0, nxt.stderr
    assert "Traceback" not in nxt.stderr
    assert not journal.exists()
    assert vault.git("status", "--porcelain").stdout == before
    assert vault.git("rev-parse", "HEAD").stdout == head
