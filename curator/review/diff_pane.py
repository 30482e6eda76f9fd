"""The diff pane: a proposal's rows drawn lazily, unified or side by side.

Built on Textual's line API: only the rows on screen are turned into text, so
a 5,000-line diff costs its first screen, not 5,000 widgets. Word highlights
and markdown colours are worked out per visible row by ``diffview.richtext``
(the same renderer ``curator apply`` prints with).
"""

from __future__ import annotations

import threading
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from curator.diffview.model import DiffModel
from curator.diffview.richtext import Renderer, split_rows
from curator.review.marks import Kept

_SEPARATOR = Segment("│", Style(color="grey35"))


class DiffPane(ScrollView, can_focus=True):
    """A proposal's coloured diff; ``s`` toggles split view, ``n``/``p`` jump between hunks and files."""

    DEFAULT_CSS = """
    DiffPane {
        border: round $primary 40%;
        border-title-color: $text-muted;
        background: $surface;
    }
    DiffPane:focus {
        border: round $primary;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "scroll_up", "Up", show=False),
        Binding("down", "scroll_down", "Down", show=False),
        Binding("left", "scroll_left", "Left", show=False),
        Binding("right", "scroll_right", "Right", show=False),
    ]

    split: reactive[bool] = reactive(False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model: DiffModel | None = None
        self.drawn = threading.Event()
        """Set once a row of the model shown now has been drawn (the pre-flight waits for it)."""
        self.of: str | None = None
        """The proposal whose diff is shown."""
        self.placeholder = "Select a proposal to see its changes."
        self._renderer: Renderer | None = None
        self._split_rows: list[tuple[int | None, int | None, int | None]] | None = None
        self._split_of: dict[int, int] = {}
        self._cache: dict[tuple[int, bool, int], list[Segment]] = {}
        self._widest = 0
        """The longest row's cells as far as known: the model's estimate, raised as rows are drawn."""
        self.at_stop: int | None = None
        """The model row (a file or hunk header) ``n``/``p`` moved to last: what space marks."""
        self.marks: frozenset[int] = frozenset()
        """Model rows (file and hunk headers) of what the reviewer keeps, drawn with a tick."""
        self.kept = Kept()
        """What the reviewer keeps of each proposal (space and ``f`` at ``▸``), until it is decided."""

    # --- what is shown ------------------------------------------------------------------

    def show(self, model: DiffModel | None, placeholder: str = "", *, of: str | None = None) -> None:
        """Show a model (None: a one-line placeholder instead) of the proposal ``of``.

        The same proposal's diff again (the pre-flight's, after the one shown while it ran)
        stays on the rows the reviewer is looking at."""
        keep = of is not None and of == self.of and self.model is not None
        top = self._model_row_at(int(self.scroll_y), self.split) if keep else 0
        if not keep:
            self.at_stop = None
            self.marks = frozenset()
        self.of = of if model is not None else None
        self.model = model
        self.drawn = threading.Event()
        self.placeholder = placeholder or self.placeholder
        self._renderer = Renderer(model) if model is not None else None
        self._split_rows = None
        self._cache.clear()
        self._widest = model.widest if model is not None else 0
        self._resize()
        if model is not None and top:
            self.scroll_to(self.scroll_x, self._screen_row_of(min(top, len(model.rows) - 1)), animate=False)
        else:
            self.scroll_to(0, 0, animate=False)

    @property
    def row_count(self) -> int:
        if self.model is None:
            return 1
        return len(self._rows_split()) if self.split else len(self.model.rows)

    def _rows_split(self) -> list[tuple[int | None, int | None, int | None]]:
        if self._split_rows is None:
            assert self.model is not None
            self._split_rows = split_rows(self.model)
            self._split_of = {}
            for y, trio in enumerate(self._split_rows):
                for i in trio:
                    if i is not None:
                        self._split_of.setdefault(i, y)
        return self._split_rows

    def _resize(self) -> None:
        if self.model is None or self._renderer is None:
            self.virtual_size = Size(0, 1)
        elif self.split:
            self.virtual_size = Size(0, self.row_count)
        else:
            gutter = 2 * self._renderer.width + 4
            self.virtual_size = Size(gutter + self._widest + 1, self.row_count)
        self.refresh()

    def watch_split(self) -> None:
        self._cache.clear()
        if self.model is not None:
            # Keep the same rows on screen across the toggle.
            top = self._model_row_at(int(self.scroll_y), not self.split)
            self._resize()
            self.scroll_to(0, self._screen_row_of(top), animate=False)
        else:
            self._resize()

    def _model_row_at(self, y: int, split: bool) -> int:
        if not split:
            return y
        rows = self._rows_split()
        if not rows:
            return 0
        whole, old, new = rows[min(y, len(rows) - 1)]
        return next(i for i in (whole, old, new) if i is not None)

    def _screen_row_of(self, index: int) -> int:
        if not self.split:
            return index
        self._rows_split()
        return self._split_of.get(index, 0)

    # --- navigation ---------------------------------------------------------------------

    def _on_screen(self, index: int) -> bool:
        y = self._screen_row_of(index)
        return int(self.scroll_y) <= y < int(self.scroll_y) + max(1, self.scrollable_content_region.height)

    def current_row(self) -> int | None:
        """The model row the reviewer is at: the header ``n``/``p`` moved to while it is on screen,
        else the top row shown."""
        if self.model is None or not len(self.model.rows):
            return None
        if self.at_stop is not None and self.at_stop < len(self.model.rows) and self._on_screen(self.at_stop):
            return self.at_stop
        return min(self._model_row_at(int(self.scroll_y), self.split), len(self.model.rows) - 1)

    def top_file(self, model: DiffModel) -> int:
        """The file whose rows ``model`` has at the top of the pane (the first, side by side)."""
        rows = model.rows
        return rows[min(int(self.scroll_y), len(rows) - 1)].file if len(rows) and not self.split else 0

    def jump(self, forward: bool) -> bool:
        """Scroll to the next (or previous) hunk or file header; False when there is none."""
        if self.model is None:
            return False
        stops = [(self._screen_row_of(i), i) for i in self.model.stops]
        # From the header moved to last while it is on screen: a diff shorter than the pane
        # does not scroll, and its hunks are still stepped through one by one.
        at = self.at_stop if self.at_stop is not None and self._on_screen(self.at_stop) else None
        here = self._screen_row_of(at) if at is not None else int(self.scroll_y)
        targets = [s for s in stops if s[0] > here] if forward else [s for s in stops if s[0] < here]
        if not targets:
            return False
        y, index = targets[0] if forward else targets[-1]
        self.at_stop = index
        self._cache.clear()
        self.scroll_to(0, y, animate=False)
        self.refresh()
        return True

    def set_marks(self, rows: frozenset[int]) -> None:
        if rows != self.marks:
            self.marks = rows
            self._cache.clear()
            self.refresh()

    # --- drawing ------------------------------------------------------------------------

    def _segments(self, y: int, width: int) -> list[Segment]:
        key = (y, self.split, width if self.split else 0)
        found = self._cache.get(key)
        if found is not None:
            return found
        renderer = self._renderer
        assert renderer is not None
        console = self.app.console
        if not self.split:
            text = self._marked(y, renderer.unified(y))
            if text.cell_len > self._widest + 2 * renderer.width + 4:
                # Tabs and control-character stand-ins made this row longer than its raw text.
                self._widest = text.cell_len - 2 * renderer.width - 4
                self.call_later(self._resize)
        else:
            whole, old, new = self._rows_split()[y]
            if whole is not None:
                text = self._marked(whole, renderer.unified(whole))
            else:
                half = max(10, (width - 1) // 2)
                text = renderer.half(old, half, old_side=True)
                text.append_text(Text("│", style="grey35"))
                text.append_text(renderer.half(new, width - half - 1, old_side=False))
        segments = list(text.render(console))
        if len(self._cache) > 2000:
            self._cache.clear()
        self._cache[key] = segments
        return segments

    def _marked(self, index: int, text: Text) -> Text:
        """A header row with the reviewer's marks: ``✓`` kept, ``▸`` where space marks next."""
        if index not in self.marks and index != self.at_stop:
            return text
        out = Text()
        out.append("▸" if index == self.at_stop else " ", style="bold yellow")
        out.append("✓ " if index in self.marks else "  ", style="bold green")
        out.append_text(text)
        return out

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        if self.model is None:
            if y == 0:
                return Strip([Segment(f" {self.placeholder}", Style(color="grey62", italic=True))]).crop_extend(
                    0, width, None
                )
            return Strip.blank(width)
        if row >= self.row_count:
            return Strip.blank(width)
        strip = Strip(self._segments(row, width))
        self.drawn.set()
        if self.split:
            return strip.crop_extend(0, width, None)
        return strip.crop_extend(scroll_x, scroll_x + width, None)
