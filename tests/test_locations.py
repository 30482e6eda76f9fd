"""Where Curator keeps things outside the vault."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from curator import locations


def test_a_relative_xdg_cache_home_is_ignored(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", "cache")
    assert locations.cache_root() == str(tmp_path / "home" / ".cache" / "curator")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "abs"))
    assert locations.cache_root() == str(tmp_path / "abs" / "curator")


def test_a_scan_run_from_a_vault_with_a_relative_cache_home_writes_nothing_there(tmp_path: Path) -> None:
    vault, home = tmp_path / "vault", tmp_path / "home"
    vault.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": ".cache"}
    subprocess.run(
        [sys.executable, "-c", "from curator import leaks; leaks.scan('token = ghp_' + 'a' * 36)"],
        cwd=vault,
        env=env,
        check=True,
    )
    assert list(vault.iterdir()) == []
    assert list((home / ".cache" / "curator" / "leak-patterns").glob("*.json"))
