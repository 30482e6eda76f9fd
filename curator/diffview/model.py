"""A proposal's changes as display rows: file headers, hunk headers and lines with numbers.

Rows are cheap (a few small fields each) and built up front; styling, word
highlights and syntax colours are left to the renderers, which do that work
only for the rows on screen. Managed-region lines are marked here, so a
reviewer sees why KP004 fires.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from curator.diffview.visible import visible, visible_line
from curator.proposals.hunks import split_lines
from curator.vault import regions as regions_mod

if TYPE_CHECKING:
    from curator.proposals.diff import Hunk
    from curator.validator.subject import ChangeView

# Row kinds.
FILE = "file"
HUNK = "hunk"
CONTEXT = "ctx"
DELETED = "del"
ADDED = "add"
CREATED = "new"
NOTE = "note"


@dataclass(slots=True)
class Row:
    kind: str
    text: str
    """What is shown: already made visible (no control characters)."""
    old: int | None = None
    """Line number on the old side (base), when the row has one."""
    new: int | None = None
    """Line number on the new side (post-image)."""
    managed: bool = False
    """The line lies in (or would land in) a producer's managed region."""
    pair: int | None = None
    """For a changed line: the row it replaces or is replaced by, for word highlights."""
    file: int = 0
    """Index of the file this row belongs to."""


@dataclass(slots=True)
class FileInfo:
    op: str
    path: str
    """Made visible."""
    drift: str | None
    first_row: int
    syntax: str | None = None
    """A created note's full text (for markdown highlighting), when it is shown whole."""


@dataclass
class DiffModel:
    rows: list[Row]
    files: list[FileInfo]

    @property
    def stops(self) -> list[int]:
        """Rows that n/p jump between: file and hunk headers."""
        return [i for i, r in enumerate(self.rows) if r.kind in (FILE, HUNK)]

    @property
    def widest(self) -> int:
        return max((len(r.text) for r in self.rows), default=0)


def _regions(text: str | None, producers: Sequence[str]) -> list[regions_mod.Region]:
    if not text or not producers:
        return []
    found, _problems = regions_mod.find(split_lines(text), producers)
    return found


def _inside(line: int, regions: Iterable[regions_mod.Region]) -> bool:
    return regions_mod.line_in_regions(line, regions) is not None


def _between(after: int, regions: Iterable[regions_mod.Region]) -> bool:
    """A line inserted after old line ``after`` lands inside a region."""
    return any(r.start_line <= after < r.end_line for r in regions)


def _pair_up(rows: list[Row], dels: list[int], adds: list[int]) -> None:
    """Pair a run of deleted lines with the added lines that replace them, in order."""
    for d, a in zip(dels, adds, strict=False):
        rows[d].pair, rows[a].pair = a, d
    dels.clear()
    adds.clear()


def _hunk_rows(
    rows: list[Row], hunks: Sequence[Hunk], file: int, regions: list[regions_mod.Region], producers: Sequence[str]
) -> None:
    for h in hunks:
        old_no = h.old_start if h.old_len else h.old_start + 1
        new_no = h.new_start if h.new_len else h.new_start + 1
        rows.append(Row(HUNK, f"@@ -{h.old_start},{h.old_len} +{h.new_start},{h.new_len} @@", file=file))
        dels: list[int] = []
        adds: list[int] = []
        for kind, raw in h.lines:
            text = visible_line(raw)
            if kind == " ":
                _pair_up(rows, dels, adds)
                rows.append(Row(CONTEXT, text, old_no, new_no, _inside(old_no, regions), file=file))
                old_no += 1
                new_no += 1
            elif kind == "-":
                if adds:
                    _pair_up(rows, dels, adds)
                dels.append(len(rows))
                managed = _inside(old_no, regions) or regions_mod.marker_on(raw, producers) is not None
                rows.append(Row(DELETED, text, old_no, None, managed, file=file))
                old_no += 1
            else:
                adds.append(len(rows))
                managed = _between(old_no - 1, regions) or regions_mod.marker_on(raw, producers) is not None
                rows.append(Row(ADDED, text, None, new_no, managed, file=file))
                new_no += 1
        _pair_up(rows, dels, adds)


def _header(view: ChangeView) -> str:
    c = view.change
    what = {"create": "new note", "delete": "deleted", "modify": "modified"}.get(c.op, c.op)
    return f"{visible(c.path)} ({what})"


def build(changes: Sequence[ChangeView], producers: Sequence[str] = ()) -> DiffModel:
    """Rows for every change of a proposal, in the proposal's order."""
    rows: list[Row] = []
    files: list[FileInfo] = []
    for n, view in enumerate(changes):
        c = view.change
        info = FileInfo(c.op, visible(c.path), view.drift, len(rows))
        files.append(info)
        rows.append(Row(FILE, _header(view), file=n))
        if not view.readable:
            rows.append(Row(NOTE, "not shown: the path is not a safe vault path (see the findings)", file=n))
            continue
        if c.op == "create":
            text = view.post_text
            if text is None:
                what = "missing from files/" if view.new_bytes is None else "binary or not UTF-8"
                rows.append(Row(NOTE, f"not shown: the new file is {what} (see the findings)", file=n))
                continue
            lines = split_lines(text)
            info.syntax = text
            rows.append(Row(NOTE, f"the whole new note, {len(lines)} line{'s' * (len(lines) != 1)}", file=n))
            for no, raw in enumerate(lines, start=1):
                managed = regions_mod.marker_on(raw, producers) is not None
                rows.append(Row(CREATED, visible_line(raw), None, no, managed, file=n))
            continue
        patch = view.patch
        if patch is None:
            rows.append(Row(NOTE, "not shown: changes.diff has no section for this file (see the findings)", file=n))
            continue
        if patch.binary:
            rows.append(Row(NOTE, "not shown: a binary patch (see the findings)", file=n))
            continue
        if c.op == "delete":
            rows.append(Row(NOTE, "the whole file is removed", file=n))
        _hunk_rows(rows, patch.hunks, n, _regions(view.pre_text, producers), producers)
    return DiffModel(rows, files)
