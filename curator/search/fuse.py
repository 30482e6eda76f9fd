"""Reciprocal-rank fusion and maximal marginal relevance.

Fused by rank, never by raw score: a cosine and a BM25 score share no scale,
so what wins is agreement between the legs.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Mapping, Sequence

from curator.search.filters import Leg

RRF_K = 60


def rrf(legs: Sequence[Leg], boost: Mapping[int, float] | None = None) -> list[tuple[int, float]]:
    """Passages by the sum of 1 / (k + rank) over the legs, each leg's share multiplied by the
    passage's ``boost`` (a passage of a note in the question's language: ``search.asker``)."""
    scores: dict[int, float] = {}
    boost = boost or {}
    for leg in legs:
        for rank, (pid, _score) in enumerate(leg.ranked, start=1):
            scores[pid] = scores.get(pid, 0.0) + boost.get(pid, 1.0) / (RRF_K + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def keep_agreement(fused: list[tuple[int, float]], base: Sequence[Leg]) -> list[tuple[int, float]]:
    """``fused`` reordered as little as possible so that no hit sits below one that every
    leg of ``base`` (lexical and vector) ranks lower: the link leg may lift a neighbour
    among hits the two legs disagree on, never over one they both prefer.

    A hit goes out in fused order once every hit that dominates it (ranked higher by each
    base leg) has gone out. Scores keep their fused values, so they may no longer descend.
    """
    if len(base) < 2 or len(fused) < 2:
        return fused
    ranks = [{pid: r for r, (pid, _s) in enumerate(leg.ranked)} for leg in base]
    missing = max(len(leg.ranked) for leg in base) + 1
    places = [tuple(t.get(pid, missing) for t in ranks) for pid, _ in fused]
    n = len(fused)
    # below[a]: the hits a dominates; blockers[b]: how many hits dominate b.
    below: list[list[int]] = [[] for _ in range(n)]
    blockers = [0] * n
    for a in range(n):
        pa = places[a]
        for b in range(n):
            if a != b and all(x < y for x, y in zip(pa, places[b], strict=True)):
                below[a].append(b)
                blockers[b] += 1
    out: list[tuple[int, float]] = []
    done = [False] * n
    start = 0
    for _ in range(n):
        i = start
        while done[i] or blockers[i]:
            i += 1  # domination is a strict partial order: some hit is always free
        done[i] = True
        out.append(fused[i])
        for b in below[i]:
            blockers[b] -= 1
        while start < n and done[start]:
            start += 1
    return out


def cosine(a: bytes, b: bytes) -> float:
    n = len(a) // 4
    va, vb = struct.unpack(f"{n}f", a), struct.unpack(f"{n}f", b)
    dot = sum(x * y for x, y in zip(va, vb, strict=True))
    na = math.sqrt(sum(x * x for x in va)) or 1.0
    nb = math.sqrt(sum(y * y for y in vb)) or 1.0
    return float(dot / (na * nb))


def mmr(
    fused: list[tuple[int, float]], k: int, similarity: Callable[[int, int], float], lam: float = 0.7
) -> list[tuple[int, float]]:
    """Pick k from ``fused`` trading relevance against similarity to what is already picked."""
    if not fused:
        return []
    top = fused[0][1] or 1.0
    pool = [(pid, score / top) for pid, score in fused]
    chosen: list[tuple[int, float]] = []
    originals = dict(fused)
    while pool and len(chosen) < k:

        def value(item: tuple[int, float]) -> float:
            pid, rel = item
            penalty = max((similarity(pid, c) for c, _ in chosen), default=0.0)
            return lam * rel - (1 - lam) * penalty

        best = max(pool, key=lambda item: (value(item), -item[0]))
        pool.remove(best)
        chosen.append((best[0], originals[best[0]]))
    return chosen
