"""`curator init` and `curator hooks install` write no file through a symlink."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import make_git_vault


@pytest.mark.parametrize(
    ("link", "points_to_folder"),
    [(".gitattributes", False), (".kp/config.yaml", False), (".kp", True), (".kp/proposals", True)],
)
def test_init_refuses_a_symlinked_file_it_would_write(
    tmp_path: Path, cli, link: str, points_to_folder: bool
) -> None:
    v = make_git_vault(tmp_path / "v")
    victim = tmp_path / "victim4"
    if points_to_folder:
        victim.mkdir()
    else:
        victim.write_text("precious\n")
    (v.root / link).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(victim, v.root / link)
    v.commit("a committed symlink")
    status = v.status()
    r = cli("--vault", v.root, "init")
    assert r.code == 2, r
    assert f"{link} is a symlink" in r.err and "nothing was written" in r.err
    assert len(r.err.strip().splitlines()) == 1
    if points_to_folder:
        assert list(victim.iterdir()) == []
    else:
        assert victim.read_text() == "precious\n"
    assert (v.root / link).is_symlink() and v.status() == status


def test_hooks_install_replaces_no_file_through_a_planted_temp_symlink(tmp_path: Path, cli) -> None:
    v = make_git_vault(tmp_path / "v")
    v.write("n.md", "# n\n")
    v.commit()
    victim = tmp_path / "victim5"
    hooks = v.root / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    for name in ("pre-commit", "post-checkout", "post-merge", "pre-push", "post-commit", "post-rewrite"):
        os.symlink(victim, hooks / f"{name}.curator-tmp")
    r = cli("--vault", v.root, "hooks", "install")
    assert r.code == 0, r
    assert not victim.exists()
    assert os.access(hooks / "pre-commit", os.X_OK) and not (hooks / "pre-commit").is_symlink()


def test_hooks_install_writes_no_hook_through_a_symlinked_hooks_path_in_the_vault(tmp_path: Path, cli) -> None:
    v = make_git_vault(tmp_path / "v")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, v.root / "githooks")
    v.commit("a committed symlink")
    v.git("config", "core.hooksPath", "githooks")
    r = cli("--vault", v.root, "hooks", "install")
    assert r.code == 2, r
    assert "githooks is a symlink" in r.err
    assert list(outside.iterdir()) == []
    v.git("config", "core.hooksPath", "realhooks")
    r = cli("--vault", v.root, "hooks", "install")
    assert r.code == 0, r
    assert os.access(v.root / "realhooks" / "pre-commit", os.X_OK)
