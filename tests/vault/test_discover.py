from __future__ import annotations

from pathlib import Path

import pytest

from curator.errors import VaultError
from curator.vault import find_vault
from tests.conftest import git, make_git_vault


def test_work_tree_is_found_from_a_subfolder(tmp_path: Path) -> None:
    v = make_git_vault(tmp_path / "v")
    (v.root / "a" / "b").mkdir(parents=True)
    assert find_vault(cwd=str(v.root / "a" / "b")).root == str(v.root)


def test_env_variable_and_explicit_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    v1 = make_git_vault(tmp_path / "one")
    v2 = make_git_vault(tmp_path / "two")
    monkeypatch.setenv("CURATOR_VAULT", str(v1.root))
    assert find_vault().root == str(v1.root)
    assert find_vault(str(v2.root)).root == str(v2.root)


def test_not_a_repository_is_a_one_line_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "plain").mkdir()
    monkeypatch.delenv("CURATOR_VAULT", raising=False)
    with pytest.raises(VaultError, match="not inside a git work tree") as told:
        find_vault(str(tmp_path / "plain"))
    assert told.value.hint == "run `git init` there"  # it was passed with --vault already
    monkeypatch.chdir(tmp_path / "plain")
    with pytest.raises(VaultError) as found:
        find_vault()
    assert found.value.hint == "run `git init` there, or pass --vault"


def test_bare_repository_is_refused(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "--bare", "bare.git")
    with pytest.raises(VaultError, match="bare git repository"):
        find_vault(str(tmp_path / "bare.git"))


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(VaultError, match="does not exist"):
        find_vault(str(tmp_path / "nope"))


def test_the_vault_is_what_git_tracks_or_would_track(tmp_path: Path) -> None:
    """Ignored files are outside the vault, except those git tracks anyway (added with -f),
    even inside an ignored folder; untracked files that are not ignored are inside."""
    from curator.settings import Settings
    from curator.vault.tree import scan

    v = make_git_vault(tmp_path / "v")
    v.write(".gitignore", "build/\n*.log\nscratch/\n")
    v.write("notes/a.md", "# A\n")
    v.write("build/kept.md", "# Kept\n")
    v.write("build/deep/kept-too.md", "# Kept too\n")
    v.write("build/junk.md", "# Junk\n")
    v.write("trace.log", "tracked anyway\n")
    v.write("other.log", "ignored\n")
    v.write("scratch/x.md", "# Scratch\n")
    v.commit()
    v.git("add", "-f", "build/kept.md", "build/deep/kept-too.md", "trace.log")
    v.commit("force-add")
    v.write("notes/untracked.md", "# New\n")

    found = scan(find_vault(str(v.root)), Settings())

    assert found.files == [
        ".gitignore",
        "build/deep/kept-too.md",
        "build/kept.md",
        "notes/a.md",
        "notes/untracked.md",
        "trace.log",
    ]
    assert [n.path for n in found.notes] == [
        "build/deep/kept-too.md",
        "build/kept.md",
        "notes/a.md",
        "notes/untracked.md",
    ]
    ignored = {s.path for s in found.skips if s.reason == "ignored by git"}
    assert ignored == {"build/junk.md", "other.log", "scratch/"}
