"""The region rule, the review's diff and the patch engine judge a hunk at the one place it applies.

A hunk's header is the proposer's claim; the engine places the hunk where its lines match
(``hunks.place``). Over generated notes with a managed region somewhere and one-line edits
whose headers lie (any line number), the three must agree: KP004 exactly when the changed
line is inside the region, the diff view numbering that line where it really is and marking
it managed exactly then.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.diffview.model import build
from curator.diffview.rows import DELETED, HUNK
from curator.proposals.diff import parse
from curator.proposals.hunks import old_lines, place
from curator.proposals.manifest import Change
from curator.validator.rules import regions
from curator.validator.subject import ChangeView

PRODUCERS = ("curio",)


def _note(n: int, begin: int, end: int) -> list[str]:
    """``n`` distinct lines; a curio region from line ``begin`` to ``end`` (1-based, markers included)."""
    lines = [f"line {i}\n" for i in range(1, n + 1)]
    lines[begin - 1] = "<!-- curio:begin related -->\n"
    lines[end - 1] = "<!-- curio:end related -->\n"
    return lines


def _diff(lines: list[str], k: int, header: int) -> str:
    """A one-line edit of line ``k`` (with a line of context on each side) under a header at ``header``."""
    before, old, after = lines[k - 2], lines[k - 1], lines[k]
    return (
        "diff --git a/n.md b/n.md\n--- a/n.md\n+++ b/n.md\n"
        f"@@ -{header},3 +{header},3 @@\n {before}-{old}+changed {k}\n {after}"
    )


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_every_judge_puts_a_lying_hunk_where_it_applies(data: st.DataObject) -> None:
    n = data.draw(st.integers(12, 60), label="lines")
    begin = data.draw(st.integers(2, n - 4), label="begin")
    end = data.draw(st.integers(begin + 2, n - 1), label="end")
    lines = _note(n, begin, end)
    k = data.draw(
        st.integers(2, n - 1).filter(lambda i: i not in (begin, end) and i - 1 not in (begin, end)), label="edit"
    )
    # A header of 1 anchors the hunk at the file's start (git's rule, not a lie the engine
    # searches past): any other line is one the engine searches from.
    header = data.draw(st.integers(2, n - 2), label="header")
    text = "".join(lines)
    patch = parse(_diff(lines, k, header))[0]

    _post, placed = place(text, patch.hunks)  # the engine: where the hunk applies
    applied = old_lines(patch.hunks, placed)[0] + 1  # the edited line, below one line of context
    assert lines[applied - 1] == lines[k - 1]

    view = ChangeView(Change(op="modify", path="n.md", base_blob="0" * 40), patch=patch)
    view.base_bytes = view.current_bytes = text.encode()
    view.base_placed = view.current_placed = placed
    findings = list(regions._patched(view, PRODUCERS))  # the rule
    inside = begin < applied < end
    assert bool([f for f in findings if f.code == "KP004"]) == inside, (findings, applied, begin, end)
    assert all(f.line in (applied, applied + 1) for f in findings)  # the removed line, the added one after it

    rows = list(build([view], PRODUCERS).rows)  # the review's diff
    deleted = next(r for r in rows if r.kind == DELETED)
    assert deleted.old == applied and deleted.managed == inside
    hunk_row = next(r for r in rows if r.kind == HUNK)
    assert hunk_row.text.startswith(f"@@ -{applied - 1},3 ")
    if applied - 1 != header:
        assert f"its header says -{header}" in hunk_row.text
