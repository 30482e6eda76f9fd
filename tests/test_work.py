"""The work counter the cost tests rely on sees the two shapes of a quadratic scan."""

from __future__ import annotations

from curator.index import segment
from curator.vault import mdlinks
from tests.work import work_of


def test_searching_to_the_end_from_every_position_is_counted_as_the_square() -> None:
    text = "x" * 2000

    def again_and_again() -> None:
        for i in range(len(text)):
            segment.RUN_RE.search(text, i)  # a module-level pattern of Curator that never matches here

    work = work_of(again_and_again)
    assert work.scanned == sum(range(1, 2001)) and work.lines == 0  # the loop is the test's, not Curator's


def test_lines_of_curator_s_code_are_counted_and_nothing_is_left_wrapped() -> None:
    small = work_of(lambda: list(mdlinks.find("[a](" * 100))).lines
    large = work_of(lambda: list(mdlinks.find("[a](" * 400))).lines
    assert 3.5 * small < large < 4.5 * small
    assert type(segment.RUN_RE).__name__ == "Pattern"  # the wrapper is gone once counting ends
