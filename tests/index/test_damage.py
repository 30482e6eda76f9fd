"""A damaged, unwritable or misplaced index: one line and a way forward, never exit 3."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import apsw

from tests.conftest import GitVault, run_process


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "CURATOR_EMBEDDER": "fake", **extra}


def _epoch(index_dir: Path) -> Path:
    return index_dir / "epochs" / (index_dir / "CURRENT").read_text().strip()


def _rot(db: Path) -> None:
    """Garbage over every page but the first, keeping the file's size and mtime (bit rot:
    the sidecar's size-and-mtime check still vouches for it)."""
    st = db.stat()
    page = 4096
    with open(db, "r+b") as f:
        for offset in range(page, st.st_size, page):
            f.seek(offset)
            f.write(bytes((offset // page + i) % 251 for i in range(page)))
    os.utime(db, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert db.stat().st_size == st.st_size and db.stat().st_mtime_ns == st.st_mtime_ns


def test_bit_rot_is_quarantined_and_rebuilt_by_search_and_by_index(example_vault: GitVault, tmp_path: Path) -> None:
    index_dir = tmp_path / "idx"
    base = ("--vault", example_vault.root, "--index-dir", index_dir)
    assert run_process(*base, "index", env=_env()).returncode == 0
    _rot(_epoch(index_dir))
    r = run_process(*base, "--json", "search", "WAL checkpoints", env=_env())
    assert r.returncode == 2, r
    line = r.stderr.strip()
    assert "\n" not in line and "the index is corrupt" in line and "moved it to" in line and "rebuilt it" in line
    assert list((index_dir / "epochs").glob("*.corrupt-*"))
    again = run_process(*base, "--json", "search", "WAL checkpoints", env=_env())
    assert again.returncode == 0, again
    assert json.loads(again.stdout)["hits"][0]["path"] == "sqlite/wal-mode.md"
    # `curator index` meets the same damage: it says so in one line and rebuilds
    _rot(_epoch(index_dir))
    r = run_process(*base, "--json", "status", env=_env())
    assert r.returncode == 2 and "rebuilt it" in r.stderr, r
    _rot(_epoch(index_dir))
    note = example_vault.root / "sqlite" / "wal-mode.md"
    note.write_text(note.read_text() + "\nOne more line.\n")
    r = run_process(*base, "--json", "index", env=_env())
    assert r.returncode == 0, r
    report = json.loads(r.stdout)
    assert any("the index was corrupt" in w and "rebuilt it" in w for w in report["warnings"]), report
    assert report["passages"] > 30


def test_an_uncreatable_index_folder_is_one_line_exit_2(vault: GitVault, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for args in (("index",), ("index", "rebuild")):
        r = run_process("--vault", vault.root, "--index-dir", blocker / "idx", *args, env=_env())
        assert r.returncode == 2, r
        assert r.stderr.strip() == (
            f"curator: cannot write the index folder {blocker / 'idx'}: Not a directory "
            "(make it writable, or choose another with --index-dir or CURATOR_INDEX_DIR)"
        )


def test_search_answers_from_an_index_it_cannot_write(vault: GitVault, tmp_path: Path) -> None:
    index_dir = tmp_path / "idx"
    base = ("--vault", vault.root, "--index-dir", index_dir)
    assert run_process(*base, "index", env=_env()).returncode == 0
    lock = index_dir / "writer.lock"
    lock.unlink()
    lock.mkdir()  # the lock cannot be opened for writing (root ignores permission bits)
    vault.write("notes/gamma.md", "# Gamma\n\nGamma text.\n")
    r = run_process(*base, "--json", "search", "Alpha", env=_env())
    assert r.returncode == 0, r
    data = json.loads(r.stdout)
    assert data["hits"][0]["path"] == "notes/alpha.md"
    (warning,) = data["warnings"]
    assert warning.startswith(f"cannot write the index folder {index_dir}") and "results may lag" in warning
    r = run_process(*base, "index", env=_env())
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and str(index_dir) in r.stderr, r


def test_a_relative_index_dir_is_read_from_the_config_file_and_kept_out_of_the_vault(
    vault: GitVault, tmp_path: Path
) -> None:
    config = vault.root / ".kp" / "config.yaml"
    config.write_text("index:\n  dir: cache/idx\n")
    r = run_process("--vault", vault.root, "index", env=_env())
    assert r.returncode == 2, r
    assert r.stderr.strip().startswith("curator: index.dir 'cache/idx' is ") and "inside the vault" in r.stderr
    assert not (vault.root / ".kp" / "cache").exists() and not (vault.root / "cache").exists()
    # git ignores it: allowed, and resolved against the config file's folder
    (vault.root / ".gitignore").write_text(".kp/cache/\n")
    r = run_process("--vault", vault.root, "--json", "index", env=_env())
    assert r.returncode == 0, r
    assert (vault.root / ".kp" / "cache" / "idx" / "CURRENT").exists()
    assert not any("cache/idx" in s["path"] for s in json.loads(r.stdout)["skipped"])
    # outside the vault and the home folder: refused (a committed config chooses for every clone)
    shutil.rmtree(vault.root / ".kp" / "cache")
    config.write_text("index:\n  dir: ../../outside\n")
    r = run_process("--vault", vault.root, "index", env=_env())
    assert r.returncode == 2 and "outside the vault and your home folder" in r.stderr, r
    assert not (tmp_path / "outside").exists()


def test_status_shows_pending_passages_with_an_eta(example_vault: GitVault, tmp_path: Path) -> None:
    index_dir = tmp_path / "idx"
    base = ("--vault", example_vault.root, "--index-dir", index_dir)
    assert run_process(*base, "index", env=_env()).returncode == 0
    conn = apsw.Connection(str(_epoch(index_dir)))
    with conn:
        conn.execute("UPDATE passages SET vec = 0 WHERE id IN (SELECT id FROM passages LIMIT 20)")
    conn.close()
    data = json.loads(run_process(*base, "--json", "status", env=_env()).stdout)
    assert data["pending_embeddings"] == 20 and data["embed_rate"] > 0
    assert data["pending_eta_seconds"] == round(20 / data["embed_rate"])
    text = run_process(*base, "status", env=_env()).stdout
    assert "20 pending (about " in text and "passages/s)" in text
