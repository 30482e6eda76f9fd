"""What a reviewer keeps of a proposal: hunks and files marked with space and ``f``.

No Textual here. A proposal's marks are a path → hunk numbers map (numbers as the diff
numbers them, from 1; a new note or a deletion is one "hunk", kept whole or not at all);
``selection`` turns them into the ``revision.Selection`` that ``operations.revise`` stages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from curator.diffview.rows import FILE, HUNK
from curator.proposals.revision import Selection

if TYPE_CHECKING:
    from curator.diffview.model import DiffModel
    from curator.validator.subject import ChangeView


def hunks_of(view: ChangeView) -> int:
    """How many hunks a change has as the diff numbers them (a new note or a deletion: one)."""
    if view.change.op != "modify" or view.patch is None:
        return 1
    return max(1, len(view.patch.hunks))


def hunk_rows(model: DiffModel, file: int) -> list[int]:
    """The model rows of file ``file``'s hunk headers, in order."""
    return [i for i in model.stops if model.rows[i].file == file and model.rows[i].kind == HUNK]


def place(model: DiffModel, row: int) -> tuple[int, int | None]:
    """The file a model row belongs to, and the number of the hunk it lies in (None: the file's
    header, or a new note shown whole)."""
    file = model.rows[row].file
    before = [i for i in hunk_rows(model, file) if i <= row]
    return file, len(before) or None


@dataclass
class Marks:
    """One proposal's marks."""

    kept: dict[str, set[int]] = field(default_factory=dict)

    def count(self) -> int:
        return sum(len(v) for v in self.kept.values())

    def toggle_hunk(self, path: str, number: int) -> bool:
        """Mark or unmark one hunk; True when it is marked now."""
        got = self.kept.setdefault(path, set())
        if number in got:
            got.discard(number)
            if not got:
                del self.kept[path]
            return False
        got.add(number)
        return True

    def toggle_file(self, path: str, hunks: int) -> bool:
        """Mark every hunk of a file, or unmark them all when every one is marked; True when marked."""
        everything = set(range(1, hunks + 1))
        if self.kept.get(path) == everything:
            del self.kept[path]
            return False
        self.kept[path] = everything
        return True

    def selection(self, changes: Sequence[ChangeView]) -> Selection:
        sel = Selection()
        for view in changes:
            path = view.change.path
            got = self.kept.get(path)
            if not got:
                continue
            if view.change.op != "modify" or len(got) >= hunks_of(view):
                sel.whole.add(path)
            else:
                sel.hunks[path] = set(got)
        return sel

    def rows(self, model: DiffModel, changes: Sequence[ChangeView]) -> frozenset[int]:
        """The header rows to draw ticked: each kept hunk, and the header of a file kept whole."""
        out: set[int] = set()
        for f, view in enumerate(changes[: len(model.files)]):
            got = self.kept.get(view.change.path)
            if not got:
                continue
            headers = hunk_rows(model, f)
            if len(got) >= hunks_of(view):
                out.add(model.files[f].first_row)
            out.update(headers[n - 1] for n in got if 0 < n <= len(headers))
        return frozenset(out)


def total_hunks(changes: Sequence[ChangeView]) -> int:
    return sum(hunks_of(v) for v in changes)


def is_file_row(model: DiffModel, row: int) -> bool:
    return model.rows[row].kind == FILE


class Kept:
    """What the reviewer keeps of each proposal, until it is decided."""

    def __init__(self) -> None:
        self._of: dict[str, Marks] = {}

    def count(self, ulid: str) -> int:
        marks = self._of.get(ulid)
        return marks.count() if marks else 0

    def drop(self, ulid: str) -> None:
        self._of.pop(ulid, None)

    def selection(self, ulid: str, changes: Sequence[ChangeView]) -> Selection | None:
        """What is marked of ``ulid`` (None: nothing, and ``a`` applies all of it)."""
        if not self.count(ulid):
            return None
        return self._of[ulid].selection(changes)

    def line(self, ulid: str, changes: Sequence[ChangeView]) -> str:
        """The count the line above the footer shows, e.g. ``1 of 3 hunks marked``."""
        got = self.count(ulid)
        return f"{got} of {total_hunks(changes)} hunks marked — a applies only those" if got else ""

    def label(self, ulid: str | None, changes: Sequence[ChangeView]) -> str:
        """The footer's space key: ``Keep``, or how many hunks are kept (``Keep 1/3``)."""
        got = self.count(ulid) if ulid else 0
        return f"Keep {got}/{total_hunks(changes)}" if got else "Keep"

    def rows(self, ulid: str, model: DiffModel, changes: Sequence[ChangeView]) -> frozenset[int]:
        return (self._of.get(ulid) or Marks()).rows(model, changes)

    def toggle(self, ulid: str, model: DiffModel, changes: Sequence[ChangeView], row: int, whole_file: bool) -> None:
        """Mark or unmark the hunk at model row ``row`` (or its whole file)."""
        file, hunk = place(model, row)
        view = changes[file]
        marks = self._of.setdefault(ulid, Marks())
        if whole_file or hunk is None or view.change.op != "modify":
            marks.toggle_file(view.change.path, hunks_of(view))
        else:
            marks.toggle_hunk(view.change.path, hunk)
