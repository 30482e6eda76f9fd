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
TIE = 0.3
"""The share of a note's other matching sections added to its best passage's score."""
DECAY = 0.5
"""Each further section counts this share of the one before it (best first)."""
EVIDENCE = 3
"""The leg reads this many times its depth of passages, so a note's other sections are seen
before the list is cut back to its depth."""


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
    rows = ranking.bm25(conn, fts_query(terms), WEIGHTS, filters, EVIDENCE * depth)
    if not rows and asker is None:
        # A question of unknown language that no note holds as written: its words' stems in
        # each language of the index ("Konfigurationsdatei" finds "Konfigurationsdateien").
        wider = terms_for(conn, query, None, every=True)
        if wider != terms:
            rows = ranking.bm25(conn, fts_query(wider), WEIGHTS, filters, EVIDENCE * depth)
    if not rows:
        return leg
    best = -rows[0][1]
    leg.deeper = [(pid, -s) for pid, s in rows if best <= 0 or -s >= FLOOR * best]
    leg.ranked = leg.deeper[:depth]
    return leg


def rank_notes(conn: apsw.Connection, leg: Leg, depth: int) -> None:
    """Where words alone rank the results (lexical search, or a hybrid one without vectors), rank
    each note by its best passage and its other matching sections (``by_note``): one slot a note
    is shown. Not in a hybrid search: fused with the vector leg's passages, the notes' sections
    lowered hybrid's first hits on the help set (multilingual-e5-small hit@1 0.73 → 0.69,
    all-MiniLM-L6-v2 lower still in Korean) while lexical search's rose (0.54 → 0.66)."""
    if leg.deeper:
        leg.ranked = by_note(leg.deeper, ranking.sections_of(conn, [pid for pid, _ in leg.deeper]))[:depth]


def by_note(ranked: list[tuple[int, float]], sections: dict[int, tuple[int, str]]) -> list[tuple[int, float]]:
    """``ranked`` with each note's best passage scored for the whole note: its own score plus
    ``TIE`` of its note's other matching sections, each ``DECAY`` of the one before (a
    DisMax-style tie-breaker). One slot a note is shown, so a page that answers the question in
    several sections comes before one that mentions its words in one. The pieces of one long
    section (one breadcrumb) count as one: where a section is cut is not evidence (SciFact's
    abstracts, cut at blank lines, are ranked as before)."""
    counted: set[tuple[int, str]] = set()
    others: dict[int, list[float]] = {}
    best: dict[int, int] = {}
    for pid, score in ranked:
        doc, crumb = sections.get(pid, (-pid, ""))
        if doc not in best:
            best[doc] = pid
            counted.add((doc, crumb))
        elif (doc, crumb) not in counted:
            counted.add((doc, crumb))
            others.setdefault(doc, []).append(score)
    out = []
    for pid, score in ranked:
        doc = sections.get(pid, (-pid, ""))[0]
        if best[doc] == pid:
            score += TIE * sum(s * DECAY**i for i, s in enumerate(others.get(doc, ())))
        out.append((pid, score))
    out.sort(key=lambda t: -t[1])
    return out


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
