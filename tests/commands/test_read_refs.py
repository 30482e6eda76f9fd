"""`curator read` and `relate` resolve refs to notes of the vault only (never a file outside it)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import GitVault, note

SECRET = "TOP-SECRET-OUTSIDE-THE-VAULT"


@pytest.fixture
def indexed(vault: GitVault, cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> GitVault:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(f"# Secret\n\n{SECRET}\n")
    (tmp_path / "victim.md").write_text(f"# Victim\n\n{SECRET}\n")
    vault.write("image.png", b"\x89PNG\r\n\x1a\n" + SECRET.encode())
    assert cli("--vault", vault.root, "index").code == 0
    return vault


@pytest.mark.parametrize(
    "ref",
    [
        "../../../../../../../../etc/passwd",
        "/etc/passwd",
        ".git/config",
        ".git/HEAD",
        "./.git/config",
        "notes/../../victim.md",
        "../victim.md",
        ".kp/config.yaml",
        "image.png",
        "notes",
    ],
)
@pytest.mark.parametrize("command", ["read", "relate"])
def test_refs_outside_the_vault_or_not_notes_are_refused(indexed: GitVault, cli, ref: str, command: str) -> None:
    r = cli("--vault", indexed.root, command, ref)
    assert r.code == 2, r
    assert SECRET not in r.out and "root:" not in r.out and "[core]" not in r.out
    assert "Traceback" not in r.err and r.err.count("\n") == 1


def test_a_note_under_a_symlinked_folder_is_refused(indexed: GitVault, cli, tmp_path: Path) -> None:
    os.symlink(tmp_path / "outside", indexed.root / "linked")
    os.symlink(tmp_path / "victim.md", indexed.root / "notes" / "victim.md")
    for ref in ("linked/secret.md", "notes/victim.md", "secret", "victim"):
        r = cli("--vault", indexed.root, "read", ref)
        assert r.code == 2 and SECRET not in r.out, (ref, r)


def test_a_stale_index_row_cannot_lead_through_a_symlink(indexed: GitVault, cli, tmp_path: Path) -> None:
    """The index knew notes/alpha.md; the folder is now a symlink to a folder outside the vault."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "alpha.md").write_text(note("kp:01J0000000000000000000ALPH", "Alpha", SECRET))
    os.rename(indexed.root / "notes", tmp_path / "moved-notes")
    os.symlink(outside, indexed.root / "notes")
    for ref in ("kp:01J0000000000000000000ALPH", "Alpha", "notes/alpha.md"):
        r = cli("--vault", indexed.root, "--json", "read", ref)
        assert r.code == 2 and SECRET not in r.out, (ref, r)


def test_refs_are_refused_without_an_index_too(vault: GitVault, cli) -> None:
    for ref in ("../../../../etc/passwd", ".git/config"):
        r = cli("--vault", vault.root, "read", ref)
        assert r.code == 2 and "root:" not in r.out and "[core]" not in r.out, r
    ok = cli("--vault", vault.root, "--json", "read", "notes/alpha.md")
    assert ok.code == 0 and json.loads(ok.out)["kp_id"] == "kp:01J0000000000000000000ALPH"


def test_notes_are_still_read_by_every_kind_of_ref(indexed: GitVault, cli) -> None:
    for ref in ("notes/alpha.md", "./notes/alpha.md", "kp:01J0000000000000000000ALPH", "Alpha", "alpha", "notes/alpha"):
        r = cli("--vault", indexed.root, "--json", "read", ref)
        assert r.code == 0, (ref, r)
        assert json.loads(r.out)["path"] == "notes/alpha.md"


def test_an_empty_ref_is_a_usage_error(indexed: GitVault, cli) -> None:
    r = cli("--vault", indexed.root, "read", "  ")
    assert r.code == 2 and "empty" in r.err


@pytest.mark.parametrize("command", ["read", "relate"])
@pytest.mark.parametrize("ref", ["private/diary.md", ".trash/old.md", "./private/diary.md"])
def test_a_file_notes_exclude_keeps_out_is_not_a_note_to_read(vault: GitVault, cli, command: str, ref: str) -> None:
    """notes.exclude keeps folders out of Curator: not indexed, and not readable by path either
    (an agent's kp_read goes through the same check)."""
    vault.write(".kp/config.yaml", 'notes:\n  exclude: [".github/", ".obsidian/", ".trash/", "private/"]\n')
    vault.write("private/diary.md", f"# Diary\n\n{SECRET}\n")
    vault.write(".trash/old.md", f"# Old\n\n{SECRET}\n")
    vault.commit("excluded folders")
    r = cli("--vault", vault.root, command, ref)
    assert r.code == 2, r
    assert SECRET not in r.out and "notes.exclude" in r.err, r
    assert "Traceback" not in r.err


def test_a_folder_or_a_file_that_is_no_note_is_named_as_such(indexed: GitVault, cli) -> None:
    folder = cli("--vault", indexed.root, "read", "notes")
    assert folder.code == 2 and "'notes' is a folder, not a note" in folder.err, folder
    image = cli("--vault", indexed.root, "read", "image.png")
    assert image.code == 2 and "'image.png' cannot be read: not a note (outside notes.include)" in image.err, image


def test_a_crlf_note_reads_without_its_carriage_returns(vault: GitVault, cli) -> None:
    # Windows line endings are the file's, not text: shown plain, kept in --json
    (vault.root / "crlf.md").write_bytes(b"# Windows\r\n\r\nWritten on Windows.\r\nA second line.\r\n")
    vault.commit("a note with CRLF line endings")
    r = cli("--vault", vault.root, "read", "crlf.md")
    assert r.code == 0, r
    assert "\\x0d" not in r.out and "3  Written on Windows.\n" in r.out, r.out
    data = json.loads(cli("--vault", vault.root, "--json", "read", "crlf.md").out)
    assert [line["text"] for line in data["lines"]][2] == "Written on Windows.\r"
