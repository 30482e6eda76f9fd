"""The rows of a diff, made when first looked at: each part (a file header, a hunk, a created
note shown whole) knows how many rows it has and the kind of each, and works out row i's text,
line numbers, pairing and managed-region mark on first use (see ``curator.diffview.model``,
which lays the parts out)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, overload

from curator.diffview.visible import visible_line
from curator.proposals.hunks import split_lines
from curator.vault import regions as regions_mod

if TYPE_CHECKING:
    from curator.proposals.diff import Hunk

# Row kinds.
FILE = "file"
HUNK = "hunk"
CONTEXT = "ctx"
DELETED = "del"
ADDED = "add"
CREATED = "new"
NOTE = "note"
KIND_OF = {" ": CONTEXT, "-": DELETED, "+": ADDED}
# Every managed-region marker holds this (regions.MARKER_RE starts with it): a line or a
# file without it has no marker, and the regex need not run on it.
MARKER_HINT = "<!--"


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


def has_marker(raw: str, producers: Sequence[str]) -> bool:
    return bool(producers) and MARKER_HINT in raw and regions_mod.marker_on(raw, producers) is not None


class Regions:
    """A file's managed regions in its base text, found on first use (most rows never ask)."""

    def __init__(self, text: str | None, producers: Sequence[str]) -> None:
        self._text = text
        self._producers = producers
        self._found: list[regions_mod.Region] | None = None

    def get(self) -> list[regions_mod.Region]:
        if self._found is None:
            text, self._text = self._text, None
            if not text or not self._producers or MARKER_HINT not in text:
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
class Part:
    """A run of consecutive rows of one file; row ``j`` of the part is ``start + j`` of the model."""

    start: int
    file: int

    def __len__(self) -> int:
        raise NotImplementedError

    def kind(self, j: int) -> str:
        raise NotImplementedError

    def row(self, j: int) -> Row:
        raise NotImplementedError

    def raw(self, j: int) -> str | None:
        """Row ``j``'s line as the file has it (its line ending dropped), for a line of a file."""
        return None


@dataclass(eq=False)
class Fixed(Part):
    """Rows made up front: file headers and notes (one or two per file)."""

    rows: list[Row] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.rows)

    def kind(self, j: int) -> str:
        return self.rows[j].kind

    def row(self, j: int) -> Row:
        return self.rows[j]


@dataclass(eq=False)
class HunkPart(Part):
    """A hunk header and its lines; a line's numbers and pair come from the kinds before it."""

    hunk: Hunk | None = None
    kinds: str = ""
    """One character per line: ' ', '-' or '+'."""
    old_base: int = 0
    new_base: int = 0
    regions: Regions | None = None
    producers: Sequence[str] = ()
    number: int = 1
    """The hunk's number in its file, from 1: what ``curator apply --hunks PATH:N`` names."""
    of: int = 1
    """How many hunks the file has."""

    def __len__(self) -> int:
        return 1 + len(self.kinds)

    def kind(self, j: int) -> str:
        return HUNK if j == 0 else KIND_OF[self.kinds[j - 1]]

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

    def raw(self, j: int) -> str | None:
        assert self.hunk is not None
        return self.hunk.lines[j - 1][1].removesuffix("\n") if j else None

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
            managed = self.regions.inside(old_no) or has_marker(raw, self.producers)
            return Row(DELETED, text, old_no, None, managed, other, file=self.file)
        managed = self.regions.between(old_no - 1) or has_marker(raw, self.producers)
        return Row(ADDED, text, None, new_no, managed, other, file=self.file)


@dataclass(eq=False)
class Created(Part):
    """A created note, whole: one row per line."""

    lines: list[str] = field(default_factory=list)
    producers: Sequence[str] = ()

    def __len__(self) -> int:
        return len(self.lines)

    def kind(self, j: int) -> str:
        return CREATED

    def raw(self, j: int) -> str | None:
        return self.lines[j].removesuffix("\n")

    def row(self, j: int) -> Row:
        raw = self.lines[j]
        return Row(CREATED, visible_line(raw), None, j + 1, has_marker(raw, self.producers), file=self.file)


class Rows(Sequence[Row]):
    """The model's rows, each made on first access and then kept (``rows[i] is rows[i]``)."""

    def __init__(self, parts: list[Part]) -> None:
        self._parts = parts
        self._starts = [p.start for p in parts]
        self._len = parts[-1].start + len(parts[-1]) if parts else 0
        self._made: dict[int, Row] = {}

    def __len__(self) -> int:
        return self._len

    def _part(self, i: int) -> Part:
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

    def text(self, i: int) -> str:
        """Row ``i``'s text as shown, without making the row when its line needs nothing made
        visible (printable ASCII, the most of a diff): the layout asks this of every row."""
        row = self._made.get(i)
        if row is not None:
            return row.text
        part = self._part(i)
        raw = part.raw(i - part.start)
        if raw is not None and raw.isascii() and raw.isprintable():
            return raw
        return self[i].text

    def kinds_at(self, i: int) -> str:
        """Row ``i``'s kind, without making the row."""
        part = self._part(i)
        return part.kind(i - part.start)

    def kinds(self) -> list[str]:
        """Every row's kind, without making the rows."""
        out: list[str] = []
        for p in self._parts:
            out.extend(p.kind(j) for j in range(len(p)))
        return out

    def created_lines(self, file: int) -> list[str]:
        """A created note's lines as shown (made visible), for highlighting it whole."""
        for p in self._parts:
            if p.file == file and isinstance(p, Created):
                return [visible_line(raw) for raw in p.lines]
        return []
