"""The linear markdown-link scanner finds exactly what the regular expression it replaces finds."""

from __future__ import annotations

import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.vault import markdown, mdlinks

REFERENCE = re.compile(r"(!?)\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\(\s*(?:<([^<>\n]+)>|([^)\s]+))(?:\s+[\"'(][^)]*)?\s*\)")
COMMENTS = re.compile(r"%%.*?%%|<!--.*?-->", re.DOTALL)
PIECES = ["[", "]", "(", ")", "!", "a", " ", "<", ">", '"', "'", "\n", "\t", "](", "[a](", "\u3000", "![", "<b>"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_the_scanner_agrees_with_the_expression(text: str) -> None:
    want = [(m.start(), m.end(), m.group(1), m.group(2), m.group(3), m.group(4)) for m in REFERENCE.finditer(text)]
    for found in (mdlinks.scan(text), mdlinks.find(text)):
        assert [(m.start, m.end, m.bang, m.label, m.angled, m.plain) for m in found] == want


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(["%", "%%", "<!--", "-->", "<", "!", "-", "a", "\n", ">"]), max_size=30).map("".join))
def test_comments_come_out_as_the_expression_takes_them_out(text: str) -> None:
    assert markdown._without_comments(text) == COMMENTS.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def _best_of_three(line: str) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        list(mdlinks.find(line))
        markdown._without_comments(line)
        best = min(best, time.perf_counter() - started)
    return best


def test_a_line_that_never_closes_costs_its_length_not_its_square() -> None:
    """4x the input costs about 4x the time (the square would be 16x); a floor of 20 ms keeps
    a loaded machine's noise on tiny times out of the ratio."""
    for shape in ("[a](", "[a](b \"", "![", "[[x]", "<!--", "%%"):
        small, large = _best_of_three(shape * 5000), _best_of_three(shape * 20000)
        assert large < 10 * max(small, 0.02), (shape, small, large)
