"""Copies: notes that hold a passage word for word (the same page kept in each version of a docs
tree, a paragraph pasted into a few notes) stand as one passage in each leg, so they take one
place in fusion and one slot in the results; the notes of the others are listed under that hit
(``Hit.copies``).

Two passages are copies when their bodies hash alike (``index.boilerplate.body_hash``: the
letters, case folded, without marks, digits or link targets). The copy a leg meets first stands
for them all, in every leg, so fusion sees one passage and each leg gives it its best place.
A copy keeps its score; boilerplate (a passage that five notes or more under other titles
repeat: a footer) is collapsed here too, then ranked at half weight by ``search.boilerplate``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import apsw

from curator.index import reading
from curator.search.filters import Leg


def collapse(
    conn: apsw.Connection, legs: Sequence[Leg], preferred: Callable[[int], bool] | None = None
) -> dict[int, list[int]]:
    """Each group of copies in ``legs`` left as one passage, in place: the first the legs meet
    that ``preferred`` takes (a copy in the question's language), else the first; returns that
    passage → the copies found in other notes, in the order the legs met them. A leg read
    deeper than its list (``Leg.deeper``) is collapsed there first and its list cut again at
    the same length, so the copies leave room for other passages."""
    pids = list(dict.fromkeys(pid for leg in legs for pid, _ in (leg.deeper or leg.ranked)))
    bodies = reading.note_body_hashes(conn, pids)
    if not bodies:
        return {}
    count: dict[str, int] = {}
    for _doc, body in bodies.values():
        count[body] = count.get(body, 0) + 1
    group = {pid: body for pid, (_doc, body) in bodies.items() if count[body] > 1}
    if not group:
        return {}
    first: dict[str, int] = {}
    for pid in pids:
        copy_of = group.get(pid)
        if copy_of is not None and (
            copy_of not in first or (preferred is not None and not preferred(first[copy_of]) and preferred(pid))
        ):
            first[copy_of] = pid
    copies: dict[int, list[int]] = {}
    for pid in pids:
        if pid in group:
            lead = first[group[pid]]
            if lead != pid and bodies[pid][0] != bodies[lead][0]:
                copies.setdefault(lead, []).append(pid)
    for leg in legs:
        if leg.deeper:
            length = len(leg.ranked)
            leg.deeper = _one_each(leg.deeper, group, first)
            leg.ranked = leg.deeper[:length]
        else:
            leg.ranked = _one_each(leg.ranked, group, first)
    return copies


def _one_each(ranked: list[tuple[int, float]], group: dict[int, str], first: dict[str, int]) -> list[tuple[int, float]]:
    seen: set[str] = set()
    out = []
    for pid, score in ranked:
        body = group.get(pid)
        if body is None:
            out.append((pid, score))
        elif body not in seen:
            seen.add(body)
            out.append((first[body], score))
    return out
