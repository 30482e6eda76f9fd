"""`curator index` and `curator index rebuild` killed (SIGTERM, or SIGKILL to the parent
alone) while its worker processes parse notes: the workers die with it, nobody holds the
writer lock, and the next `curator index` starts at once and does only what is missing."""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import GitVault, make_git_vault, note, run_process

NOTES = 360  # above documents.PARALLEL_FROM: parsed in worker processes


def _env(**extra: str) -> dict[str, str]:
    # Two workers whatever the machine's load, so the workers are there to be orphaned.
    return {**os.environ, "CURATOR_EMBEDDER": "fake", "CURATOR_THREADS": "2", **extra}


@pytest.fixture
def many(tmp_path: Path) -> GitVault:
    v = make_git_vault(tmp_path / "many")
    for i in range(NOTES):
        v.write(f"n/{i:03}.md", note(f"kp:01J00000000000000000{i:05}", f"Note {i}", f"Body of note {i} about lamps."))
    v.commit()
    return v


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"  # a zombie has stopped running
    except OSError:
        return True


def _wait_for(predicate, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        time.sleep(0.02)


def _index_dir() -> Path:
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "curator"
    (lock,) = list(cache.rglob("writer.lock"))
    return lock.parent


def _kill_while_parsing(vault: GitVault, sig: int, *args: str) -> list[int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "curator", "--vault", str(vault.root), *args],
        env=_env(CURATOR_SLOW="prepare:0.03"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for(lambda: len(_children(proc.pid)) >= 2)
        workers = _children(proc.pid)
        assert proc.poll() is None, "it finished before it could be killed"
        os.kill(proc.pid, sig)  # the parent alone, not its process group
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    return workers


def _lock_is_free_now() -> bool:
    fd = os.open(_index_dir() / "writer.lock", os.O_RDWR)
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_killed_first_index_leaves_no_worker_and_no_lock(many: GitVault, sig: int) -> None:
    workers = _kill_while_parsing(many, sig, "index")
    # The kernel dropped the parent's lock with it; the workers never held it.
    assert _lock_is_free_now()
    _wait_for(lambda: all(_gone(w) for w in workers), timeout=10)
    r = run_process("--vault", many.root, "--json", "index", env=_env())
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["indexed"] == NOTES and report["embedded"] == report["passages"]
    if sig == signal.SIGKILL:
        assert any("was stopped before it finished" in w for w in report["warnings"]), report
    # the half-built epoch is gone, the new one serves
    assert len(list((_index_dir() / "epochs").glob("*.sqlite"))) == 1


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_killed_rebuild_leaves_the_serving_epoch_and_no_worker(many: GitVault, sig: int) -> None:
    assert run_process("--vault", many.root, "index", env=_env()).returncode == 0
    serving = (_index_dir() / "CURRENT").read_text()
    workers = _kill_while_parsing(many, sig, "index", "rebuild")
    assert _lock_is_free_now()
    _wait_for(lambda: all(_gone(w) for w in workers), timeout=10)
    assert (_index_dir() / "CURRENT").read_text() == serving
    r = run_process("--vault", many.root, "--json", "index", env=_env())
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    # nothing was missing from the serving epoch: nothing is redone
    assert report["indexed"] == 0 and report["unchanged"] == NOTES and report["embedded"] == 0
    assert [p.name for p in (_index_dir() / "epochs").glob("*.sqlite")] == [serving.strip()]


@pytest.mark.parametrize("point", ["rebuild:before-swap", "rebuild:after-swap"])
def test_a_kill_during_the_epoch_swap_leaves_one_whole_epoch_serving(example_vault: GitVault, point: str) -> None:
    assert run_process("--vault", example_vault.root, "index", env=_env()).returncode == 0
    old = (_index_dir() / "CURRENT").read_text().strip()
    r = run_process("--vault", example_vault.root, "index", "rebuild", env=_env(CURATOR_FAULT=point))
    assert r.returncode == 137
    current = (_index_dir() / "CURRENT").read_text().strip()
    assert (current == old) == (point == "rebuild:before-swap")
    r = run_process("--vault", example_vault.root, "--json", "index", env=_env())
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["indexed"] == 0
    assert [p.name for p in (_index_dir() / "epochs").glob("*.sqlite")] == [current]
    hits = json.loads(run_process("--vault", example_vault.root, "--json", "search", "WAL", env=_env()).stdout)
    assert hits["hits"]


@pytest.mark.parametrize("value", ["0", "-2", "many", "1.5", ""])
def test_curator_threads_must_be_a_positive_whole_number(vault: GitVault, value: str) -> None:
    r = run_process("--vault", vault.root, "index", env=_env(CURATOR_THREADS=value))
    assert r.returncode == 2, r
    assert (
        r.stderr.strip().startswith("curator: CURATOR_THREADS must be a whole number") and "\n" not in r.stderr.strip()
    )
