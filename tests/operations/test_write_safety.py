"""Curator writes no file through a planted symlink: not at a temp name beside the target,
not at a folder on the way, not at a decision record's own files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.builders import make_proposal, modify
from tests.conftest import GitVault


def _plant(folder: Path, name: str, victim: Path) -> None:
    """Symlinks at the temp names a pid-based writer picks for ``name`` (the CLI runs in this process)."""
    for tmp in (f".{name}.curator-{os.getpid()}.tmp", f"{name}.curator-tmp"):
        os.symlink(victim, folder / tmp)


def _edit_alpha(v: GitVault) -> tuple[str, str]:
    new = v.read("notes/alpha.md").replace("Second line.", "Second line, edited.")
    c, d = modify(v, "notes/alpha.md", new)
    return make_proposal(v, [c], diff=d, title="Edit alpha"), new


def test_apply_never_writes_through_a_symlink_planted_at_a_temp_name(vault: GitVault, cli, tmp_path: Path) -> None:
    pid, new = _edit_alpha(vault)
    vault.commit("an agent's proposal")
    victim = tmp_path / "victim2"
    _plant(vault.root / "notes", "alpha.md", victim)
    _plant(vault.root / ".git", "curator-apply.json", victim)
    r = cli("--vault", vault.root, "apply", pid, "--yes")
    assert r.code == 0, r
    assert not victim.exists()
    alpha = vault.root / "notes" / "alpha.md"
    assert not alpha.is_symlink() and alpha.read_text() == new
    assert not (vault.root / f".kp/proposals/{pid}/events.jsonl").is_symlink()


def test_propose_restores_never_through_a_symlink_planted_at_a_temp_name(vault: GitVault, cli, tmp_path: Path) -> None:
    original = vault.read("notes/alpha.md")
    vault.write("notes/alpha.md", original.replace("Second line.", "Second line, better."))
    victim = tmp_path / "victim3"
    _plant(vault.root / "notes", "alpha.md", victim)
    _plant(vault.root / ".git", "curator-propose.json", victim)
    r = cli("--vault", vault.root, "--json", "propose")
    assert r.code == 0, r
    assert not victim.exists()
    alpha = vault.root / "notes" / "alpha.md"
    assert not alpha.is_symlink() and alpha.read_text() == original


def test_reject_never_writes_through_a_symlink_in_the_proposal_folder(vault: GitVault, cli, tmp_path: Path) -> None:
    pid, _new = _edit_alpha(vault)
    vault.commit("an agent's proposal")
    victim = tmp_path / "victim_rc"
    victim.write_text("precious\n")
    folder = vault.root / f".kp/proposals/{pid}"
    os.symlink(victim, folder / "events.jsonl.curator-tmp")
    head = vault.git("rev-parse", "HEAD").stdout
    r = cli("--vault", vault.root, "reject", pid, "--reason", "x")
    assert r.code != 0 and r.code != 3, r
    assert "symlink" in r.err and "events.jsonl.curator-tmp" in r.err
    assert victim.read_text() == "precious\n"
    assert not (folder / "events.jsonl").exists()
    assert vault.git("rev-parse", "HEAD").stdout == head  # nothing decided


@pytest.mark.parametrize("event_link", [True, False])
def test_deciding_refuses_a_proposal_whose_folder_holds_a_symlink(
    vault: GitVault, cli, tmp_path: Path, event_link: bool
) -> None:
    pid, _new = _edit_alpha(vault)
    vault.commit("an agent's proposal")
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    folder = vault.root / f".kp/proposals/{pid}"
    os.symlink(victim, folder / ("events.jsonl" if event_link else "files"))
    listed = json.loads(cli("--vault", vault.root, "validate", "--format", "json").out)["proposals"]
    assert "KP002" in {f["code"] for p in listed for f in p["findings"]}
    head = vault.git("rev-parse", "HEAD").stdout
    for args in (["reject", pid, "--reason", "x"], ["apply", pid, "--yes"], ["rebase", pid]):
        r = cli("--vault", vault.root, *args)
        assert r.code in (1, 2), r
        assert victim.read_text() == "precious\n"
        assert vault.git("rev-parse", "HEAD").stdout == head
        assert sorted(p.name for p in (vault.root / ".kp" / "proposals").iterdir()) == [pid]


def test_write_atomic_within_refuses_a_symlinked_folder(tmp_path: Path) -> None:
    from curator.errors import WriteRefused
    from curator.fsutil import write_atomic

    root = tmp_path / "root"
    (root / "real").mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, root / "linked")
    with pytest.raises(WriteRefused, match="linked is a symlink"):
        write_atomic(str(root / "linked" / "x.md"), b"x", within=str(root))
    with pytest.raises(WriteRefused, match="linked is a symlink"):
        write_atomic(str(root / "linked" / "new" / "x.md"), b"x", within=str(root))
    assert list(outside.iterdir()) == []
    write_atomic(str(root / "real" / "a" / "b.md"), b"made", within=str(root))
    assert (root / "real" / "a" / "b.md").read_bytes() == b"made"
    # a symlink at the target is replaced, never written through
    victim = tmp_path / "victim"
    victim.write_text("precious")
    os.symlink(victim, root / "real" / "t.md")
    write_atomic(str(root / "real" / "t.md"), b"new", within=str(root))
    assert victim.read_text() == "precious" and not (root / "real" / "t.md").is_symlink()
    assert sorted(p.name for p in (root / "real").iterdir()) == ["a", "t.md"]  # no temp left


def test_a_failed_apply_says_undone_only_when_it_was(vault: GitVault, cli, monkeypatch: pytest.MonkeyPatch) -> None:
    from curator.operations import apply as apply_mod

    pid, _new = _edit_alpha(vault)
    write = apply_mod._write

    def write_then_someone_edits(v, journal, *rest):  # type: ignore[no-untyped-def]
        write(v, journal, *rest)
        (vault.root / "notes" / "alpha.md").write_text("someone else's edit\n")

    monkeypatch.setattr(apply_mod, "_write", write_then_someone_edits)
    r = cli("--vault", vault.root, "apply", pid, "--yes")
    assert r.code == 1, r
    assert "the apply was undone" not in r.err
    assert "notes/alpha.md" in r.err and "left as it is" in r.err
    assert vault.read("notes/alpha.md") == "someone else's edit\n"


def test_reject_refuses_a_git_held_index_lock_and_moves_nothing(vault: GitVault, cli) -> None:
    pid, _new = _edit_alpha(vault)
    vault.commit("an agent's proposal")
    head, status = vault.git("rev-parse", "HEAD").stdout, vault.status()
    (vault.root / ".git" / "index.lock").write_text("gitlock\n")
    r = cli("--vault", vault.root, "reject", pid, "--reason", "x")
    assert r.code == 2, r
    assert "index is locked" in r.err and "internal error" not in r.err
    assert vault.git("rev-parse", "HEAD").stdout == head
    assert (vault.root / ".git" / "index.lock").read_text() == "gitlock\n"
    (vault.root / ".git" / "index.lock").unlink()
    assert vault.status() == status == ""
    assert not (vault.root / f".kp/proposals/{pid}/events.jsonl").exists()
    assert cli("--vault", vault.root, "reject", pid, "--reason", "x").code == 0

