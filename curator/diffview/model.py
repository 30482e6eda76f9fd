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

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, overload

from curator.diffview.visible import visible, visible_line
from curator.proposals.hunks import Placed, old_lines, split_lines
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
_KIND_OF = {" ": CONTEXT, "-": DELETED, "+": ADDED}
# Every managed-region marker holds this (regions.MARKER_RE starts with it): a line or a
# file without it has no marker, and the regex need not run on it.
_MARKER_HINT = "<!--"


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


def _marker(raw: str, producers: Sequence[str]) -> bool:
    return bool(producers) and _MARKER_HINT in raw and regions_mod.marker_on(raw, producers) is not None


class _Regions:
    """A file's managed regions in its base text, found on first use (most rows never ask)."""

    def __init__(self, text: str | None, producers: Sequence[str]) -> None:
        self._text = text
        self._producers = producers
        self._found: list[regions_mod.Region] | None = None

    def get(self) -> list[regions_mod.Region]:
        if self._found is None:
            text, self._text = self._text, None
            if not text or not self._producers or _MARKER_HINT not in text:
                self._found = []
            else:
                self._found, _problems = regions_mod.find(split_lines(text), self._producers)
        return self._found

    def inside(self, line: int) -> bool:
        return regions_mod.line_in_regions(line, self.get()) is not None

    def between(self, after: int) -> bool:
        """A line inserted after old line ``after`` lands inside a region."""
        return any(r.start_line <= after < r.end_line for r in self.get())


@dataclass(eq=False)
class _Part:
    """A run of consecutive rows of one file; row ``j`` of the part is ``start + j`` of the model."""

    start: int
    file: int

    def __len__(self) -> int:
        raise NotImplementedError

    def kind(self, j: int) -> str:
        raise NotImplementedError

    def row(self, j: int) -> Row:
        raise NotImplementedError


@dataclass(eq=False)
class _Fixed(_Part):
    """Rows made up front: file headers and notes (one or two per file)."""

    rows: list[Row] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.rows)

    def kind(self, j: int) -> str:
        return self.rows[j].kind

    def row(self, j: int) -> Row:
        return self.rows[j]


@dataclass(eq=False)
class _HunkPart(_Part):
    """A hunk header and its lines; a line's numbers and pair come from the kinds before it."""

    hunk: Hunk | None = None
    kinds: str = ""
    """One character per line: ' ', '-' or '+'."""
    old_base: int = 0
    new_base: int = 0
    regions: _Regions | None = None
    producers: Sequence[str] = ()
    number: int = 1
    """The hunk's number in its file, from 1: what ``curator apply --hunks PATH:N`` names."""
    of: int = 1
    """How many hunks the file has."""

    def __len__(self) -> int:
        return 1 + len(self.kinds)

    def kind(self, j: int) -> str:
        return HUNK if j == 0 else _KIND_OF[self.kinds[j - 1]]

    def _run_start(self, i: int, same: str) -> int:
        """Where the run of ``same`` lines holding line ``i`` starts."""
        others = [k for k in " -+" if k != same]
        return max(self.kinds.rfind(others[0], 0, i), self.kinds.rfind(others[1], 0, i)) + 1

    def _run_end(self, i: int, same: str) -> int:
        ends = [e for k in " -+" if k != same and (e := self.kinds.find(k, i)) >= 0]
        return min(ends, default=len(self.kinds))

    def _pair(self, i: int) -> int | None:
        """A run of deleted lines pairs, in order, with the run of added lines right after it."""
        kinds = self.kinds
        if kinds[i] == "-":
            start = self._run_start(i, "-")
            end = self._run_end(i, "-")
            if end >= len(kinds) or kinds[end] != "+":
                return None
            other = end + (i - start)
            return other if other < self._run_end(end, "+") else None
        if kinds[i] == "+":
            start = self._run_start(i, "+")
            if start == 0 or kinds[start - 1] != "-":
                return None
            other = self._run_start(start - 1, "-") + (i - start)
            return other if other < start else None
        return None

    def row(self, j: int) -> Row:
        h = self.hunk
        assert h is not None and self.regions is not None
        if j == 0:
            old_at = self.old_base - (0 if h.old_len else 1)
            new_at = self.new_base - (0 if h.new_len else 1)
            header = f"@@ -{old_at},{h.old_len} +{new_at},{h.new_len} @@"
            if self.of > 1:
                header += f"  hunk {self.number} of {self.of}"
            if (old_at, new_at) != (h.old_start, h.new_start):
                header += f"  (applies here; its header says -{h.old_start} +{h.new_start})"
            return Row(HUNK, header, file=self.file)
        i = j - 1
        kind, raw = h.lines[i]
        old_no = self.old_base + i - self.kinds.count("+", 0, i)
        new_no = self.new_base + i - self.kinds.count("-", 0, i)
        text = visible_line(raw)
        pair = self._pair(i)
        other = None if pair is None else self.start + 1 + pair
        if kind == " ":
            return Row(CONTEXT, text, old_no, new_no, self.regions.inside(old_no), file=self.file)
        if kind == "-":
            managed = self.regions.inside(old_no) or _marker(raw, self.producers)
            return Row(DELETED, text, old_no, None, managed, other, file=self.file)
        managed = self.regions.between(old_no - 1) or _marker(raw, self.producers)
        return Row(ADDED, text, None, new_no, managed, other, file=self.file)


