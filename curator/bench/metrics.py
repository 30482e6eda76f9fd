"""nDCG@k and recall@k as BEIR computes them (pytrec_eval: linear gains)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence


def ndcg_at(ranked: Sequence[str], relevant: Mapping[str, int], k: int = 10) -> float:
    dcg = sum(relevant.get(doc, 0) / math.log2(i + 2) for i, doc in enumerate(ranked[:k]))
    ideal = sorted((g for g in relevant.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: Sequence[str], relevant: Mapping[str, int], k: int = 100) -> float:
    wanted = {d for d, g in relevant.items() if g > 0}
    if not wanted:
        return 0.0
    return len(wanted & set(ranked[:k])) / len(wanted)


def percentile(values: Sequence[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[idx]
