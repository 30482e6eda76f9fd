"""Reconcile: only what changed is read, chunked and embedded; nothing else is touched."""

from __future__ import annotations

import json
import os
from pathlib import Path

import apsw
import pytest

from tests.conftest import GitVault, note


@pytest.fixture(autouse=True)
def _fake_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")


def _index(cli, root: Path, *args: str) -> dict:
    r = cli("--vault", root, "--json", "index", *args)
    assert r.code == 0, r
    return json.loads(r.out)


def _epoch_file(root: Path) -> Path:
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "curator"
    (current,) = list(cache.rglob("CURRENT"))
    return current.parent / "epochs" / current.read_text().strip()


def test_first_index_then_nothing_changes(example_vault: GitVault, cli) -> None:
    first = _index(cli, example_vault.root)
    assert (first["indexed"], first["unchanged"], first["removed"]) == (31, 0, 0)
    assert first["embedded"] == first["passages"] > 31
    skipped = {s["path"]: s["reason"] for s in first["skipped"]}
    assert skipped["attachments/architecture.png"] == "not a note (outside notes.include)"
    db = _epoch_file(example_vault.root)
    # filled without a journal, then switched to WAL before readers could see it
    conn = apsw.Connection(str(db))
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    before = (db.stat().st_mtime_ns, db.read_bytes())
    second = _index(cli, example_vault.root)
    assert (second["indexed"], second["unchanged"], second["removed"], second["embedded"]) == (0, 31, 0, 0)
    assert second["skipped"] == first["skipped"]
    assert (db.stat().st_mtime_ns, db.read_bytes()) == before


def test_text_output_names_counts_and_skips(example_vault: GitVault, cli) -> None:
    r = cli("--vault", example_vault.root, "index")
    assert r.code == 0
    first_line = r.out.splitlines()[0]
    assert first_line.startswith("31 indexed, 0 unchanged, 0 removed — ") and " passages in " in first_line
    assert "skipped attachments/usage.csv: not a note (outside notes.include)" in r.out


def test_an_edit_reembeds_only_the_changed_passages(example_vault: GitVault, cli) -> None:
    _index(cli, example_vault.root)
    path = example_vault.root / "sqlite/wal-mode.md"
    path.write_text(path.read_text().replace("The mode is persistent", "The mode is persistent (really)"))
    report = _index(cli, example_vault.root)
    assert (report["indexed"], report["unchanged"]) == (1, 30)
    assert report["embedded"] == 1  # one of the note's three passages changed
    assert report["vectors_reused"] == 2


def test_touch_without_change_rechunks_nothing(example_vault: GitVault, cli) -> None:
    _index(cli, example_vault.root)
    os.utime(example_vault.root / "now.md", ns=(1, 1))
    report = _index(cli, example_vault.root)
    assert (report["indexed"], report["unchanged"], report["passages_written"]) == (0, 31, 0)


def test_delete_and_rename_between_runs(example_vault: GitVault, cli) -> None:
    _index(cli, example_vault.root)
    (example_vault.root / "people/ana-lima.md").unlink()
    (example_vault.root / "git/blobs-and-trees.md").rename(example_vault.root / "git/objects.md")
    report = _index(cli, example_vault.root)
    assert (report["indexed"], report["removed"]) == (1, 2)
    assert report["embedded"] == 0 and report["vectors_reused"] >= 1  # a rename re-embeds nothing
    docs = json.loads(cli("--vault", example_vault.root, "--json", "ls").out)["documents"]
    paths = {d["path"] for d in docs}
    assert "git/objects.md" in paths and "people/ana-lima.md" not in paths


def test_ignored_and_bad_files(example_vault: GitVault, cli) -> None:
    v = example_vault
    v.write("drafts/secret-plans.tmp", "ignored by *.tmp")
    v.write(".obsidian/workspace.md", "ignored folder")
    v.write(".gitignore", ".obsidian/\n*.tmp\nscratch/\n")
    v.write("scratch/idea.md", "# Idea\n\nlater\n")
    v.write("bad/latin1.md", b"caf\xe9")
    v.write("bad/binary.md", b"\x00\x01\x02")
    os.symlink("/etc/hostname", v.root / "bad/outside.md")
    report = _index(cli, v.root)
    skipped = {s["path"]: s["reason"] for s in report["skipped"]}
    assert skipped[".obsidian/"] == "ignored by git"
    assert skipped["drafts/secret-plans.tmp"] == "ignored by git"
    assert skipped["bad/latin1.md"].startswith("not UTF-8")
    assert skipped["bad/binary.md"].startswith("binary")
    assert skipped["bad/outside.md"] == "symlink to a path outside the vault"
    assert report["indexed"] == 31
    # un-ignoring a folder is seen without any file changing; .obsidian/ stays out by notes.exclude
    (v.root / ".gitignore").write_text(".obsidian/\n*.tmp\n")
    again = _index(cli, v.root)
    assert again["indexed"] == 1
    (v.root / ".gitignore").write_text("")
    third = _index(cli, v.root)
    assert third["indexed"] == 0
    assert {s["path"]: s["reason"] for s in third["skipped"]}[".obsidian/workspace.md"] == "excluded by notes.exclude"


def test_corrupt_index_is_detected_and_rebuilt(example_vault: GitVault, cli) -> None:
    _index(cli, example_vault.root)
    db = _epoch_file(example_vault.root)
    db.write_bytes(b"this is not a database" * 100)
    r = cli("--vault", example_vault.root, "--json", "index")
    assert r.code == 0
    report = json.loads(r.out)
    assert report["indexed"] == 31 and any("corrupt" in w for w in report["warnings"])
    hits = json.loads(cli("--vault", example_vault.root, "--json", "search", "WAL", "--mode", "lexical").out)["hits"]
    assert hits and hits[0]["path"] == "sqlite/wal-mode.md"


