"""One-hop neighbours of a note, weighted by how rare what they share is.

Two notes are neighbours when both link to the same note (or source item), or when one
note links to both. Counting such shared notes lets a hub decide: when Home links to
every project, each project gets every other as a neighbour, all "1 shared". So each
shared note counts by how rare it is, as a word counts in a search by its inverse
document frequency: a note that ``d`` of the ``N`` documents link to (or that links to
``d`` of them) weighs ``ln(N / d)``, and a neighbour weighs what it shares. A note linked
from everything weighs nothing; a neighbour weighing less than ``ln 2`` (all it shares
is linked with more than half the vault, or links to it) is not listed. The shared notes
are kept, rarest first, so ``relate`` can say why each neighbour is there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import apsw

from curator.index import db

BOTH_LINK_TO = "both link to"
"""This note and the neighbour link to the shared note."""
LINKS_TO_BOTH = "links to both"
"""The shared note links to this note and the neighbour."""
LEAST_WEIGHT = math.log(2)
"""What a neighbour must share at least: one note that half the vault does not."""


@dataclass(frozen=True)
class Via:
    """One shared note: why a neighbour is one."""

    path: str
    title: str
    how: str
    """``both link to`` or ``links to both``."""
    degree: int
    """How many notes link to it (``both link to``), or how many it links to (``links to both``)."""
    weight: float


@dataclass(frozen=True)
class Neighbour:
    path: str
    kp_id: str | None
    title: str
    shared: int
    """How many notes it shares with this one."""
    weight: float = 0.0
    """The sum of the shared notes' weights: what neighbours are ranked by."""
    via: list[Via] = field(default_factory=list)
    """The shared notes, rarest first."""


# (neighbour, shared note, how, the shared note's degree). Links are counted once per pair
# of documents, however often a note repeats a link.
_SHARED = """
WITH mine AS (SELECT DISTINCT dst AS z FROM links WHERE src = ?1 AND dst IS NOT NULL AND dst != ?1),
linking_me AS (SELECT DISTINCT src AS z FROM links WHERE dst = ?1 AND src != ?1),
indegree AS (
    SELECT l.dst AS z, count(DISTINCT l.src) AS n FROM links l JOIN mine ON l.dst = mine.z
    WHERE l.src != l.dst GROUP BY l.dst
),
outdegree AS (
    SELECT l.src AS z, count(DISTINCT l.dst) AS n FROM links l JOIN linking_me ON l.src = linking_me.z
    WHERE l.dst IS NOT NULL AND l.dst != l.src GROUP BY l.src
)
SELECT DISTINCT l.src, l.dst, 'to', indegree.n FROM links l JOIN indegree ON l.dst = indegree.z
WHERE l.src != ?1 AND l.src != l.dst
UNION ALL
SELECT DISTINCT l.dst, l.src, 'from', outdegree.n FROM links l JOIN outdegree ON l.src = outdegree.z
WHERE l.dst IS NOT NULL AND l.dst != ?1 AND l.dst != l.src
"""


def of(conn: apsw.Connection, doc_id: int, limit: int = 20) -> list[Neighbour]:
    """The notes that share linked notes with ``doc_id``, best first (weight, then path),
    leaving out the notes it links to or is linked from (those are its links)."""
    documents = db.count(conn, "SELECT count(*) FROM documents")
    direct = {
        int(r[0])
        for r in conn.execute(
            "SELECT dst FROM links WHERE src = ?1 AND dst IS NOT NULL UNION SELECT src FROM links WHERE dst = ?1",
            (doc_id,),
        )
    }
    shared: dict[int, dict[tuple[int, str], int]] = {}
    for other, z, how, degree in conn.execute(_SHARED, (doc_id,)):
        if other == doc_id or other in direct:
            continue
        shared.setdefault(int(other), {})[(int(z), BOTH_LINK_TO if how == "to" else LINKS_TO_BOTH)] = int(degree)
    if not shared:
        return []
    ids = {i for i in shared} | {z for via in shared.values() for z, _ in via}
    docs = _documents(conn, ids)
    ranked: list[Neighbour] = []
    for other, found in shared.items():
        weights = {key: math.log(max(documents, degree) / degree) for key, degree in found.items()}
        raw = math.fsum(weights.values())
        if raw < LEAST_WEIGHT - 1e-12:
            continue  # it shares only notes most of the vault shares: that says nothing
        via = [Via(docs[z][0], docs[z][2], how, found[(z, how)], round(weights[(z, how)], 4)) for (z, how) in found]
        via.sort(key=lambda v: (-v.weight, v.path, v.how))
        path, kp_id, title = docs[other]
        ranked.append(Neighbour(path, kp_id, title, len(via), round(raw, 4), via))
    ranked.sort(key=lambda n: (-n.weight, n.path))
    return ranked[:limit]


def _documents(conn: apsw.Connection, ids: set[int]) -> dict[int, tuple[str, str | None, str]]:
    out: dict[int, tuple[str, str | None, str]] = {}
    ordered = sorted(ids)
    for start in range(0, len(ordered), 500):  # SQLite's bound-parameter limit, with room
        chunk = ordered[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for doc_id, path, kp_id, title in conn.execute(
            f"SELECT id, path, kp_id, title FROM documents WHERE id IN ({marks})", chunk
        ):
            out[int(doc_id)] = (str(path), kp_id, str(title))
    return out


def reason(via: Sequence[Mapping[str, Any]], shown: int = 2) -> str:
    """Why a neighbour is one, in words, from its ``via`` (as JSON gives it): the rarest
    shared notes, then how many more."""
    said = [_shared(v) + _degree(v) for v in via[:shown]]
    more = len(via) - shown
    return "; ".join(said) + (f"; and {more} more" if more > 0 else "")


def _shared(v: Mapping[str, Any]) -> str:
    """``both link to X`` or ``X links to both``: the shared note named where it is the subject."""
    return f"{v['path']} {LINKS_TO_BOTH}" if v["how"] == LINKS_TO_BOTH else f"{v['how']} {v['path']}"


def _degree(v: Mapping[str, Any]) -> str:
    if v["degree"] <= 2:
        return ""  # only these two: nothing to weigh
    return f" (linked from {v['degree']} notes)" if v["how"] == BOTH_LINK_TO else f" (it links {v['degree']} notes)"
