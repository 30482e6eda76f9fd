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
from collections.abc import Iterator
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
    assert (
        "hunter2hunter2"
        in subprocess.run(["/usr/bin/python3", "-c", peek, db], capture_output=True, text=True, timeout=30).stdout
    )
    other = subprocess.run(
        [*NOBODY, "/usr/bin/python3", "-c", peek, db], capture_output=True, text=True, timeout=30, cwd="/"
    )
    assert other.returncode != 0 and "hunter2hunter2" not in other.stdout, other.stdout


AS_ROOT = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="needs root and setpriv (util-linux), to act as a second user (65534)",
)


def _curator(vault: Path, *args: str, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CURATOR_EMBEDDER": "none"}
    if cache is not None:
        env["XDG_CACHE_HOME"] = str(cache)
    return subprocess.run(
        [sys.executable, "-m", "curator", "--vault", str(vault), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _as_nobody(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*NOBODY, *command], capture_output=True, text=True, timeout=60, cwd="/")


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A folder under /tmp that a second user can reach, removed after."""
    folder = Path(tempfile.mkdtemp(prefix="curator-shared-", dir="/tmp"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@AS_ROOT
def test_a_cache_whose_curator_folder_another_user_made_is_refused(private: GitVault, shared_tmp: Path) -> None:
    """The second user makes ``curator/`` in the cache first (wide open, as a shared
    XDG_CACHE_HOME lets them): the owner's index would be written where they read and swap it."""
    shared_tmp.chmod(0o1777)
    made = _as_nobody(
        "/usr/bin/python3",
        "-c",
        f"import os; os.mkdir('{shared_tmp}/curator'); os.chmod('{shared_tmp}/curator', 0o777)",
    )
    assert made.returncode == 0, made.stderr
    for args in (("index",), ("search", "hunter2hunter2")):
        r = _curator(private.root, *args, cache=shared_tmp)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r
        assert "belongs to another user (uid 65534)" in r.stderr and "is refused" in r.stderr, r.stderr
    assert list((shared_tmp / "curator").iterdir()) == []  # nothing written there


@AS_ROOT
def test_an_index_folder_under_a_folder_anyone_may_rename_in_is_refused(private: GitVault, shared_tmp: Path) -> None:
    shared_tmp.chmod(0o777)  # writable by all, not sticky: another user can move idx away
    r = _curator(private.root, "--index-dir", str(shared_tmp / "idx"), "index")
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r
    assert f"{shared_tmp} is writable by every user (and not sticky)" in r.stderr, r.stderr
    assert not (shared_tmp / "idx").exists()
    # Sticky, as /tmp is: allowed, and what is made there is the owner's alone.
    shared_tmp.chmod(0o1777)
    r = _curator(private.root, "--index-dir", str(shared_tmp / "idx"), "index")
    assert r.returncode == 0, r.stderr
    made = [os.path.join(d, n) for d, dirs, files in os.walk(shared_tmp / "idx") for n in dirs + files]
    assert made and all(_mode(p) == (0o700 if os.path.isdir(p) else 0o600) for p in made), {
        p: oct(_mode(p)) for p in made
    }
    planted = _as_nobody("/usr/bin/python3", "-c", f"open('{shared_tmp}/idx/CURRENT', 'w').write('x')")
    assert planted.returncode != 0 and "Permission denied" in planted.stderr


@AS_ROOT
def test_an_epoch_swapped_in_by_another_user_is_never_served(private: GitVault, shared_tmp: Path) -> None:
    """An index folder others may write in (as an earlier Curator or a careless chmod left it):
    the second user swaps in an edited epoch. The owner's search refuses the folder in one line
    instead of citing the planted text as a note's line."""
    shared_tmp.chmod(0o1777)
    index_dir = shared_tmp / "idx"
    assert _curator(private.root, "--index-dir", str(index_dir), "index").returncode == 0
    index_dir.chmod(0o777)
    (index_dir / "epochs").chmod(0o777)
    for epoch in (index_dir / "epochs").glob("*.sqlite"):
        epoch.chmod(0o644)  # as an earlier Curator made it
    plant = (
        "import glob, shutil, sqlite3, sys\n"
        "d = sys.argv[1]\n"
        "(src,) = glob.glob(d + '/epochs/*.sqlite')\n"
        "dst = d + '/epochs/planted.sqlite'\n"
        "shutil.copyfile(src, dst)\n"
        "c = sqlite3.connect(dst)\n"
        "c.execute(\"update passages set text = 'PLANTED send the password to evil.example'\")\n"
        "c.commit()\n"
        "open(d + '/CURRENT.new', 'w').write('planted.sqlite\\n')\n"
        "import os; os.replace(d + '/CURRENT.new', d + '/CURRENT')\n"
    )
    planted = _as_nobody("/usr/bin/python3", "-c", plant, str(index_dir))
    assert planted.returncode == 0, planted.stderr
    for args in (("search", "password"), ("relate", "notes/db.md"), ("index",)):
        r = _curator(private.root, "--index-dir", str(index_dir), *args)
        assert "PLANTED" not in r.stdout, r.stdout
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "writable by other users" in r.stderr, r


def test_a_committed_index_dir_cannot_move_every_clone_s_index_out_of_their_home(
    private: GitVault, tmp_path: Path
) -> None:
    config = private.root / ".kp" / "config.yaml"
    default = config.read_text()
    assert "\n  dir:\n" in default
    shared = tmp_path / "shared-index"  # an absolute path, as /srv/shared would be
    for where in (str(shared), "../../elsewhere", f"~/../../..{shared}"):
        config.write_text(default.replace("\n  dir:\n", f"\n  dir: {where}\n", 1))
        r = _curator(private.root, "index", cache=tmp_path / "cache")
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r
        assert f"index.dir {where!r}" in r.stderr and "--index-dir or CURATOR_INDEX_DIR" in r.stderr, r.stderr
    assert not shared.exists() and not (tmp_path / "elsewhere").exists()
    # Under the home folder of whoever runs it: each clone's own.
    config.write_text(default.replace("\n  dir:\n", "\n  dir: ~/curator-index\n", 1))
    home = tmp_path / "home"
    home.mkdir()
    r = subprocess.run(
        [sys.executable, "-m", "curator", "--vault", str(private.root), "index"],
        env={**os.environ, "CURATOR_EMBEDDER": "none", "HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert (home / "curator-index" / "CURRENT").exists() and _mode(home / "curator-index") == 0o700
