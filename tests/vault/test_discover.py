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


def test_not_a_repository_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(VaultError, match="not inside a git work tree"):
        find_vault(str(tmp_path / "plain"))


def test_bare_repository_is_refused(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "--bare", "bare.git")
    with pytest.raises(VaultError, match="bare git repository"):
        find_vault(str(tmp_path / "bare.git"))


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(VaultError, match="does not exist"):
        find_vault(str(tmp_path / "nope"))
