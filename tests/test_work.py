"""The work counter the cost tests rely on sees the two shapes of a quadratic scan."""

from __future__ import annotations

from curator.index import segment
from curator.vault import mdlinks
from tests.work import work_of


def test_searching_to_the_end_from_every_position_is_counted_as_the_square() -> None:
    text = "é" * 2000  # outside ASCII, so the script pattern reads it

    def again_and_again() -> None:
        for i in range(len(text)):
            segment.RUN_RE.search(text, i)  # a module-level pattern of Curator that never matches here

    work = work_of(again_and_again)
    # The loop is the test's: Curator's own lines are the lazy pattern's few per call.
    assert work.scanned == sum(range(1, 2001)) and work.lines <= 4 * len(text)


def test_lines_of_curator_s_code_are_counted_and_nothing_is_left_wrapped() -> None:
    small = work_of(lambda: list(mdlinks.find("[a](" * 100))).lines
    large = work_of(lambda: list(mdlinks.find("[a](" * 400))).lines
    assert 3.5 * small < large < 4.5 * small
    # The wrappers are gone once counting ends.
    assert type(mdlinks.PATTERN).__name__ == "Pattern" and type(segment.RUN_RE._compiled).__name__ == "Pattern"


def test_ascii_text_costs_a_script_pattern_no_scan() -> None:
    work = work_of(lambda: [segment.RUN_RE.search("x" * 2000, i) for i in range(100)])
    assert work.scanned == 0
