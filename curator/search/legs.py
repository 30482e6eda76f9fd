"""The ranked lists: BM25 over FTS5, vectors over sqlite-vec, link neighbours."""

from __future__ import annotations

import apsw

from curator.index.normalise import fts_query, query_terms
from curator.search.filters import Filters, Leg

FLOOR = 0.05
"""Lexical hits under this share of the best lexical score leave the pool."""
WEIGHTS = (1.5, 1.0, 0.5)
"""bm25() column weights: breadcrumb (title and headings), body, identifier sub-words."""


def lexical(conn: apsw.Connection, query: str, filters: Filters, depth: int) -> Leg:
    leg = Leg("lexical")
    terms = query_terms(query)
    if not terms:
        return leg
    sql = f"SELECT rowid, bm25(passages_fts, {', '.join(map(str, WEIGHTS))}) AS s FROM passages_fts WHERE passages_fts MATCH ?"
    params: list[object] = [fts_query(terms)]
    if filters.active:
        inner, extra = filters.passage_ids_sql()
        sql += f" AND rowid IN ({inner})"
        params += extra
    sql += " ORDER BY s LIMIT ?"
    params.append(depth)
    rows = conn.execute(sql, params).fetchall()
    if not rows:
        return leg
    best = -rows[0][1]
    leg.ranked = [(pid, -s) for pid, s in rows if best <= 0 or -s >= FLOOR * best]
    return leg


def vector(conn: apsw.Connection, query_vec: bytes, filters: Filters, depth: int) -> Leg:
    leg = Leg("vector")
    if filters.active:
        inner, params = filters.passage_ids_sql()
        rows = conn.execute(
            f"SELECT rowid, vec_distance_cosine(embedding, ?) AS dist FROM passages_vec WHERE rowid IN ({inner}) "
            "ORDER BY dist LIMIT ?",
            [query_vec, *params, depth],
        ).fetchall()
    else:
        rows = conn.execute(
            "SELECT rowid, distance FROM passages_vec WHERE embedding MATCH ? AND k = ? ORDER BY distance",
            (query_vec, depth),
        ).fetchall()
    # A query with no content embeds to a zero vector: no distance, no ranking.
    leg.ranked = [(pid, 1.0 - dist) for pid, dist in rows if dist is not None]
    return leg


def links(conn: apsw.Connection, seeds: list[int], filters: Filters, query: str, depth: int) -> Leg:
    """Notes one link away from the top hits, ranked by how many of them point there."""
    leg = Leg("links")
    if not seeds:
        return leg
    marks = ",".join("?" * len(seeds))
    seed_docs = [r[0] for r in conn.execute(f"SELECT DISTINCT doc_id FROM passages WHERE id IN ({marks})", seeds)]
    if not seed_docs:
        return leg
    dmarks = ",".join("?" * len(seed_docs))
    cond, params = filters.sql()
    rows = conn.execute(
        f"""
        SELECT n.doc, count(*) AS c FROM (
            SELECT dst AS doc FROM links WHERE src IN ({dmarks}) AND dst IS NOT NULL
            UNION ALL
            SELECT src AS doc FROM links WHERE dst IN ({dmarks})
        ) n JOIN documents d ON d.id = n.doc
        WHERE n.doc NOT IN ({dmarks}) AND {cond}
        GROUP BY n.doc ORDER BY c DESC, n.doc LIMIT ?
        """,
        [*seed_docs, *seed_docs, *seed_docs, *params, depth],
    ).fetchall()
    terms = query_terms(query)
    for doc_id, count in rows:
        # The neighbour's passage that best matches the query, else its first.
        best = None
        if terms:
            best = conn.execute(
                "SELECT f.rowid FROM passages_fts f JOIN passages p ON p.id = f.rowid "
                "WHERE passages_fts MATCH ? AND p.doc_id = ? ORDER BY bm25(passages_fts) LIMIT 1",
                (fts_query(terms), doc_id),
            ).fetchone()
        if best is None:
            best = conn.execute("SELECT id FROM passages WHERE doc_id = ? ORDER BY seq LIMIT 1", (doc_id,)).fetchone()
        if best is not None:
            leg.ranked.append((best[0], float(count)))
    return leg
