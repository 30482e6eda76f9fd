"""Rows made on first access are the rows an eager pass over every hunk line makes.

The reference below is the straightforward build (every row up front, pairing
runs as it walks the lines); the model must agree with it row for row, in any
order the rows are asked for.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.diffview.model import build
from curator.diffview.richtext import gutter_width
from curator.diffview.rows import ADDED, CONTEXT, DELETED, FILE, HUNK, Row
from curator.diffview.visible import visible_line
from curator.proposals.diff import FilePatch, Hunk
from curator.proposals.hunks import split_lines
from curator.proposals.manifest import Change
from curator.validator.subject import ChangeView
from curator.vault import regions as regions_mod

PRODUCERS = ("curio",)
LINES = st.sampled_from(
    [
        "plain\n",
        "tab\there\n",
        "esc \x1b[31mred\n",
        "<!-- curio:begin summary -->\n",
        "<!-- curio:end summary -->\n",
        "<!-- other:begin x -->\n",
        "\u202eevil\n",
        "no newline",
        "\n",
    ]
)


def _eager(hunks: list[Hunk], pre: str | None, first: int) -> list[Row]:
    """Every row of one modified file's hunks, made at once (the build before rows were lazy)."""
    regions = regions_mod.find(split_lines(pre), PRODUCERS)[0] if pre else []

    def inside(n: int) -> bool:
        return regions_mod.line_in_regions(n, regions) is not None

    def marker(raw: str) -> bool:
        return regions_mod.marker_on(raw, PRODUCERS) is not None

    rows: list[Row] = []
    for number, h in enumerate(hunks, start=1):
        old_no = h.old_start if h.old_len else h.old_start + 1
        new_no = h.new_start if h.new_len else h.new_start + 1
        counted = f"  hunk {number} of {len(hunks)}" if len(hunks) > 1 else ""
        rows.append(Row(HUNK, f"@@ -{h.old_start},{h.old_len} +{h.new_start},{h.new_len} @@{counted}"))
        dels: list[int] = []
        adds: list[int] = []

        def pair_up(dels: list[int], adds: list[int]) -> None:
            for d, a in zip(dels, adds, strict=False):
                rows[d].pair, rows[a].pair = first + a, first + d
            dels.clear()
            adds.clear()

        for kind, raw in h.lines:
            text = visible_line(raw)
            if kind == " ":
                pair_up(dels, adds)
                rows.append(Row(CONTEXT, text, old_no, new_no, inside(old_no)))
                old_no, new_no = old_no + 1, new_no + 1
            elif kind == "-":
                if adds:
                    pair_up(dels, adds)
                dels.append(len(rows))
                rows.append(Row(DELETED, text, old_no, None, inside(old_no) or marker(raw)))
                old_no += 1
            else:
                adds.append(len(rows))
                between = any(r.start_line <= old_no - 1 < r.end_line for r in regions)
                rows.append(Row(ADDED, text, None, new_no, between or marker(raw)))
                new_no += 1
        pair_up(dels, adds)
    return rows


@st.composite
def _hunks(draw: st.DrawFn) -> list[Hunk]:
    out = []
    at = draw(st.integers(0, 5))
    for _ in range(draw(st.integers(1, 3))):
        lines = draw(st.lists(st.tuples(st.sampled_from(" -+"), LINES), min_size=1, max_size=30))
        old_len = sum(k != "+" for k, _ in lines)
        new_len = sum(k != "-" for k, _ in lines)
        out.append(Hunk(at, old_len, at + draw(st.integers(0, 3)), new_len, lines))
        at += old_len + draw(st.integers(1, 4))
    return out


@settings(max_examples=40, deadline=None)
@given(_hunks(), st.lists(LINES, max_size=40), st.data())
def test_lazy_rows_match_the_eager_build(hunks: list[Hunk], pre_lines: list[str], data: st.DataObject) -> None:
    pre = "".join(pre_lines)
    view = ChangeView(
        Change(op="modify", path="notes/a.md", base_blob="0" * 40),
        patch=FilePatch("notes/a.md", "notes/a.md", "", 1, hunks),
        base_bytes=pre.encode(),
    )
    model = build([view], PRODUCERS)
    first = 1  # the file header comes first
    expected = [Row(FILE, "notes/a.md (modified)"), *_eager(hunks, pre, first)]
    # Ask for the rows in a random order: each row stands on its own.
    order = data.draw(st.permutations(range(len(expected))))
    got = {i: model.rows[i] for i in order}
    assert len(model.rows) == len(expected)
    for i, want in enumerate(expected):
        row = got[i]
        assert (row.kind, row.text, row.old, row.new, row.managed, row.pair) == (
            want.kind,
            want.text,
            want.old,
            want.new,
            want.managed,
            want.pair,
        ), i
        assert model.rows[i] is row
    assert model.rows.kinds() == [r.kind for r in expected]
    assert model.stops == [i for i, r in enumerate(expected) if r.kind in (FILE, HUNK)]
    top = max(max(r.old or 0, r.new or 0) for r in expected)
    assert gutter_width(model) >= len(str(top)) and model.top_line >= top
    assert model.widest >= max(len(r.text) for r in expected if "\u202e" not in r.text and "\t" not in r.text)
