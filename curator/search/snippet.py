"""A short window of a passage around the query's words."""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from curator.index.normalise import fold, query_terms
from curator.index.segment import RUN_RE
from curator.vault.links import display

WIDTH = 220
_SPACE = re.compile(r"\s+")


@lru_cache(maxsize=64)
def _pattern(query: str) -> re.Pattern[str] | None:
    """What a snippet of ``query`` centres on, worked out once a query rather than once a hit
    (a search cuts ten snippets, kp_search twenty): the words as typed (a stem may not be a
    prefix of what the text holds), cut to a prefix so inflected forms are found, and runs of
    unspaced scripts as they are; None when it has none."""
    terms = [t[:6] for t in query_terms(query, mode="fold") if len(t) > 2 and not RUN_RE.search(t)]
    terms += RUN_RE.findall(query)
    if not terms:
        return None
    return re.compile("|".join(re.escape(fold(t)) for t in sorted(set(terms), key=len, reverse=True)))


def snippet(text: str, query: str) -> str:
    """Up to WIDTH characters of ``text`` around the query's words, links shown as their text."""

    flat = _SPACE.sub(" ", display(text)).strip()
    if len(flat) <= WIDTH:
        return flat
    pattern = _pattern(query)
    hay = (flat if flat.isascii() else fold(flat)).lower()
    best = 0
    if pattern is not None and len(hay) == len(flat):
        spots = [m.start() for m in pattern.finditer(hay)]
        if spots:
            best_hits = -1
            for p in spots:
                start = max(0, min(p - 30, len(flat) - WIDTH))
                hits = bisect.bisect_left(spots, start + WIDTH) - bisect.bisect_left(spots, start)
                if hits > best_hits:
                    best, best_hits = start, hits
    cut = flat[best : best + WIDTH]
    if best > 0:
        cut = "…" + cut.split(" ", 1)[-1]
    if best + WIDTH < len(flat):
        cut = cut.rsplit(" ", 1)[0] + "…"
    return cut
