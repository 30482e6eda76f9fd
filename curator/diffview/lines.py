"""A diff as screen lines at a width: unified or side by side, long lines wrapped or not.

An *item* is what one row of the view shows: a model row (unified), or a split row (a
header across, or an old line beside a new one). Wrapped, an item takes as many screen
lines as its longest text needs; its line numbers and ``+``/``-`` stay in their columns on
the first line, and its continuation lines leave the numbers blank under them and carry
the sign again. How many lines each item takes is worked out for every item from the rows'
plain text (``Rows.text``, no styled text made), and only the items on screen are drawn,
with ``wrap.breaks`` cutting both the same way. No Textual here: ``review.diff_pane`` scrolls it.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate

from rich.text import Text

from curator.diffview import wrap
from curator.diffview.model import DiffModel
from curator.diffview.richtext import S_GUTTER, Renderer, split_rows
from curator.diffview.rows import FILE, HUNK, NOTE

Trio = tuple[int | None, int | None, int | None]
HEADERS = (FILE, HUNK, NOTE)


def marked(index: int, text: Text, marks: frozenset[int], at: int | None) -> Text:
    """A header row with the reviewer's marks: ``✓`` kept, ``▸`` where space marks next."""
    if index not in marks and index != at:
        return text
    out = Text(end="")
    out.append("▸" if index == at else " ", style="bold yellow")
    out.append("✓ " if index in marks else "  ", style="bold green")
    out.append_text(text)
    return out


def _pieces(text: Text, width: int, wrapped: bool) -> list[Text]:
    if not wrapped:
        return [text]
    cuts = wrap.breaks(text.plain, width)
    return list(text.divide(cuts)) if cuts else [text]


class Lines:
    """The screen lines of ``model`` at ``width`` cells."""

    def __init__(self, model: DiffModel, renderer: Renderer, *, split: bool, wrapped: bool, width: int) -> None:
        self.model = model
        self.renderer = renderer
        self.split = split
        self.wrapped = wrapped
        self.width = max(1, width)
        self.gutter = 2 * renderer.width + 4
        """Cells before a unified row's text: both line numbers, the managed-region mark, the sign."""
        self.trios: list[Trio] = split_rows(model) if split else []
        self.count = len(self.trios) if split else len(model.rows)
        """Items: split rows side by side, else model rows."""
        self._item_of: dict[int, int] | None = None
        self._starts: list[int] | None = None
        if wrapped:
            heights = [self._height(i) for i in range(self.count)]
            if any(h > 1 for h in heights):
                self._starts = [0, *accumulate(heights)]
        self.height = self._starts[-1] if self._starts else self.count
        """Screen lines in all."""

    # --- where things are -----------------------------------------------------------------

    def at(self, y: int) -> tuple[int, int]:
        """The item screen line ``y`` shows, and which of its lines it is."""
        if self._starts is None:
            return y, 0
        item = bisect_right(self._starts, y) - 1
        return item, y - self._starts[item]

    def y_of(self, item: int) -> int:
        """The first screen line of ``item``."""
        return self._starts[item] if self._starts is not None else item

    def lines_of(self, item: int) -> int:
        return self._starts[item + 1] - self._starts[item] if self._starts is not None else 1

    def item_of(self, row: int) -> int:
        """The item that shows model row ``row``."""
        if not self.split:
            return row
        if self._item_of is None:
            self._item_of = {}
            for n, trio in enumerate(self.trios):
                for i in trio:
                    if i is not None:
                        self._item_of.setdefault(i, n)
        return self._item_of.get(row, 0)

    def row_of(self, item: int) -> int:
        """The model row ``item`` shows (the old side's, side by side, when it has one)."""
        if not self.split:
            return item
        return next(i for i in self.trios[item] if i is not None)

    def has_gutter(self, item: int) -> bool:
        """Unified and a line of a file: its numbers stay put when the text scrolls sideways."""
        return not self.split and self.model.rows.kinds_at(item) not in HEADERS

    # --- how many lines --------------------------------------------------------------------

    def _text_lines(self, row: int | None, width: int) -> int:
        return 1 if row is None else wrap.count(self.model.rows.text(row), width)

    def _height(self, item: int) -> int:
        if not self.split:
            if self.model.rows.kinds_at(item) in HEADERS:
                return wrap.count(self.renderer.header_plain(item), self.width)
            return self._text_lines(item, self.width - self.gutter)
        whole, old, new = self.trios[item]
        if whole is not None:
            return wrap.count(self.renderer.header_plain(whole), self.width)
        left, right = self._halves()
        side = self.renderer.width + 3
        return max(self._text_lines(old, left - side), self._text_lines(new, right - side))

    def _halves(self) -> tuple[int, int]:
        left = max(10, (self.width - 1) // 2)
        return left, max(1, self.width - left - 1)

    # --- drawing ---------------------------------------------------------------------------

    def draw(self, item: int, marks: frozenset[int] = frozenset(), at: int | None = None) -> list[Text]:
        """``item``'s screen lines (as many as ``lines_of`` says)."""
        r = self.renderer
        want = self.lines_of(item)
        if not self.split or self.trios[item][0] is not None:
            row = item if not self.split else self.trios[item][0]
            assert row is not None
            if self.model.rows.kinds_at(row) in HEADERS:
                out = _pieces(marked(row, r.unified(row), marks, at), self.width, self.wrapped)
            else:
                out = self._lined(row, self.width, r.gutter(self.model.rows[row]))
            return (out + [Text("", end="")] * want)[:want]
        _whole, old, new = self.trios[item]
        left, right = self._halves()
        olds, news = self._half(old, left, True), self._half(new, right, False)
        out = []
        for n in range(want):
            line = olds[n] if n < len(olds) else Text(" " * left, end="")
            line.append_text(Text("│", style="grey35"))
            line.append_text(news[n] if n < len(news) else Text(" " * right, end=""))
            out.append(line)
        return out

    def _lined(self, row: int, width: int, gutter: Text) -> list[Text]:
        """A line of a file: its gutter, then its text, wrapped under its own start."""
        body = self.renderer.body(row)
        pieces = _pieces(body, width - gutter.cell_len, self.wrapped)
        out = [Text.assemble(gutter, pieces[0], end="")]
        if len(pieces) > 1:
            sign = gutter[-1:]
            blank = Text(" " * (gutter.cell_len - 1), style=S_GUTTER, end="")
            out += [Text.assemble(blank, sign, piece, end="") for piece in pieces[1:]]
        return out

    def _half(self, index: int | None, width: int, old_side: bool) -> list[Text]:
        """One side of a split row: its lines, each cropped or padded to ``width`` cells."""
        if index is None:
            return [Text(" " * width, end="")]
        out = self._lined(index, width, self.renderer.half_gutter(self.model.rows[index], old_side))
        for line in out:
            line.truncate(width, overflow="crop", pad=True)
        return out
