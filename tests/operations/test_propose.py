"""Staging proposals from work-tree edits, a diff file, or new files."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from curator.vault import frontmatter
from curator.vault.identity import is_fresh_kp_ulid
from tests.conftest import GitVault, note


def test_worktree_edits_become_a_proposal_and_the_files_are_restored(vault: GitVault, cli) -> None:
    original = vault.read("notes/alpha.md")
    vault.write("notes/alpha.md", original.replace("Second line.", "Second line, better."))
    (vault.root / "notes/beta.md").unlink()
    vault.write("notes/new idea.md", "---\ntitle: New idea\n---\n# New idea\n")
    vault.write("elsewhere.csv", "not,a,note\n")
    r = cli(
        "--vault",
        vault.root,
        "--json",
        "propose",
        "--title",
        "Tidy",
        "--rationale",
        "why not",
        "--author",
        "agent:helper",
        "--include-new",
    )
    assert r.code == 0, r
    data = json.loads(r.out)
    assert data["ok"] and data["staged"]
    assert data["restored"] == ["notes/alpha.md", "notes/beta.md"] and data["removed"] == ["notes/new idea.md"]
    pid = data["id"]
    assert vault.read("notes/alpha.md") == original
    assert (vault.root / "notes/beta.md").exists()
    assert not (vault.root / "notes/new idea.md").exists()
    assert (vault.root / "elsewhere.csv").exists()
    folder = vault.root / ".kp" / "proposals" / pid
    created = (folder / "files" / "notes" / "new idea.md").read_text()
    meta, _ = frontmatter.read(created)
    assert is_fresh_kp_ulid(meta["kp_id"]) and data["minted"]
    manifest = (folder / "proposal.yaml").read_text()
    assert "agent" in manifest and "helper" in manifest and "Tidy" in manifest
    # applying it brings the edits back, committed
    assert cli("--vault", vault.root, "apply", pid, "--yes").code == 0
    assert "Second line, better." in vault.read("notes/alpha.md")
    assert not (vault.root / "notes/beta.md").exists()
    assert (vault.root / "notes/new idea.md").read_text() == created


def test_a_rejected_worktree_proposal_is_not_staged_and_keeps_the_edits(vault: GitVault, cli) -> None:
    edited = vault.read("notes/alpha.md").replace("kp:01J0000000000000000000ALPH", "kp:changed")
    vault.write("notes/alpha.md", edited)
    r = cli("--vault", vault.root, "propose")
    assert r.code == 1 and "KP006" in r.out
    assert vault.read("notes/alpha.md") == edited
    assert not (vault.root / ".kp" / "proposals").exists()  # nothing at all was written


def test_staged_changes_are_refused(vault: GitVault, cli) -> None:
    vault.write("notes/alpha.md", vault.read("notes/alpha.md") + "x\n")
    vault.git("add", "notes/alpha.md")
    r = cli("--vault", vault.root, "propose")
    assert r.code == 2 and "staged changes" in r.err


def test_patch_file_and_create(vault: GitVault, cli, tmp_path: Path) -> None:
    old = vault.read("notes/beta.md")
    (vault.root / "notes/beta.md").write_text(old.replace("Beta text.", "Beta text, patched."))
    patch = vault.git("diff").stdout
    vault.git("checkout", "--", "notes/beta.md")
    (tmp_path / "p.diff").write_text(patch)
    (tmp_path / "gamma.md").write_text(note("kp:01J000000000000000000GAMMA", "Gamma"))
    r = cli(
        "--vault",
        vault.root,
        "--json",
        "propose",
        "--patch",
        tmp_path / "p.diff",
        "--create",
        f"notes/gamma.md={tmp_path / 'gamma.md'}",
    )
    assert r.code == 0, r
    data = json.loads(r.out)
    assert data["ok"]
    assert vault.read("notes/beta.md") == old  # staging changes nothing
    assert cli("--vault", vault.root, "apply", data["id"], "--yes").code == 0
    assert "patched" in vault.read("notes/beta.md") and (vault.root / "notes/gamma.md").exists()


def test_nothing_to_propose(vault: GitVault, cli) -> None:
    r = cli("--vault", vault.root, "propose")
    assert r.code == 2 and "nothing to propose" in r.err


def test_unreadable_patch_is_a_usage_error(vault: GitVault, cli, tmp_path: Path) -> None:
    (tmp_path / "bad.diff").write_text("this is not a diff\n")
    r = cli("--vault", vault.root, "propose", "--patch", tmp_path / "bad.diff")
    assert r.code == 2 and "cannot be read" in r.err


def test_without_paths_only_tracked_notes_are_proposed(vault: GitVault, cli) -> None:
    vault.write("notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "Second line, better."))
    vault.write("scratch.txt", "my scratch, not a note for anyone else\n")
    r_new = cli("--vault", vault.root, "new", "Fresh idea", "--dir", "notes")
    assert r_new.code == 0, r_new
    fresh = next(p for p in (vault.root / "notes").iterdir() if p.name.startswith("fresh"))
    fresh_bytes = fresh.read_bytes()
    r = cli("--vault", vault.root, "propose", "--title", "Tidy")
    assert r.code == 0, r
    assert "restored notes/alpha.md" in r.out
    assert "left scratch.txt alone" in r.out and f"left notes/{fresh.name} alone" in r.out
    assert "minted" not in r.out
    assert (vault.root / "scratch.txt").read_text() == "my scratch, not a note for anyone else\n"
    assert fresh.read_bytes() == fresh_bytes
    pid = r.out.split(":", 1)[0]
    files = vault.root / ".kp" / "proposals" / pid / "files"
    assert not files.exists()


def test_include_new_names_every_file_it_removes(vault: GitVault, cli) -> None:
    vault.write("notes/new one.md", "---\ntitle: New one\n---\n# New one\n")
    r = cli("--vault", vault.root, "propose", "--include-new")
    assert r.code == 0, r
    assert "minted kp_id: notes/new one.md → kp:" in r.out
    assert "removed notes/new one.md (new note; it is in the proposal until applied)" in r.out
    assert not (vault.root / "notes/new one.md").exists()


def test_a_named_untracked_note_is_proposed(vault: GitVault, cli) -> None:
    vault.write("notes/named.md", note("kp:01J00000000000000000000NMD", "Named"))
    vault.write("notes/other.md", note("kp:01J00000000000000000000OTH", "Other"))
    r = cli("--vault", vault.root, "propose", vault.root / "notes/named.md")
    assert r.code == 0, r
    assert "removed notes/named.md" in r.out
    assert (vault.root / "notes/other.md").exists()


def test_only_untracked_notes_and_no_include_new_is_a_usage_error(vault: GitVault, cli) -> None:
    vault.write("notes/draft.md", "---\ntitle: Draft\n---\n")
    r = cli("--vault", vault.root, "propose")
    assert r.code == 2 and "--include-new" in r.err and "notes/draft.md" in r.err
    assert (vault.root / "notes/draft.md").exists()


def test_plain_diff_u_output_is_accepted(vault: GitVault, cli, tmp_path: Path) -> None:
    old = vault.read("notes/beta.md")
    (tmp_path / "old.md").write_text(old)
    (tmp_path / "new.md").write_text(old.replace("Beta text.", "Beta text, from diff -u."))
    plain = subprocess.run(["diff", "-u", "old.md", "new.md"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert plain.startswith("--- old.md\t")  # timestamps after the names
    forms = {
        "bare": plain.replace("--- old.md", "--- notes/beta.md").replace("+++ new.md", "+++ notes/beta.md"),
        "prefixed": plain.replace("--- old.md", "--- a/notes/beta.md").replace("+++ new.md", "+++ b/notes/beta.md"),
    }
    for name, text in forms.items():
        (tmp_path / f"{name}.diff").write_text(text)
        r = cli("--vault", vault.root, "--json", "propose", "--patch", tmp_path / f"{name}.diff")
        assert r.code == 0, (name, r)
        pid = json.loads(r.out)["id"]
        stored = (vault.root / ".kp" / "proposals" / pid / "changes.diff").read_text()
        assert stored.startswith("diff --git a/notes/beta.md b/notes/beta.md\n"), stored
        assert cli("--vault", vault.root, "reject", pid, "--reason", "test").code == 0
    assert vault.read("notes/beta.md") == old


def test_a_new_file_in_plain_diff_n_output_is_a_create(vault: GitVault, cli, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "n.md").write_text(note("kp:01J000000000000000000DIFFN", "From diff"))
    plain = subprocess.run(
        ["diff", "-uN", "empty/n.md", "full/n.md"], cwd=tmp_path, capture_output=True, text=True
    ).stdout
    text = plain.replace("--- empty/n.md", "--- notes/n.md").replace("+++ full/n.md", "+++ notes/n.md")
    (tmp_path / "n.diff").write_text(text)
    r = cli("--vault", vault.root, "--json", "propose", "--patch", tmp_path / "n.diff")
    assert r.code == 0, r
    data = json.loads(r.out)
    assert data["ok"]
    assert (vault.root / ".kp/proposals" / data["id"] / "files/notes/n.md").exists()


def test_a_refused_create_names_no_kp_id_minted_for_it(vault: GitVault, cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    draft = tmp_path / "draft.md"
    draft.write_text("# Evil\n\nOutside the vault.\n")
    r = cli("--vault", vault.root, "propose", "--title", "t", "--create", f"../evil.md={draft}")
    assert r.code == 1 and "KP002" in r.out and "climbs out" in r.out
    assert "minted" not in r.out
