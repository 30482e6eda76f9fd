"""Embedding pending passages: in batches, resumable, never marking a note complete early.

Each batch is its own transaction, so a crash loses at most one batch of work and
the next run picks up the passages still pending. A document is complete only
when none of its passages is pending.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import apsw

from curator.embedders.base import Embedder, InputRefused
from curator.errors import EmbedderError, IndexError_
from curator.index import db
from curator.index.db import VEC_DONE, VEC_PENDING, VEC_REJECTED, VEC_SECRET
from curator.index.outcome import EmbedResult
from curator.index.writer import text_hash
from curator.leaks import find_secrets, secrets_by_span

WINDOW = 16
"""Batches read at a time, to be regrouped by length."""
RATE_FROM = 16
"""Passages embedded in one run before its rate is recorded: a few say little about the rest."""


def _where(conn: apsw.Connection, pid: int) -> tuple[str, int]:
    row = conn.execute(
        "SELECT d.path, p.start_line FROM passages p JOIN documents d ON d.id = p.doc_id WHERE p.id = ?", (pid,)
    ).fetchone()
    return (row[0], row[1]) if row else ("?", 0)


def _settle(conn: apsw.Connection, doc_ids: set[int]) -> None:
    for doc_id in doc_ids:
        conn.execute(
            "UPDATE documents SET complete = NOT EXISTS (SELECT 1 FROM passages WHERE doc_id = ? AND vec = 0) WHERE id = ?",
            (doc_id, doc_id),
        )


def _embed_batch(
    conn: apsw.Connection, embedder: Embedder, batch: list[tuple[int, int, str]], result: EmbedResult
) -> None:
    """One request and one transaction: a crash loses at most this batch."""
    try:
        vectors = embedder.embed([t for _, _, t in batch])
    except InputRefused as e:
        with conn:
            for pid, _doc, _ in batch:
                conn.execute("UPDATE passages SET vec = ?, note = ? WHERE id = ?", (VEC_REJECTED, e.detail[:200], pid))
                path, line = _where(conn, pid)
                result.rejected.append((path, line, f"HTTP {e.status}"))
            _settle(conn, {d for _, d, _ in batch})
        return
    with conn:
        for (pid, _doc_id, _), vec in zip(batch, vectors, strict=True):
            conn.execute("INSERT OR REPLACE INTO passages_vec(rowid, embedding) VALUES (?, ?)", (pid, vec))
            conn.execute("UPDATE passages SET vec = ? WHERE id = ?", (VEC_DONE, pid))
        _settle(conn, {d for _, d, _ in batch})
    result.embedded += len(batch)


def _secrets(conn: apsw.Connection, doc_ids: set[int]) -> dict[int, list[str]]:
    """Kinds of secret in each passage of these documents, each note scanned whole: a passage
    inside a private key block is withheld although the ``BEGIN`` line is in another passage."""

    found: dict[int, list[str]] = {}
    for doc_id in sorted(doc_ids):
        rows = db.rows(
            conn, "SELECT id, start_line, end_line, breadcrumb, text FROM passages WHERE doc_id = ? ORDER BY seq", (doc_id,)
        )
        kinds = secrets_by_span([(start, end, text) for _, start, end, _, text in rows])
        for (pid, _s, _e, crumb, _t), passage_kinds in zip(rows, kinds, strict=True):
            every = sorted({*passage_kinds, *find_secrets(crumb)})
            if every:
                found[pid] = every
    return found


def carry_over(conn: apsw.Connection, previous: str, fingerprint: dict[str, object]) -> int:
    """Give pending passages the vectors the previous epoch (the file at ``previous``) holds
    for the same text under the same embedder; returns how many passages got one.

    A new epoch (another normalisation, a rebuild) mostly holds passages whose text did not
    change: re-embedding them would cost the local model minutes to hours for the same
    numbers. The key is a hash of the exact text fed to the model, worked out afresh on both
    sides from the stored breadcrumb and body (never trusting a stored hash an older Curator
    may have computed otherwise), and only when the previous epoch's embedder fingerprint
    (provider, model, dims, runtime) is the new one's: vectors of two numeric paths are never
    mixed. A previous epoch that cannot be read gives nothing, and everything is embedded."""

    if not db.has_vectors(conn):
        return 0
    wanted: dict[str, list[tuple[int, int]]] = {}
    for pid, doc_id, crumb, text in conn.execute(
        "SELECT id, doc_id, breadcrumb, text FROM passages WHERE vec = ?", (VEC_PENDING,)
    ):
        wanted.setdefault(text_hash(f"{crumb}\n{text}"), []).append((pid, doc_id))
    if not wanted:
        return 0
    try:
        old = db.connect(previous, readonly=True)
    except (apsw.Error, IndexError_):
        return 0
    carried = 0
    try:
        fp = db.get_json(old, "fingerprint")
        if not isinstance(fp, dict) or fp.get("embedder") != fingerprint or not db.has_vectors(old):
            return 0
        found: dict[str, int] = {}
        for old_id, crumb, text in old.execute("SELECT id, breadcrumb, text FROM passages WHERE vec = ?", (VEC_DONE,)):
            h = text_hash(f"{crumb}\n{text}")
            if h in wanted and h not in found:
                found[h] = old_id
        hashes = list(found)
        for i in range(0, len(hashes), CARRY_BATCH):
            docs: set[int] = set()
            n = 0
            with conn:
                for h in hashes[i : i + CARRY_BATCH]:
                    row = old.execute("SELECT embedding FROM passages_vec WHERE rowid = ?", (found[h],)).fetchone()
                    if row is None:
                        continue
                    for pid, doc_id in wanted[h]:
                        conn.execute(
                            "INSERT OR REPLACE INTO passages_vec(rowid, embedding) VALUES (?, ?)", (pid, row[0])
                        )
                        conn.execute("UPDATE passages SET vec = ? WHERE id = ?", (VEC_DONE, pid))
                        docs.add(doc_id)
                        n += 1
                _settle(conn, docs)
            carried += n
    except apsw.Error:
        pass  # a damaged previous epoch: whatever was not carried is embedded
    finally:
        old.close()
    return carried


CARRY_BATCH = 512
"""Vectors carried over a transaction."""


def embed_pending(
    conn: apsw.Connection, embedder: Embedder, batch_size: int, progress: Callable[[int], None] | None = None
) -> EmbedResult:
    result = EmbedResult()
    if not db.has_vectors(conn):
        return result
    scan = embedder.remote
    last_id = 0
    calls0, tokens0 = embedder.usage()
    started, timed = time.perf_counter(), 0
    try:
        while True:
            rows = db.rows(
                conn,
                "SELECT id, doc_id, breadcrumb, text FROM passages WHERE vec = ? AND id > ? ORDER BY id LIMIT ?",
                (VEC_PENDING, last_id, batch_size * WINDOW),
            )
            if not rows:
                break
            last_id = rows[-1][0]
            todo = []
            secrets = _secrets(conn, {doc_id for _, doc_id, _, _ in rows}) if scan else {}
            with conn:
                for pid, doc_id, crumb, text in rows:
                    kinds = secrets.get(pid, [])
                    if kinds:
                        conn.execute(
                            "UPDATE passages SET vec = ?, note = ? WHERE id = ?", (VEC_SECRET, ", ".join(kinds), pid)
                        )
                        path, line = _where(conn, pid)
                        result.withheld.append((path, line, ", ".join(kinds)))
                        _settle(conn, {doc_id})
                    else:
                        todo.append((pid, doc_id, f"{crumb}\n{text}"))
            # A batch is padded to its longest text: batches of like lengths embed a docs
            # tree's passages about 1.6 times faster than batches in file order.
            todo.sort(key=lambda row: len(row[2]))
            for i in range(0, len(todo), batch_size):
                batch = todo[i : i + batch_size]
                _embed_batch(conn, embedder, batch, result)
                timed += len(batch)
                if progress:
                    progress(len(batch))
    except EmbedderError as e:
        result.error = str(e)
    finally:
        seconds = time.perf_counter() - started
        if timed >= RATE_FROM and seconds > 0:
            # what `curator status` estimates the time left from
            with conn:
                db.set_meta(conn, "embed_rate", f"{timed / seconds:.2f}")
        calls, tokens = embedder.usage()
        if calls - calls0 or tokens - tokens0:
            with conn:
                usage = json.loads(db.get_meta(conn, "remote_usage") or '{"calls": 0, "tokens": 0}')
                usage["calls"] += calls - calls0
                usage["tokens"] += tokens - tokens0
                db.set_meta(conn, "remote_usage", json.dumps(usage))
    return result
