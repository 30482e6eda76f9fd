"""Crashes and concurrency: a killed rebuild or embedding run, readers beside a writer."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import apsw
import pytest

from tests.conftest import GitVault, run_process


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "CURATOR_EMBEDDER": "fake", **extra}


def _index_dir() -> Path:
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "curator"
    (current,) = list(cache.rglob("CURRENT"))
    return current.parent


def _spawn(*args: str | Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "curator", *map(str, args)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(predicate, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        time.sleep(0.05)


def _count(db: Path, sql: str) -> int:
    conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    conn.set_busy_timeout(5000)
    try:
        return int(conn.execute(sql).fetchone()[0])
    except apsw.SQLError:
        return 0
    finally:
        conn.close()


def test_kill_during_rebuild_leaves_the_serving_epoch_answering(example_vault: GitVault) -> None:
    example_vault.write(".kp/config.yaml", "embedder:\n  batch_size: 4\n")
    # The serving epoch is lexical-only, so the rebuild (to an embedder) has every passage to
    # embed: a rebuild with the serving epoch's own embedder would carry its vectors over and
    # swap before it could be killed.
    lexical = {**_env(), "CURATOR_EMBEDDER": "none"}
    assert run_process("--vault", example_vault.root, "index", env=lexical).returncode == 0
    index_dir = _index_dir()
    serving = (index_dir / "CURRENT").read_text()
    proc = _spawn("--vault", example_vault.root, "index", "rebuild", env=_env(CURATOR_FAKE_EMBED_DELAY="0.4"))
    epochs = index_dir / "epochs"
    _wait_for(lambda: len([p for p in epochs.glob("*.sqlite")]) == 2)
    time.sleep(1.0)
    assert proc.poll() is None, "the rebuild finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert (index_dir / "CURRENT").read_text() == serving
    r = run_process("--vault", example_vault.root, "--json", "search", "WAL checkpoints", env=lexical)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["hits"][0]["path"] == "sqlite/wal-mode.md"
    again = run_process("--vault", example_vault.root, "--json", "index", env=lexical)
    assert again.returncode == 0
    assert len(list(epochs.glob("*.sqlite"))) == 1  # the half-built epoch is cleared away


def test_kill_during_embedding_then_finish_only_what_is_missing(example_vault: GitVault) -> None:
    example_vault.write(".kp/config.yaml", "embedder:\n  batch_size: 4\n")
    proc = _spawn("--vault", example_vault.root, "index", env=_env(CURATOR_FAKE_EMBED_DELAY="0.3"))
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "curator"

    def some_embedded() -> bool:
        found = list(cache.rglob("CURRENT"))
        if not found:
            return False
        db = found[0].parent / "epochs" / found[0].read_text().strip()
        return _count(db, "SELECT count(*) FROM passages WHERE vec = 1") >= 8

    _wait_for(some_embedded)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    db = _index_dir() / "epochs" / (_index_dir() / "CURRENT").read_text().strip()
    done_before = _count(db, "SELECT count(*) FROM passages WHERE vec = 1")
    total = _count(db, "SELECT count(*) FROM passages")
    assert 0 < done_before < total
    # no note is complete while any of its passages lacks a vector
    assert (
        _count(
            db,
            "SELECT count(*) FROM documents d WHERE complete = 1 AND EXISTS "
            "(SELECT 1 FROM passages p WHERE p.doc_id = d.id AND p.vec = 0)",
        )
        == 0
    )
    # until then, lexical search finds everything
    r = run_process("--vault", example_vault.root, "--json", "search", "Halbwachs", "--mode", "lexical", env=_env())
    assert json.loads(r.stdout)["hits"][0]["path"] == "reading/mémoire-collective.md"
    report = json.loads(run_process("--vault", example_vault.root, "--json", "index", env=_env()).stdout)
    assert report["indexed"] == 0 and report["embedded"] == total - done_before
    assert _count(db, "SELECT count(*) FROM documents WHERE complete = 0") == 0


READER = """
import sys, json
from curator.commands.app import App
from curator.index.serving import open_serving
from curator.search.engine import Searcher
app = App(vault_arg=sys.argv[1])
errors = 0
for i in range(int(sys.argv[2])):
    opened = open_serving(*app.place(), refresh=False)
    s = Searcher(opened.conn, opened.epoch.id)
    for q in ("WAL mode", "getUserName", "why is the database locked", "passages"):
        s.search(q, k=5, mode="lexical")
    opened.conn.close()
print("ok")
"""


@pytest.mark.slow
def test_four_readers_while_the_indexer_writes(example_vault: GitVault) -> None:
    assert run_process("--vault", example_vault.root, "index", env=_env()).returncode == 0
    readers = [
        subprocess.Popen(
            [sys.executable, "-c", READER, str(example_vault.root), "60"],
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    for round_ in range(4):
        for p in sorted(example_vault.root.rglob("*.md"))[:20]:
            if ".kp" not in p.parts:
                p.write_text(p.read_text() + f"\nedit {round_}\n")
        w = run_process("--vault", example_vault.root, "index", env=_env())
        assert w.returncode == 0, w.stderr
    r = run_process("--vault", example_vault.root, "index", "rebuild", env=_env())
    assert r.returncode == 0, r.stderr
    for proc in readers:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0 and out.strip() == "ok", err
        assert "locked" not in err


@pytest.mark.parametrize(
    "query", ['"', "*", "NEAR", "-", ":", "foo:bar", '"unbalanced', "a AND", "(", "NOT x", "^", "col:*"]
)
def test_fts_syntax_in_queries_never_raises(example_vault: GitVault, cli, monkeypatch, query: str) -> None:
    """FTS5's operators are words like any other; a query of nothing but punctuation
    is a one-line usage error, not whatever the vector leg finds nearest to it."""
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    cli("--vault", example_vault.root, "index")
    r = cli("--vault", example_vault.root, "--json", "search", query)
    if any(c.isalnum() for c in query):
        assert r.code == 0, r
        assert "hits" in json.loads(r.out)
    else:
        assert r.code == 2 and r.err.strip() == "curator: the query has no words to search for", r
