"""What the librarian reads from an epoch, beside ``curator.index.reading``.

Every document with its frontmatter, tags, first sighting and vector count in
one pass; the stored vectors of many documents' passages at once; each
document's best passage BM25 for a set of terms. Single passages, fingerprints
and the rest come from ``reading``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import apsw

from curator.index import db, sightings
from curator.index.db import VEC_DONE
from curator.index.normalise import fts_query


@dataclass(frozen=True)
class Record:
    id: int
    source: str
    path: str
    kp_id: str | None
    title: str
    meta: dict[str, Any]
    """The note's frontmatter as the index stored it (dates as text)."""
    tags: tuple[str, ...]
    """Casefolded, in the note's order."""
    seen: str | None
    """When the index first saw it (UTC ISO-8601), if it recorded that."""
    passages: int = 0
    vectors: int = 0
    """How many of its passages have a vector."""


def records(conn: apsw.Connection) -> list[Record]:
    """Every document in the epoch, ordered by (source, path)."""
    tags: dict[int, list[str]] = {}
    for doc_id, tag in conn.execute("SELECT doc_id, tag FROM tags ORDER BY rowid"):
        tags.setdefault(doc_id, []).append(tag)
    counts = {
        doc_id: (n, v)
        for doc_id, n, v in conn.execute(
            "SELECT doc_id, count(*), sum(vec = ?) FROM passages GROUP BY doc_id", (VEC_DONE,)
        )
    }
    seen = sightings.read(conn)
    out = []
    for doc_id, source, path, kp_id, title, meta in conn.execute(
        "SELECT id, source, path, kp_id, title, meta FROM documents ORDER BY source, path"
    ):
        try:
            parsed = json.loads(meta) if meta else {}
        except ValueError:
            parsed = {}
        n, v = counts.get(doc_id, (0, 0))
        out.append(
            Record(
                doc_id,
                source,
                path,
                kp_id,
                title,
                parsed if isinstance(parsed, dict) else {},
                tuple(tags.get(doc_id, ())),
                seen.get((source, path)),
                n,
                v or 0,
            )
        )
    return out


def passage_vectors(conn: apsw.Connection, doc_ids: Iterable[int]) -> dict[int, list[bytes]]:
    """The stored vectors of each document's passages, in passage order (documents without any left out)."""
    wanted = set(doc_ids)
    out: dict[int, list[bytes]] = {}
    if not wanted or not db.has_vectors(conn):
        return out
    total = db.count(conn, "SELECT count(*) FROM documents") or 1
    if len(wanted) * 8 < total:
        # A few documents: looked up one by one through the passages index.
        for doc_id in sorted(wanted):
            rows = db.rows(
                conn,
                "SELECT v.embedding FROM passages p JOIN passages_vec v ON v.rowid = p.id "
                "WHERE p.doc_id = ? AND p.vec = ? ORDER BY p.seq",
                (doc_id, VEC_DONE),
            )
            if rows:
                out[doc_id] = [bytes(r[0]) for r in rows]
        return out
    # Many: one pass over every passage with a vector, in id order, which the writer hands
    # out in passage order within a document (so nothing is sorted).
    for doc_id, emb in conn.execute(
        "SELECT p.doc_id, v.embedding FROM passages p JOIN passages_vec v ON v.rowid = p.id "
        "WHERE p.vec = ? ORDER BY p.id",
        (VEC_DONE,),
    ):
        if doc_id in wanted:
            out.setdefault(int(doc_id), []).append(bytes(emb))
    return out


def vectors_by_hash(conn: apsw.Connection, doc_id: int) -> dict[str, bytes]:
    """The stored vectors of one document's passages, by the passage's content hash."""
    if not db.has_vectors(conn):
        return {}
    return {
        str(h): bytes(v)
        for h, v in db.rows(
            conn,
            "SELECT p.hash, v.embedding FROM passages p JOIN passages_vec v ON v.rowid = p.id "
            "WHERE p.doc_id = ? AND p.vec = ?",
            (doc_id, VEC_DONE),
        )
    }


def best_bm25(
    conn: apsw.Connection, terms: list[str], weights: tuple[float, ...], doc_ids: Iterable[int]
) -> dict[int, float]:
    """Each document's best passage BM25 for ``terms`` ORed (higher is better, column
    ``weights`` as search uses them); documents with no matching passage left out.

    One grouped query: a now.md of a few dozen terms matches most passages of a large
    vault, and reading every match back into Python cost more than scoring them."""
    wanted = set(doc_ids)
    if not terms or not wanted:
        return {}
    w = ", ".join(map(str, weights))
    rows = conn.execute(
        f"WITH m AS MATERIALIZED (SELECT rowid AS pid, -bm25(passages_fts, {w}) AS s FROM passages_fts "
        "WHERE passages_fts MATCH ?) SELECT p.doc_id, max(m.s) FROM m JOIN passages p ON p.id = m.pid GROUP BY p.doc_id",
        (fts_query(terms),),
    )
    return {int(doc_id): float(s) for doc_id, s in rows if doc_id in wanted}
