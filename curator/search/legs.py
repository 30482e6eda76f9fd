"""The ranked lists: BM25 over FTS5, vectors over sqlite-vec, link neighbours."""

from __future__ import annotations

import apsw

from curator.index import language, ranking
from curator.index.db import get_json
from curator.index.normalise import fts_query, query_terms
from curator.index.segment import RUN_RE
from curator.search.filters import Filters, Leg

FLOOR = 0.05
"""Lexical hits under this share of the best lexical score leave the pool."""
WEIGHTS = (1.5, 1.0, 0.5)
"""bm25() column weights: breadcrumb (title and headings), body, identifier sub-words."""


def terms_for(
    conn: apsw.Connection, query: str, asker: str | None = None, every: bool = False, maybe: tuple[str, ...] = ()
) -> list[str]:
    """The query's terms as this epoch indexed words: its notes' languages, its normalisation;
    stemmed in the question's language ``asker`` when it is known (``every``: in each; ``maybe``:
    in each of the languages it may be in, when it is not known)."""

    mode = (get_json(conn, "fingerprint") or {}).get("normalisation", {}).get("mode", "fold+stem")
    return query_terms(query, language.of_index(conn), mode, asker, every, maybe)


def words_of(query: str) -> list[str]:
    """The question's own words, lower-cased, without stop words or runs of unspaced scripts."""
    return [t for t in query_terms(query, mode="fold") if not RUN_RE.search(t)]


def lexical(
    conn: apsw.Connection,
    query: str,
    filters: Filters,
    depth: int,
    asker: str | None = None,
    maybe: tuple[str, ...] = (),
) -> Leg:
    leg = Leg("lexical")
    terms = terms_for(conn, query, asker, maybe=maybe)
    if not terms:
        return leg
    rows = ranking.bm25(conn, fts_query(terms), WEIGHTS, filters, depth)
    if not rows and asker is None:
        # A question of unknown language that no note holds as written: its words' stems in
        # each language of the index ("Konfigurationsdatei" finds "Konfigurationsdateien").
        wider = terms_for(conn, query, None, every=True)
        if wider != terms:
            rows = ranking.bm25(conn, fts_query(wider), WEIGHTS, filters, depth)
    if not rows:
        return leg
    best = -rows[0][1]
    leg.ranked = [(pid, -s) for pid, s in rows if best <= 0 or -s >= FLOOR * best]
    return leg


def vector(conn: apsw.Connection, query_vec: bytes, filters: Filters, depth: int) -> Leg:
    leg = Leg("vector")
    rows = ranking.nearest(conn, query_vec, filters, depth)
    # A query with no content embeds to a zero vector: no distance, no ranking.
    leg.ranked = [(pid, 1.0 - dist) for pid, dist in rows if dist is not None]
    return leg


def links(
    conn: apsw.Connection, seeds: list[int], filters: Filters, query: str, depth: int, asker: str | None = None
) -> Leg:
    """Notes one link away from the top hits, ranked by how many of them point there."""
    leg = Leg("links")
    terms = terms_for(conn, query, asker)
    match = fts_query(terms) if terms else None
    for doc_id, count in ranking.linked_documents(conn, seeds, filters, depth):
        # The neighbour's passage that best matches the query, else its first.
        best = ranking.best_passage(conn, doc_id, match)
        if best is not None:
            leg.ranked.append((best, float(count)))
    return leg
