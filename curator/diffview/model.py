"""A proposal's changes as display rows: file headers, hunk headers and lines with numbers.

Rows are made when first looked at. ``build`` only lays out where each file
and hunk starts and the kind of each line (a pass over the hunks' line kinds);
``DiffModel.rows[i]`` works out row i's visible text, line numbers, pairing and
managed-region mark on first use and keeps it. A 5,000-line change costs the
rows of its first screen, not 10,000 rows made up front (making every row was
most of the diff pane's first screen: ``benchmarks/review_ui.py``). Styling,
word highlights and syntax colours are the renderers' work, also per visible
row. Managed-region lines are marked here, so a reviewer sees why KP004 fires.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from curator.diffview.rows import FILE, NOTE, Created, Fixed, HunkPart, Part, Regions, Row, Rows
from curator.diffview.visible import visible
from curator.proposals.hunks import Placed, old_lines, split_lines

if TYPE_CHECKING:
    from curator.proposals.diff import Hunk
    from curator.proposals.manifest import Op
    from curator.validator.subject import ChangeView, Drift

@dataclass(slots=True)
class FileInfo:
    op: Op
    path: str
    """Made visible."""
    drift: Drift | None
    first_row: int
    syntax: str | None = None
    """A created note's full text (for markdown highlighting), when it is shown whole."""


@dataclass
class DiffModel:
    rows: Rows
    files: list[FileInfo]
    stops: list[int]
    """Rows that n/p jump between: file and hunk headers."""
    widest: int
    """Cells of the longest line, as far as can be told without making every row (at least that)."""
    top_line: int
    """The largest line number shown (for the gutter's width)."""


def _header(view: ChangeView) -> str:
    c = view.change
    what = {"create": "new note", "delete": "deleted", "modify": "modified"}.get(c.op, c.op)
    return f"{visible(c.path)} ({what})"


def _longest(lines: Iterable[str]) -> int:
    """The longest line's length, its line ending left out."""
    return max((len(t) - t.endswith("\n") for t in lines), default=0)


class _Layout:
    def __init__(self, producers: Sequence[str]) -> None:
        self.producers = tuple(producers)
        self.parts: list[Part] = []
        self.stops: list[int] = []
        self.size = 0
        self.widest = 0
        self.top = 0

    def add(self, part: Part) -> None:
        self.parts.append(part)
        self.size += len(part)

    def fixed(self, file: int, *rows: Row) -> None:
        if self.parts and isinstance(self.parts[-1], Fixed) and self.parts[-1].file == file:
            self.parts[-1].rows.extend(rows)
            self.size += len(rows)
        else:
            self.add(Fixed(self.size, file, list(rows)))
        self.widest = max(self.widest, *(len(r.text) for r in rows))

    def hunks(self, file: int, hunks: Sequence[Hunk], regions: Regions, placed: Sequence[Placed]) -> None:
        """``placed``: where each hunk applies (empty when it applies nowhere): its lines are
        numbered from there, and a header that says otherwise is shown as what it claimed."""
        starts = old_lines(hunks, placed) if placed else None
        for n, h in enumerate(hunks):
            self.stops.append(self.size)
            kinds = "".join(kind for kind, _ in h.lines)
            if starts is not None:
                old_base, new_base = starts[n], placed[n].at + 1
            else:
                old_base = h.old_start if h.old_len else h.old_start + 1
                new_base = h.new_start if h.new_len else h.new_start + 1
            part = HunkPart(
                self.size, file, h, kinds, old_base, new_base, regions, self.producers, n + 1, len(hunks)
            )
            self.add(part)
            # Raw lengths: visible text differs only where tabs or control characters are
            # (the pane widens itself when it draws a longer row).
            self.widest = max(self.widest, _longest(t for _, t in h.lines))
            if len(hunks) > 1:  # the header's number ("hunk 2 of 3") can make it the longest row
                self.widest = max(self.widest, len(part.row(0).text))
            self.top = max(self.top, h.old_start + h.old_len, h.new_start + h.new_len)

    def created(self, file: int, lines: list[str]) -> None:
        self.add(Created(self.size, file, lines, self.producers))
        self.widest = max(self.widest, _longest(lines))
        self.top = max(self.top, len(lines))


def _applied(view: ChangeView) -> tuple[Sequence[Placed], str | None]:
    """Where the hunks apply and the text they apply to: the work tree's file (what apply
    writes), else the base; the header's own numbers only when they apply to neither."""
    assert view.patch is not None
    n = len(view.patch.hunks)
    for placed, raw in ((view.current_placed, view.current_bytes), (view.base_placed, view.base_bytes)):
        if raw is not None and len(placed) == n and n:
            try:
                return placed, raw.decode("utf-8")
            except UnicodeDecodeError:
                continue
    return (), view.pre_text


def build(
    changes: Sequence[ChangeView], producers: Sequence[str] = (), *, more: int = 0, drift: bool = True
) -> DiffModel:
    """Rows for every change of a proposal, in the proposal's order (made as they are looked at).

    ``more``: changes not given yet (still being read); a last row says how many. ``drift``:
    False for a decided proposal, whose files have none to show (applied, its change is in the
    vault, which it would "conflict" with; rejected or superseded, it never will be)."""
    layout = _Layout(producers)
    files: list[FileInfo] = []
    for n, view in enumerate(changes):
        c = view.change
        info = FileInfo(c.op, visible(c.path), view.drift if drift else None, layout.size)
        files.append(info)
        layout.stops.append(layout.size)
        layout.fixed(n, Row(FILE, _header(view), file=n))
        if not view.readable:
            layout.fixed(n, Row(NOTE, "not shown: the path is not a safe vault path (see the findings)", file=n))
            continue
        if c.op == "create":
            text = view.post_text
            if text is None:
                what = "missing from files/" if view.new_bytes is None else "binary or not UTF-8"
                layout.fixed(n, Row(NOTE, f"not shown: the new file is {what} (see the findings)", file=n))
                continue
            lines = split_lines(text)
            info.syntax = text
            layout.fixed(n, Row(NOTE, f"the whole new note, {len(lines)} line{'s' * (len(lines) != 1)}", file=n))
            layout.created(n, lines)
            continue
        patch = view.patch
        if patch is None:
            layout.fixed(
                n, Row(NOTE, "not shown: changes.diff has no section for this file (see the findings)", file=n)
            )
            continue
        if patch.binary:
            layout.fixed(n, Row(NOTE, "not shown: a binary patch (see the findings)", file=n))
            continue
        if c.op == "delete":
            layout.fixed(n, Row(NOTE, "the whole file is removed", file=n))
        placed, text = _applied(view)
        layout.hunks(n, patch.hunks, Regions(text, layout.producers), placed)
    if more and files:
        layout.fixed(len(files) - 1, Row(NOTE, f"… and {more:,} more files, still being read", file=len(files) - 1))
    return DiffModel(Rows(layout.parts), files, layout.stops, layout.widest, layout.top)
