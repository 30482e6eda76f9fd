"""Keeping boilerplate (a passage many notes repeat: ``curator.index.boilerplate``) from crowding
a ranked list, in each leg before fusion.

In a leg, the copies of one boilerplate passage stand as one: the copy ranked best keeps its
place for them all (the same copy in every leg, so fusion sees one passage) and the others
leave the list. That one is down-weighted: it is ranked as if its score were ``WEIGHT`` of
what it is, so a passage that says something comes first unless the query really is about
the boilerplate (then its score is far above the rest, and one copy is still found).
"""

from __future__ import annotations

from collections.abc import Sequence

import apsw

from curator.index import boilerplate
from curator.search.filters import Leg

WEIGHT = 0.5
"""A boilerplate passage ranks as if it scored this share of its score."""
LEGS = ("lexical", "vector")


def _weighed(score: float) -> float:
    return score - (1.0 - WEIGHT) * abs(score)  # a cosine may be negative: lowered, never raised


def damp(conn: apsw.Connection, legs: Sequence[Leg]) -> None:
    """Collapse and down-weight boilerplate in the lexical and vector legs, in place."""
    legs = [leg for leg in legs if leg.name in LEGS and leg.ranked]
    if not legs:
        return
    group = boilerplate.groups(conn, (pid for leg in legs for pid, _ in leg.ranked))
    if not group:
        return
    chosen: dict[str, int] = {}  # body hash → the copy that stands for it in every leg
    for leg in legs:
        for pid, _ in leg.ranked:
            if pid in group:
                chosen.setdefault(group[pid], pid)
    for leg in legs:
        seen: set[str] = set()
        kept: list[tuple[float, int, int, float]] = []
        for place, (pid, score) in enumerate(leg.ranked):
            g = group.get(pid)
            if g is None:
                kept.append((score, place, pid, score))
            elif g not in seen:
                seen.add(g)
                kept.append((_weighed(score), place, chosen[g], score))
        kept.sort(key=lambda t: (-t[0], t[1]))
        leg.ranked = [(pid, score) for _key, _place, pid, score in kept]
