"""What a newcomer types: note paths from any folder, plain `diff -u` patches, an index folder
inside the vault, and a first search before any `curator index`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import GitVault, note


@pytest.fixture(autouse=True)
def _lexical(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")


def test_index_dir_inside_the_vault_is_refused_unless_git_ignores_it(vault: GitVault, cli, monkeypatch) -> None:
    r = cli("--vault", vault.root, "--index-dir", vault.root / "idx", "index")
    assert r.code == 2
    assert r.err.startswith("curator: --index-dir ") and "inside the vault" in r.err
    assert len(r.err.strip().splitlines()) == 1
    assert not (vault.root / "idx").exists()
    monkeypatch.setenv("CURATOR_INDEX_DIR", str(vault.root / "notes" / "idx"))
    r = cli("--vault", vault.root, "search", "alpha")
    assert r.code == 2 and r.err.startswith("curator: CURATOR_INDEX_DIR ")
    assert not (vault.root / "notes" / "idx").exists()
    monkeypatch.delenv("CURATOR_INDEX_DIR")
    vault.write(".gitignore", ".idx/\n")
    vault.commit("ignore the index")
    assert cli("--vault", vault.root, "--index-dir", vault.root / ".idx", "index", "--quiet").code == 0
    assert any((vault.root / ".idx").iterdir())


@pytest.mark.parametrize("how", ["--vault", "CURATOR_VAULT"])
def test_propose_and_read_take_vault_paths_from_outside_the_vault(
    vault: GitVault, cli, monkeypatch, tmp_path: Path, how: str
) -> None:
    elsewhere = tmp_path / "elsewhere" / "deeper"
    elsewhere.mkdir(parents=True)
    monkeypatch.chdir(elsewhere)
    args: tuple[str | Path, ...] = ("--vault", vault.root) if how == "--vault" else ()
    if how == "CURATOR_VAULT":
        monkeypatch.setenv("CURATOR_VAULT", str(vault.root))
    r = cli(*args, "read", "notes/alpha.md")
    assert r.code == 0 and "Alpha links to" in r.out
    vault.write("notes/alpha.md", vault.read("notes/alpha.md") + "An edit.\n")
    r = cli(*args, "--json", "propose", "notes/alpha.md", "--title", "Edit alpha")
    assert r.code == 0, r
    assert json.loads(r.out)["restored"] == ["notes/alpha.md"]


def test_a_path_relative_to_the_current_folder_wins_inside_the_vault(vault: GitVault, cli, monkeypatch) -> None:
    vault.write("a/same.md", note("kp:01J00000000000000000000SMA", "Same A", "in a\n"))
    vault.write("b/same.md", note("kp:01J00000000000000000000SMB", "Same B", "in b\n"))
    vault.commit("two of a name")
    assert cli("--vault", vault.root, "index", "--quiet").code == 0
    monkeypatch.chdir(vault.root / "b")
    r = cli("--json", "read", "same.md")
    assert r.code == 0 and json.loads(r.out)["path"] == "b/same.md"
    vault.write("b/same.md", vault.read("b/same.md") + "edit\n")
    r = cli("--json", "propose", "same.md", "--title", "t")
    assert r.code == 0 and json.loads(r.out)["restored"] == ["b/same.md"]


def _diff(cwd: Path, old: str, new: str) -> str:
    done = subprocess.run(["diff", "-u", old, new], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    return done.stdout


@pytest.mark.parametrize("where", ["in-vault", "outside"])
def test_propose_patch_takes_plain_diff_u_against_a_new_copy(vault: GitVault, cli, tmp_path: Path, where: str) -> None:
    edited = vault.read("notes/alpha.md").replace("Second line.", "Second line, edited.")
    if where == "in-vault":
        vault.write("notes/alpha.md.new", edited)
        text = _diff(vault.root, "notes/alpha.md", "notes/alpha.md.new")
        (vault.root / "notes/alpha.md.new").unlink()
    else:
        (tmp_path / "ex.md").write_text(edited)
        text = _diff(vault.root, "notes/alpha.md", str(tmp_path / "ex.md"))
    (tmp_path / "fix.diff").write_text(text)
    r = cli("--vault", vault.root, "--json", "propose", "--patch", tmp_path / "fix.diff", "--title", "t")
    assert r.code == 0, r
    pid = json.loads(r.out)["id"]
    stored = (vault.root / ".kp/proposals" / pid / "changes.diff").read_text()
    assert "+++ b/notes/alpha.md\n" in stored and "+Second line, edited." in stored


def test_propose_patch_from_dev_null_creates_the_new_name(vault: GitVault, cli, tmp_path: Path) -> None:
    (tmp_path / "new.md").write_text("# Fresh\n\ntext\n")
    text = subprocess.run(
        ["diff", "-u", "/dev/null", "notes/fresh.md"], cwd=vault.root, capture_output=True, text=True
    ).stdout
    assert not text  # notes/fresh.md does not exist: write the patch by hand as diff -N would
    text = "--- /dev/null\n+++ notes/fresh.md\n@@ -0,0 +1,3 @@\n+# Fresh\n+\n+text\n"
    (tmp_path / "new.diff").write_text(text)
    r = cli("--vault", vault.root, "--json", "propose", "--patch", tmp_path / "new.diff", "--title", "t")
    assert r.code == 0, r
    assert json.loads(r.out)["minted"][0].startswith("notes/fresh.md → kp:")


def test_search_builds_a_missing_index_first(vault: GitVault, cli) -> None:
    r = cli("--vault", vault.root, "search", "alpha", "--mode", "lexical")
    assert r.code == 0, r
    assert "no index yet: indexing the vault first" in r.err
    assert "notes/alpha.md" in r.out
    r = cli("--vault", vault.root, "search", "beta", "--mode", "lexical")
    assert r.code == 0 and "no index yet" not in r.err
