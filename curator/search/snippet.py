"""A short window of a passage around the query's words."""

from __future__ import annotations

import re

from curator.index.normalise import fold, query_terms

WIDTH = 220


def snippet(text: str, query: str) -> str:
    flat = re.sub(r"\s+", " ", text).strip()
    if len(flat) <= WIDTH:
        return flat
    terms = [fold(t) for t in query_terms(query) if len(t) > 2]
    hay = fold(flat).lower()
    best, best_hits = 0, -1
    for start in range(0, max(1, len(flat) - WIDTH + 1), 40):
        window = hay[start : start + WIDTH]
        hits = sum(window.count(t[:6]) for t in terms)
        if hits > best_hits:
            best, best_hits = start, hits
    cut = flat[best : best + WIDTH]
    if best > 0:
        cut = "…" + cut.split(" ", 1)[-1]
    if best + WIDTH < len(flat):
        cut = cut.rsplit(" ", 1)[0] + "…"
    return cut
