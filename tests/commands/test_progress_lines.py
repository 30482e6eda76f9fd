"""Progress where stderr is not a terminal: a log under nohup or cron gets a line a minute."""

from __future__ import annotations

import pytest

from curator.commands import index


def test_a_step_says_how_far_it_is_once_a_minute(capsys: pytest.CaptureFixture[str]) -> None:
    t = [100.0]
    update = index.progress_lines(now=lambda: t[0])
    update("embedding", 0, 6000)  # the step starts
    for done in range(100, 6000, 100):  # a batch every 5 seconds
        t[0] += 5.0
        update("embedding", done, 6000)
    update("embedding", 6000, 6000)  # the last batch: the run's summary says the rest
    lines = capsys.readouterr().err.splitlines()
    # 59 batches over 295 s: a line at 60, 120, 180 and 240 s
    assert len(lines) == 4, lines
    assert lines[0] == "embedding: 1200/6000 passages, 20.0/s, about 4 min left"
    assert lines[-1].startswith("embedding: 4800/6000 passages, 20.0/s, about 60s left")


def test_a_short_step_says_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    t = [0.0]
    update = index.progress_lines(now=lambda: t[0])
    for done in range(0, index.SHOWN, 10):
        t[0] += 10.0
        update("reading notes (2 workers)", done, index.SHOWN - 1)
    assert capsys.readouterr().err == ""


def test_a_redirected_index_gets_lines_and_a_terminal_a_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stderr.isatty", lambda: False)
    with index.progress_bar(True) as progress:
        assert progress is not None and progress.__name__ == "update"
        assert progress.__qualname__.startswith("progress_lines")
    with index.progress_bar(False) as progress:  # --json, --quiet
        assert progress is None
