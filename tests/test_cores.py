"""How many threads Curator takes: the cores free now, not a minute ago."""

from __future__ import annotations

import itertools
import os

import pytest

from curator import cores


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cores, "_last", None)
    monkeypatch.delenv("CURATOR_THREADS", raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.setattr(cores, "available", lambda: 2)
    monkeypatch.setattr(cores, "SAMPLE_GAP", 0.0)


def test_a_load_average_left_by_an_earlier_run_does_not_take_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    # The previous `curator index` left a one-minute load of 1.3; nothing else runs now.
    monkeypatch.setattr(cores.os, "getloadavg", lambda: (1.3, 0.8, 0.4))
    monkeypatch.setattr(cores, "_runnable", lambda: 1)
    assert cores.threads() == 2


def test_a_process_holding_a_core_now_takes_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cores.os, "getloadavg", lambda: (0.1, 0.1, 0.1))
    monkeypatch.setattr(cores, "_runnable", lambda: 2)
    assert cores.threads() == 1


def test_a_task_seen_in_one_sample_only_is_not_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = itertools.chain([3], itertools.repeat(1))
    monkeypatch.setattr(cores, "_runnable", lambda: next(seen))
    assert cores.busy_elsewhere() == 0.0


def test_without_proc_the_load_average_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cores, "_runnable", lambda: None)
    monkeypatch.setattr(cores.os, "getloadavg", lambda: (1.6, 1.0, 1.0))
    assert cores.threads() == 1


def test_the_kernel_count_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    n = cores._runnable()
    if os.path.exists("/proc/stat"):
        assert n is not None and n >= 1  # this test itself is running
    else:
        assert n is None
