"""Scoring candidates: closeness to ``now.md`` times an exponential decay with age.

score = similarity × exp(−age / half-life), age in days from the clock to the
note's creation. The similarity is, in order of preference:

- ``cosine``, calibrated: the cosine between the note's vector and now.md's, each
  the mean of its passages' stored vectors from the serving epoch, normalised to
  unit length (now.md is embedded with the epoch's own recorded model when the
  index does not hold it), placed on the vault's own scale: relevance =
  exp((cosine − top) / spread), where top is the highest cosine among the vault's
  notes and spread their standard deviation (``Calibration``). A model's raw
  cosines need not spread: multilingual-e5-small puts every note of a vault between
  0.76 and 0.92, so a raw cosine barely moved the product and age decided. On the
  vault's scale a note one standard deviation closer to now.md weighs as much as
  one half-life younger, whatever the model's range (the scale is the same for any
  cosines shifted or stretched alike); the top only sets where relevance is 1.
- ``bm25``: when the epoch has no vectors (embedder ``none``), a candidate's
  vectors are not all there yet (the embedder is down) or now.md cannot be
  embedded: the note's best passage BM25 for now.md's terms, divided by the
  best candidate's, so it lies in [0, 1].
- ``recency``: without now.md, or with an empty one, every similarity is 1.

Ties go to the newer note, then to the path.
"""

from __future__ import annotations

import datetime as dt
import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass

from curator import clock
from curator.librarian.candidates import Candidate

COSINE, BM25, RECENCY = "cosine", "bm25", "recency"


POPULATION = 1000
"""Notes at most whose cosines calibrate a digest (the candidates, then a sample of the rest)."""


@dataclass(frozen=True)
class Calibration:
    """The vault's own scale of closeness to now.md, from its notes' cosines."""

    notes: int
    """How many notes' cosines it was measured on."""
    top: float
    """The highest cosine: where relevance is 1."""
    spread: float
    """The cosines' standard deviation: how far below the top relevance falls by 1/e."""

    def relevance(self, cosine: float) -> float:
        if self.spread <= 1e-9:
            return 1.0  # every note as close as the next: nothing to tell them apart by
        return min(1.0, math.exp((cosine - self.top) / self.spread))


def calibration(cosines: Sequence[float]) -> Calibration | None:
    """The scale ``cosines`` (of the vault's notes) set; None for none."""
    if not cosines:
        return None
    mean = math.fsum(cosines) / len(cosines)
    spread = math.sqrt(math.fsum((c - mean) ** 2 for c in cosines) / len(cosines))
    return Calibration(len(cosines), max(cosines), spread)


def sample(ids: Sequence[int], size: int) -> list[int]:
    """At most ``size`` of ``ids`` (sorted), spread evenly over them: the same ones every run."""
    ordered = sorted(ids)
    if size <= 0:
        return []
    if len(ordered) <= size:
        return ordered
    step = len(ordered) / size
    return [ordered[int(i * step)] for i in range(size)]


@dataclass(frozen=True)
class Method:
    kind: str
    """cosine, bm25 or recency."""
    embedder: str
    """The serving epoch's embedder, as ``provider:model/dims`` or ``none``."""
    half_life_days: float
    k: int
    why: str | None = None
    """Why the similarity is not cosine, in words for the digest and the terminal."""
    calibration: Calibration | None = None
    """The vault's scale the cosines were placed on (cosine only)."""


@dataclass(frozen=True)
class Scored:
    candidate: Candidate
    similarity: float | None
    """None when ranking by recency alone; for cosine, the calibrated relevance."""
    decay: float
    age_days: float
    cosine: float | None = None
    """The raw cosine to now.md, when the similarity is a calibrated one."""

    @property
    def score(self) -> float:
        return self.decay if self.similarity is None else self.similarity * self.decay


def decay(age_days: float, half_life_days: float) -> float:
    return math.exp(-age_days / half_life_days)


def mean_unit(vectors: Sequence[bytes]) -> list[float] | None:
    """The mean of float32 vectors, scaled to unit length; None for no vectors or a zero mean."""
    if not vectors:
        return None
    try:
        import numpy as np
    except ImportError:  # the base install has no numpy: the same sums, in Python
        rows = [struct.unpack(f"{len(v) // 4}f", v) for v in vectors]
        mean = [math.fsum(col) / len(rows) for col in zip(*rows, strict=True)]
    else:
        matrix = np.frombuffer(b"".join(vectors), dtype="<f4").reshape(len(vectors), -1).astype(np.float64)
        mean = matrix.mean(axis=0).tolist()
    norm = math.sqrt(math.fsum(x * x for x in mean))
    if norm == 0.0:
        return None
    return [x / norm for x in mean]


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    return math.fsum(x * y for x, y in zip(a, b, strict=True))


def score_all(
    candidates: list[Candidate],
    similarity: dict[int, float] | None,
    now: dt.datetime,
    half_life_days: float,
    scale: Calibration | None = None,
) -> list[Scored]:
    """Scored and ranked candidates; ``similarity`` by document id (missing: 0), None for recency;
    with ``scale``, each similarity is a cosine placed on it."""
    out = []
    for c in candidates:
        age = clock.age_days(now, c.created)
        raw = None if similarity is None else similarity.get(c.doc.id, 0.0)
        if scale is not None and raw is not None:
            out.append(Scored(c, scale.relevance(raw), decay(age, half_life_days), age, raw))
        else:
            out.append(Scored(c, raw, decay(age, half_life_days), age))
    return rank(out)


def rank(scored: list[Scored]) -> list[Scored]:
    def key(s: Scored) -> tuple[float, float, str, str]:
        return (-s.score, -s.candidate.created.timestamp(), s.candidate.doc.source, s.candidate.doc.path)

    return sorted(scored, key=key)


def cosine_similarities(notes: dict[int, list[bytes]], anchor: list[float]) -> dict[int, float]:
    """Cosine between each note's normalised mean passage vector and ``anchor`` (a unit vector)."""
    try:
        import numpy as np
    except ImportError:
        out = {}
        for doc_id, vectors in notes.items():
            v = mean_unit(vectors)
            out[doc_id] = 0.0 if v is None else dot(v, anchor)
        return out
    ids = sorted(notes)
    if not ids:
        return {}
    # Every note at once: one matrix of all passage vectors, summed note by note. The sum
    # points where the mean does, so its cosine is the same.
    counts = np.array([len(notes[i]) for i in ids])
    matrix = np.frombuffer(b"".join(v for i in ids for v in notes[i]), dtype="<f4")
    matrix = matrix.reshape(int(counts.sum()), -1).astype(np.float64)
    sums = np.add.reduceat(matrix, np.concatenate(([0], np.cumsum(counts)[:-1])), axis=0)
    norms = np.linalg.norm(sums, axis=1)
    dots = sums @ np.asarray(anchor, dtype=np.float64)
    sims = np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)
    return {doc_id: float(s) for doc_id, s in zip(ids, sims.tolist(), strict=True)}


def bm25_similarities(best: dict[int, float]) -> dict[int, float]:
    top = max(best.values(), default=0.0)
    if top <= 0.0:
        return {}
    return {doc_id: s / top for doc_id, s in best.items()}