def test_truncated_index_is_never_trusted(example_vault: GitVault, cli) -> None:
    _index(cli, example_vault.root)
    db = _epoch_file(example_vault.root)
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 3])
    report = _index(cli, example_vault.root)
    assert any("corrupt" in w for w in report["warnings"])
    assert report["indexed"] == 31


def test_search_on_a_missing_index_builds_it_first(vault: GitVault, cli, monkeypatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    r = cli("--vault", vault.root, "search", "alpha")
    assert r.code == 0 and "no index yet: indexing the vault first" in r.err and "notes/alpha.md" in r.out


def test_search_reconciles_a_stale_index_first(example_vault: GitVault, cli) -> None:
    _index(cli, example_vault.root)
    example_vault.write("notes/fresh.md", note("kp:01J0000000000000000000FRSH", "Fresh", "zymurgy is brewing science"))
    r = cli("--vault", example_vault.root, "search", "zymurgy", "--mode", "lexical")
    assert r.code == 0 and "notes/fresh.md" in r.out
    assert "reconciled first" in r.err


def test_an_epoch_an_older_curator_built_is_rebuilt_never_mixed(vault: GitVault, cli) -> None:
    import apsw

    vault.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    vault.commit()
    _index(cli, vault.root)
    old = _epoch_file(vault.root)
    conn = apsw.Connection(str(old))
    fp = json.loads(conn.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()[0])
    fp["normalisation"]["version"] = 1  # as an older Curator wrote it
    with conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'fingerprint'", (json.dumps(fp, sort_keys=True),))
    conn.close()
    vault.write("notes/gamma.md", "# Gamma\n\nNew words.\n")
    # a search brings the index up to date on the way: it leaves the old epoch alone and says so
    r = cli("--vault", vault.root, "search", "Gamma", "--mode", "lexical")
    assert "built by an older Curator (normalisation v1)" in r.err and "run `curator index`" in r.err
    assert _epoch_file(vault.root) == old
    # `curator index` builds a new epoch from scratch rather than writing into the old one
    report = _index(cli, vault.root)
    assert any("built by an older Curator (normalisation v1); built a new epoch" in w for w in report["warnings"])
    assert report["indexed"] == 3 and _epoch_file(vault.root) != old and not old.exists()


def test_a_second_indexer_says_at_once_that_it_waits_and_for_how_long(vault: GitVault) -> None:
    import subprocess
    import sys
    import time

    from curator.index.epoch import writer_lock
    from curator.locations import default_index_dir

    env = {**os.environ, "CURATOR_EMBEDDER": "none"}
    with writer_lock(default_index_dir(str(vault.root))):  # another indexer, at work
        proc = subprocess.Popen(
            [sys.executable, "-m", "curator", "--vault", str(vault.root), "index"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert proc.stderr is not None
        started = time.monotonic()
        line = proc.stderr.readline()
        waited = time.monotonic() - started
        assert line == (
            f"another curator (pid {os.getpid()}) is indexing this vault; waiting up to 60s for it to finish\n"
        )
        assert waited < 30 and proc.poll() is None  # said while it waits, not after the minute
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "2 indexed" in out


def test_a_note_with_far_more_passages_than_notes_have_is_named(vault: GitVault, cli) -> None:
    log = "\n\n".join(f"12:00:{i % 60:02d} INFO worker {i} handled request {i} in {i % 97} ms " * 20 for i in range(400))
    vault.write("logs/server.md", "# Server log\n\n" + log + "\n")
    book = "\n\n".join(f"## Chapter {i}\n\n" + ("A sentence of the chapter that goes on. " * 30) for i in range(250))
    vault.write("reading/book.md", "# A long book, well kept\n\n" + book + "\n")
    data = _index(cli, vault.root)
    warned = [w for w in data["warnings"] if "passages" in w]
    assert len(warned) == 1, data["warnings"]
    assert warned[0].startswith("logs/server.md makes 400 passages, 400 of them in one section with no heading")
    assert "notes.exclude" in warned[0] and "notes.max_bytes" in warned[0]
    again = _index(cli, vault.root)  # named when it is indexed, not on every run
    assert not [w for w in again["warnings"] if "passages" in w]


def test_a_batch_of_changed_notes_empties_them_all_before_writing_any(
    example_vault: GitVault, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An FTS5 delete between inserts of one transaction flushes the pending terms first, so a
    batch deletes every changed note's terms, then writes them all: one switch from deleting to
    inserting, not one per note (docs/benchmarks.md, scale_powershell.py)."""
    _index(cli, example_vault.root)
    notes = sorted(p for p in example_vault.root.rglob("*.md") if ".kp" not in p.parts)
    for p in notes:
        p.write_text(p.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    kinds: list[str] = []

    def trace(_cursor: apsw.Cursor, sql: str, _bindings: object) -> bool:
        if "passages_fts(" in sql.replace(" (", "(") or "FROM passages_fts WHERE rowid" in sql:
            kind = sql.split()[0].upper()
            if not kinds or kinds[-1] != kind:
                kinds.append(kind)
        return True

    monkeypatch.setattr(apsw, "connection_hooks", [*apsw.connection_hooks, lambda c: setattr(c, "exec_trace", trace)])
    again = _index(cli, example_vault.root)
    assert again["indexed"] == len(notes) > 20
    assert kinds == ["DELETE", "INSERT"], kinds[:8]
