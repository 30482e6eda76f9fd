"""Wrapping a diff's lines: the breaks put back together are the line, each line fits, and the
layout (worked out from plain text for every row) agrees with what is drawn."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from curator.diffview import wrap
from curator.diffview.lines import Lines
from curator.diffview.model import build
from curator.diffview.richtext import Renderer
from curator.proposals.diff import parse
from curator.proposals.manifest import Change
from curator.validator.subject import ChangeView

WORDS = st.sampled_from(["a", "word", "Brandywine", "  ", " ", "東京", "😀", "tab\t", "x" * 30, "␛", "é"])
TEXT = st.lists(WORDS, max_size=40).map("".join)


def _pieces(text: str, width: int) -> list[str]:
    cuts = [0, *wrap.breaks(text, width), len(text)]
    return [text[a:b] for a, b in itertools.pairwise(cuts)]


@given(TEXT, st.integers(min_value=1, max_value=60))
def test_the_pieces_are_the_line_and_each_fits(text: str, width: int) -> None:
    text = text.replace("\t", " ")  # rows are made visible before they wrap: no tabs
    pieces = _pieces(text, width)
    assert "".join(pieces) == text
    assert wrap.count(text, width) == len(pieces)
    for piece in pieces:
        assert (piece or not text) and (cell_len(piece) <= width or len(piece) == 1)


def test_a_line_breaks_after_the_last_space_that_fits() -> None:
    assert _pieces("the last in October, Blue Beech.", 20) == ["the last in ", "October, Blue Beech."]
    assert _pieces("abcdefghij", 4) == ["abcd", "efgh", "ij"]
    assert _pieces("東京東京東京", 5) == ["東京", "東京", "東京"]
    assert wrap.breaks("fits", 4) == []


def _model(old_lines: list[str], new_lines: list[str]):  # type: ignore[no-untyped-def]
    old = "".join(x + "\n" for x in old_lines)
    diff = (
        "diff --git a/n.md b/n.md\n--- a/n.md\n+++ b/n.md\n"
        f"@@ -1,{len(old_lines)} +1,{len(new_lines)} @@\n"
        + "".join("-" + x + "\n" for x in old_lines)
        + "".join("+" + x + "\n" for x in new_lines)
    )
    view = ChangeView(Change(op="modify", path="n.md", base_blob="0" * 40), patch=parse(diff)[0])
    view.base_bytes = old.encode()
    return build([view])


LINE = st.lists(st.sampled_from(["word", "Blue", "東京", "\x1b[31m", "x" * 25, " "]), min_size=1, max_size=30).map(
    "".join
)


@settings(max_examples=40, deadline=None)
@given(st.lists(LINE, min_size=1, max_size=4), st.lists(LINE, min_size=1, max_size=4), st.integers(20, 120))
def test_the_layout_agrees_with_what_is_drawn(old: list[str], new: list[str], width: int) -> None:
    model = _model(old, new)
    renderer = Renderer(model)
    for split in (False, True):
        lines = Lines(model, renderer, split=split, wrapped=True, width=width)
        assert lines.height == sum(lines.lines_of(i) for i in range(lines.count))
        for item in range(lines.count):
            drawn = lines.draw(item)
            assert len(drawn) == lines.lines_of(item)
            assert all(line.cell_len <= width for line in drawn), (item, [x.plain for x in drawn])
            assert lines.at(lines.y_of(item)) == (item, 0)
        for i in range(len(model.rows)):
            if model.rows[i].kind in ("file", "hunk", "note"):
                assert renderer.header_plain(i) == renderer.unified(i).plain
            else:
                assert model.rows.text(i) == model.rows[i].text
