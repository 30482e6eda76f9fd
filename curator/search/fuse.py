"""Reciprocal-rank fusion and maximal marginal relevance.

Fused by rank, never by raw score: a cosine and a BM25 score share no scale,
so what wins is agreement between the legs.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence

from curator.search.filters import Leg

RRF_K = 60


def rrf(legs: Sequence[Leg]) -> list[tuple[int, float]]:
    scores: dict[int, float] = {}
    for leg in legs:
        for rank, (pid, _score) in enumerate(leg.ranked, start=1):
            scores[pid] = scores.get(pid, 0.0) + 1.0 / (RRF_K + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def cosine(a: bytes, b: bytes) -> float:
    n = len(a) // 4
    va, vb = struct.unpack(f"{n}f", a), struct.unpack(f"{n}f", b)
    dot = sum(x * y for x, y in zip(va, vb, strict=True))
    na = math.sqrt(sum(x * x for x in va)) or 1.0
    nb = math.sqrt(sum(y * y for y in vb)) or 1.0
    return dot / (na * nb)


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
