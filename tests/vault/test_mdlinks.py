"""The linear markdown-link scanner finds exactly what the regular expression it replaces finds."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.vault import markdown, mdlinks
from tests.work import cpu_seconds, work_of

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


def _scan(line: str) -> None:
    list(mdlinks.find(line))
    markdown._without_comments(line)


@pytest.mark.parametrize("shape", ["[a](", "[a](b \"", "![", "[[x]", "<!--", "%%"])
def test_a_line_that_never_closes_costs_its_length_not_its_square(shape: str) -> None:
    """4x the input is at most about 4x the work (lines run, characters scanned); the square
    would be 16x. Work inside one C call (a regular expression backtracking) is not counted:
    CPU time backs it up, bounded 100x above the 20 ms the large line costs."""
    small, large = (work_of(lambda n=n: _scan(shape * n)).total for n in (5000, 20000))
    assert large <= 4.5 * small, (shape, small, large)
    assert cpu_seconds(lambda: _scan(shape * 20000)) < 2.0
