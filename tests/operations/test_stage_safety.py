"""Staging never writes from an unchecked path: not outside the vault, not into .git, not
through a symlinked folder, and nothing at all for a proposal the validator rejects."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from curator.operations import stage
from curator.settings import Settings
from curator.vault import find_vault
from tests.conftest import GitVault, note

DRAFT = "---\ntitle: Draft\n---\n# Draft\n"


def _objects(v: GitVault) -> set[str]:
    root = v.root / ".git" / "objects"
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


def _untouched(v: GitVault, before_status: str, before_objects: set[str]) -> None:
    assert v.status() == before_status
    assert _objects(v) == before_objects
    proposals = v.root / ".kp" / "proposals"
    assert not proposals.exists() or list(proposals.iterdir()) == []
    assert not (v.root / ".git" / "curator-propose.json").exists()


@pytest.mark.parametrize(
    "target",
    [
        "../../../../victim.md",
        "../victim.md",
        "notes/../../victim.md",
        ".git/victim.md",
        ".git/hooks/pre-commit.md",
        "/tmp/victim-abs.md",
        "notes//x.md",
        "notes/./x.md",
        "linked/victim.md",
    ],
)
def test_create_at_an_unsafe_path_writes_nothing_anywhere(vault: GitVault, cli, tmp_path: Path, target: str) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, vault.root / "linked")
    vault.commit("a symlinked folder")
    draft = tmp_path / "draft.md"
    draft.write_text(DRAFT)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    status, objects = vault.status(), _objects(vault)
    r = cli("--vault", vault.root, "--json", "propose", "--create", f"{target}={draft}")
    assert r.code == 1, r
    data = json.loads(r.out)
    assert not data["staged"] and "KP002" in {f["code"] for f in data["findings"]}
    after = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert after == before  # nothing written beside the vault, not even the draft
    assert not (outside / "victim.md").exists() and not Path("/tmp/victim-abs.md").exists()
    assert not (vault.root / ".git" / "victim.md").exists()
    _untouched(vault, status, objects)


@pytest.mark.parametrize(
    ("header", "path"),
    [
        ("--- /dev/null\n+++ b/../../x.md\n", "../../x.md"),
        ("--- a/../outside.md\n+++ b/../outside.md\n", "../outside.md"),
        ("--- a/.git/config\n+++ b/.git/config\n", ".git/config"),
        ("--- a/linked/n.md\n+++ b/linked/n.md\n", "linked/n.md"),
    ],
)
def test_patch_at_an_unsafe_path_reads_and_writes_nothing(
    vault: GitVault, cli, tmp_path: Path, header: str, path: str
) -> None:
    outside = tmp_path / "dir"
    outside.mkdir()
    (outside / "n.md").write_text("one\n")
    (tmp_path / "outside.md").write_text("one\n")
    os.symlink(outside, vault.root / "linked")
    vault.commit("a symlinked folder")
    hunk = "@@ -0,0 +1 @@\n+one\n" if "/dev/null" in header else "@@ -1 +1 @@\n-one\n+two\n"
    patch = tmp_path / "p.diff"
    patch.write_text(f"diff --git a/{path} b/{path}\n{header}{hunk}")
    config = (vault.root / ".git" / "config").read_bytes()
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    status, objects = vault.status(), _objects(vault)
    r = cli("--vault", vault.root, "propose", "--patch", patch)
    assert r.code in (1, 2), r
    assert "KP002" in r.out or "inside the vault" in r.err or "symlink" in r.err, r
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    assert (vault.root / ".git" / "config").read_bytes() == config
    _untouched(vault, status, objects)


def test_the_staging_api_checks_paths_itself(vault: GitVault) -> None:
    """kp_propose calls stage() directly: it must refuse unsafe paths without writing them."""
    v = find_vault(str(vault.root))
    status, objects = vault.status(), _objects(vault)
    drafts = [
        stage.Draft("create", "../../../../victim.md", content=DRAFT.encode()),
        stage.Draft("create", ".git/x.md", content=DRAFT.encode()),
    ]
    author = stage.parse_author("agent:mcp")
    staged = stage.stage(v, Settings(), drafts, title="t", rationale="", author=author, base=stage.head_commit(v))
    assert not staged.ok and staged.folder is None
    assert {f.code for f in staged.report.findings} >= {"KP002"}
    assert not (vault.root.parent / "victim.md").exists()
    _untouched(vault, status, objects)


def test_a_symlinked_proposals_folder_is_never_written_through(vault: GitVault, cli, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (vault.root / ".kp" / "proposals").mkdir(parents=True, exist_ok=True)
    os.rmdir(vault.root / ".kp" / "proposals")
    os.symlink(elsewhere, vault.root / ".kp" / "proposals")
    draft = tmp_path / "d.md"
    draft.write_text(note("kp:01J00000000000000000000NEW", "New"))
    r = cli("--vault", vault.root, "propose", "--create", f"notes/new.md={draft}")
    assert r.code == 2 and "not a plain folder" in r.err, r
    assert list(elsewhere.iterdir()) == []


def test_a_rejected_patch_proposal_leaves_no_loose_objects(vault: GitVault, cli, tmp_path: Path) -> None:
    """The patch applies to uncommitted work-tree text (a blob git lacks), but is rejected."""
    vault.write("notes/alpha.md", vault.read("notes/alpha.md") + "An unsaved line.\n")
    text = vault.read("notes/alpha.md")
    edited = text.replace("kp:01J0000000000000000000ALPH", "kp:forged")
    from curator.operations.gather import unified

    (tmp_path / "p.diff").write_text(unified("notes/alpha.md", text.encode(), edited.encode()))
    status, objects = vault.status(), _objects(vault)
    r = cli("--vault", vault.root, "propose", "--patch", tmp_path / "p.diff")
    assert r.code == 1 and "KP006" in r.out, r
    _untouched(vault, status, objects)
