"""Scoring: the numpy path and the pure-Python one agree; decay is the contract's formula."""

from __future__ import annotations

import math
import random
import struct
import sys

import pytest

from curator.librarian import scoring


def _vec(rng: random.Random, dims: int = 16) -> bytes:
    return struct.pack(f"{dims}f", *(rng.uniform(-1, 1) for _ in range(dims)))


def test_numpy_and_pure_python_give_the_same_cosines(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    notes = {doc: [_vec(rng) for _ in range(rng.randint(1, 6))] for doc in range(40)}
    notes[99] = [struct.pack("16f", *([0.0] * 16))]  # a zero vector has no direction: similarity 0
    anchor = scoring.mean_unit([_vec(rng), _vec(rng)])
    assert anchor is not None
    fast = scoring.cosine_similarities(notes, anchor)
    monkeypatch.setitem(sys.modules, "numpy", None)  # as in the base install
    slow = scoring.cosine_similarities(notes, anchor)
    assert fast.keys() == slow.keys() and fast[99] == slow[99] == 0.0
    for doc in notes:
        assert fast[doc] == pytest.approx(slow[doc], abs=1e-12)
    assert sorted(fast, key=fast.__getitem__) == sorted(slow, key=slow.__getitem__)


def test_decay_is_exp_of_minus_age_over_the_half_life() -> None:
    assert scoring.decay(0, 14) == 1.0
    assert scoring.decay(14, 14) == pytest.approx(math.exp(-1))
    assert scoring.decay(7, 14) > scoring.decay(8, 14)


def test_bm25_similarities_are_scaled_by_the_best() -> None:
    assert scoring.bm25_similarities({1: 4.0, 2: 2.0}) == {1: 1.0, 2: 0.5}
    assert scoring.bm25_similarities({}) == {}