@dataclass(eq=False)
class _Created(_Part):
    """A created note, whole: one row per line."""

    lines: list[str] = field(default_factory=list)
    producers: Sequence[str] = ()

    def __len__(self) -> int:
        return len(self.lines)

    def kind(self, j: int) -> str:
        return CREATED

    def row(self, j: int) -> Row:
        raw = self.lines[j]
        return Row(CREATED, visible_line(raw), None, j + 1, _marker(raw, self.producers), file=self.file)


class Rows(Sequence[Row]):
    """The model's rows, each made on first access and then kept (``rows[i] is rows[i]``)."""

    def __init__(self, parts: list[_Part]) -> None:
        self._parts = parts
        self._starts = [p.start for p in parts]
        self._len = parts[-1].start + len(parts[-1]) if parts else 0
        self._made: dict[int, Row] = {}

    def __len__(self) -> int:
        return self._len

    def _part(self, i: int) -> _Part:
        return self._parts[bisect_right(self._starts, i) - 1]

    @overload
    def __getitem__(self, i: int) -> Row: ...
    @overload
    def __getitem__(self, i: slice) -> list[Row]: ...
    def __getitem__(self, i: int | slice) -> Row | list[Row]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        row = self._made.get(i)
        if row is None:
            part = self._part(i)
            row = self._made[i] = part.row(i - part.start)
        return row

    def __iter__(self) -> Iterator[Row]:
        for i in range(self._len):
            yield self[i]

    def kinds(self) -> list[str]:
        """Every row's kind, without making the rows."""
        out: list[str] = []
        for p in self._parts:
            out.extend(p.kind(j) for j in range(len(p)))
        return out

    def created_lines(self, file: int) -> list[str]:
        """A created note's lines as shown (made visible), for highlighting it whole."""
        for p in self._parts:
            if p.file == file and isinstance(p, _Created):
                return [visible_line(raw) for raw in p.lines]
        return []


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
        self.parts: list[_Part] = []
        self.stops: list[int] = []
        self.size = 0
        self.widest = 0
        self.top = 0

    def add(self, part: _Part) -> None:
        self.parts.append(part)
        self.size += len(part)

    def fixed(self, file: int, *rows: Row) -> None:
        if self.parts and isinstance(self.parts[-1], _Fixed) and self.parts[-1].file == file:
            self.parts[-1].rows.extend(rows)
            self.size += len(rows)
        else:
            self.add(_Fixed(self.size, file, list(rows)))
        self.widest = max(self.widest, *(len(r.text) for r in rows))

    def hunks(self, file: int, hunks: Sequence[Hunk], regions: _Regions, placed: Sequence[Placed]) -> None:
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
            part = _HunkPart(
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
        self.add(_Created(self.size, file, lines, self.producers))
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


def build(changes: Sequence[ChangeView], producers: Sequence[str] = (), *, more: int = 0) -> DiffModel:
    """Rows for every change of a proposal, in the proposal's order (made as they are looked at).

    ``more``: changes not given yet (still being read); a last row says how many."""
    layout = _Layout(producers)
    files: list[FileInfo] = []
    for n, view in enumerate(changes):
        c = view.change
        info = FileInfo(c.op, visible(c.path), view.drift, layout.size)
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
        layout.hunks(n, patch.hunks, _Regions(text, layout.producers), placed)
    if more and files:
        layout.fixed(len(files) - 1, Row(NOTE, f"… and {more:,} more files, still being read", file=len(files) - 1))
    return DiffModel(Rows(layout.parts), files, layout.stops, layout.widest, layout.top)
