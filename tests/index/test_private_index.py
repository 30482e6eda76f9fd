"""The index is as private as its user: it holds every note's text unredacted, so a vault kept
0700 is no protection when its copy sits in a cache any local user can open with sqlite3."""

from __future__ import annotations

import glob
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import GitVault, note

SECRET = "DB_PASSWORD=hunter2hunter2"
NOBODY = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")


def _index(vault: Path, cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "CURATOR_EMBEDDER": "none"}
    env.pop("CURATOR_INDEX_DIR", None)
    # umask 022, as a desktop session has it: what Curator makes must not rely on a strict one.
    script = "import os, sys, runpy; os.umask(0o022); sys.argv = ['curator', *sys.argv[1:]]; runpy.run_module('curator', run_name='__main__')"
    return subprocess.run(
        [sys.executable, "-c", script, "--vault", str(vault), *args, "index"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _mode(path: str | Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def private(vault: GitVault) -> GitVault:
    vault.write("notes/db.md", note("kp:01J0000000000000000000PRIV", "Database", f"{SECRET}\n"))
    vault.commit("a private note")
    vault.root.chmod(0o700)
    return vault


def test_the_index_folder_and_the_cache_are_the_user_s_alone(private: GitVault, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    r = _index(private.root, cache)
    assert r.returncode == 0, r.stderr
    (index_dir,) = glob.glob(str(cache / "curator" / "*"))
    assert _mode(cache / "curator") == 0o700 and _mode(index_dir) == 0o700
    assert glob.glob(os.path.join(index_dir, "epochs", "*.sqlite"))


def test_an_index_folder_made_loose_before_is_made_private(private: GitVault, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    assert _index(private.root, cache).returncode == 0
    (index_dir,) = glob.glob(str(cache / "curator" / "*"))
    os.chmod(index_dir, 0o755)  # as an earlier Curator left it
    private.write("notes/more.md", note("kp:01J0000000000000000000MORE", "More", "More text.\n"))
    assert _index(private.root, cache).returncode == 0
    assert _mode(index_dir) == 0o700


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root, to read as a second user (65534)"
)
@pytest.mark.skipif(shutil.which("setpriv") is None, reason="setpriv (util-linux) is not installed")
def test_a_second_user_cannot_read_the_notes_through_the_index(private: GitVault) -> None:
    # A cache any user may walk to, as a home folder of mode 0755 is (pytest's own folder is not).
    cache = Path(tempfile.mkdtemp(prefix="curator-cache-", dir="/tmp"))
    cache.chmod(0o755)
    try:
        _peek_as_nobody(private, cache)
    finally:
        shutil.rmtree(cache)


def _peek_as_nobody(private: GitVault, cache: Path) -> None:
    assert _index(private.root, cache).returncode == 0
    (db,) = glob.glob(str(cache / "curator" / "*" / "epochs" / "*.sqlite"))
    peek = (
        "import sqlite3, sys\n"
        "c = sqlite3.connect('file:' + sys.argv[1] + '?mode=ro&immutable=1', uri=True)\n"
        "print([r for r in c.execute('select text from passages')])\n"
    )
    # The owner can read it this way: the attack works where the folder lets the second user in.
    assert "hunter2hunter2" in subprocess.run(
        ["/usr/bin/python3", "-c", peek, db], capture_output=True, text=True, timeout=30
    ).stdout
    other = subprocess.run(
        [*NOBODY, "/usr/bin/python3", "-c", peek, db], capture_output=True, text=True, timeout=30, cwd="/"
    )
    assert other.returncode != 0 and "hunter2hunter2" not in other.stdout, other.stdout
