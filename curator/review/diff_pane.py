"""The diff pane: a proposal's rows drawn lazily, unified or side by side, long lines wrapped.

Built on Textual's line API: only the lines on screen are turned into text, so a
5,000-line diff costs its first screen, not 5,000 widgets. ``diffview.lines`` lays the
rows out at the pane's width (wrapped by default, ``w`` toggles) and draws them with
``diffview.richtext``, the renderer ``curator apply`` prints with: word highlights and
markdown colours are worked out per row on screen.
"""

from __future__ import annotations

import threading
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from curator.diffview.lines import Lines
from curator.diffview.model import DiffModel
from curator.diffview.richtext import Renderer
from curator.review.marks import Kept

# Items kept drawn; past this the cache starts again (a screen holds a few dozen).
CACHED = 2000


class DiffPane(ScrollView, can_focus=True):
    """A proposal's coloured diff; ``s`` toggles split view, ``w`` wrapping, ``n``/``p`` jump
    between hunks and files."""

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
        Binding("left", "pan(-1)", "Left", show=False),
        Binding("right", "pan(1)", "Right", show=False),
    ]

    split: reactive[bool] = reactive(False)
    wrap: reactive[bool] = reactive(True)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model: DiffModel | None = None
        self.drawn = threading.Event()
        """Set once a row of the model shown now has been drawn (the pre-flight waits for it)."""
        self.of: str | None = None
        """The proposal whose diff is shown."""
        self.placeholder = "Select a proposal to see its changes."
        self._renderer: Renderer | None = None
        self._lines: Lines | None = None
        self._sized = Size(0, 0)
        """The pane's size when the lines were laid out."""
        self._cache: dict[int, list[list[Segment]]] = {}
        """Items drawn, as the segments of each of their lines."""
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
        top = self._model_row_at(int(self.scroll_y)) if keep else 0
        if not keep:
            self.at_stop = None
            self.marks = frozenset()
        self.of = of if model is not None else None
        self.model = model
        self.drawn = threading.Event()
        self.placeholder = placeholder or self.placeholder
        self._renderer = Renderer(model) if model is not None else None
        self._widest = model.widest if model is not None else 0
        self._relayout(top if model is not None else None)

    @property
    def row_count(self) -> int:
        """Items in the view: model rows, or side by side, rows of the split view."""
        lines = self._layout()
        return lines.count if lines is not None else 1

    def _layout(self) -> Lines | None:
        """The lines at the pane's width, laid out again when its size has changed.

        Wrapped or side by side, at the pane's width less a scrollbar's when the lines will
        not all fit: worked out from the size alone, so a scrollbar coming or going cannot
        change the width they were laid out for."""
        if self.model is None or self._renderer is None:
            return None
        lines = self._lines
        if lines is not None and lines.split == self.split and lines.wrapped == self.wrap and self._sized == self.size:
            return lines
        full = self.content_region.width
        if full <= 0:  # not laid out yet: one line a row until the pane has a width
            return Lines(self.model, self._renderer, split=self.split, wrapped=False, width=1)
        self._sized = self.size
        if lines is None or lines.split != self.split or lines.wrapped != self.wrap or lines.width > full:
            lines = Lines(self.model, self._renderer, split=self.split, wrapped=self.wrap, width=full)
        if (self.wrap or self.split) and lines.height > self.content_region.height:
            bar = max(1, full - self.styles.scrollbar_size_vertical)
            if lines.width != bar:
                lines = Lines(self.model, self._renderer, split=self.split, wrapped=self.wrap, width=bar)
        elif lines.width != full:
            lines = Lines(self.model, self._renderer, split=self.split, wrapped=self.wrap, width=full)
        if lines is not self._lines:
            self._lines = lines
            self._cache.clear()
        return lines

    def _relayout(self, top: int | None) -> None:
        """Lay the lines out again (a new model, width, split or wrap) with model row ``top``
        at the top (None: from the start)."""
        self._lines = None
        self._cache.clear()
        lines = self._layout()
        if lines is None:
            self.virtual_size = Size(0, 1)
        elif self.split or self.wrap:
            self.virtual_size = Size(0, lines.height)
        else:
            self.virtual_size = Size(lines.gutter + self._widest + 1, lines.height)
        self.refresh()
        y = self._screen_row_of(min(top, len(self.model.rows) - 1)) if top and self.model is not None else 0
        self.scroll_to(self.scroll_x if top else 0, y, animate=False)

    def watch_split(self) -> None:
        self._keep_top()

    def watch_wrap(self) -> None:
        self._keep_top()

    def _keep_top(self) -> None:
        # The same rows stay on screen across the toggle (the layout before it says which).
        lines = self._lines
        top = lines.row_of(lines.at(min(int(self.scroll_y), lines.height - 1))[0]) if lines and lines.height else None
        self._relayout(top)

    def on_resize(self) -> None:
        if self.model is not None:
            self._keep_top()

    # --- navigation ---------------------------------------------------------------------

    def _model_row_at(self, y: int) -> int:
        lines = self._layout()
        if lines is None or not lines.height:
            return 0
        return lines.row_of(lines.at(min(y, lines.height - 1))[0])

    def _screen_row_of(self, index: int) -> int:
        lines = self._layout()
        return lines.y_of(lines.item_of(index)) if lines is not None else 0

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
        return min(self._model_row_at(int(self.scroll_y)), len(self.model.rows) - 1)

    def top_file(self, model: DiffModel) -> int:
        """The file whose rows are at the top of the pane (of ``model``, when it is the one shown)."""
        if model is not self.model or not len(model.rows):
            return 0
        return model.rows[self._model_row_at(int(self.scroll_y))].file

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

    def action_pan(self, step: int) -> None:
        """Left and right, unwrapped: a quarter of the text's width at a time (the line numbers
        and signs stay where they are)."""
        lines = self._layout()
        text = self.scrollable_content_region.width - (lines.gutter if lines is not None else 0)
        self.scroll_to(max(0, self.scroll_x + step * max(4, text // 4)), self.scroll_y, animate=False)

    # --- drawing ------------------------------------------------------------------------

    def _item(self, lines: Lines, item: int) -> list[list[Segment]]:
        found = self._cache.get(item)
        if found is not None:
            return found
        console = self.app.console
        drawn = lines.draw(item, self.marks, self.at_stop)
        if not (lines.split or lines.wrapped) and drawn[0].cell_len > self._widest + lines.gutter:
            # Tabs and control-character stand-ins made this row longer than its raw text.
            self._widest = drawn[0].cell_len - lines.gutter
            self.call_later(self._keep_top)
        segments = [list(text.render(console)) for text in drawn]
        if len(self._cache) > CACHED:
            self._cache.clear()
        self._cache[item] = segments
        return segments

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        lines = self._layout()
        if lines is None:
            if y == 0:
                placeholder = Segment(f" {self.placeholder}", Style(color="grey62", italic=True))
                return Strip([placeholder]).crop_extend(0, width, None)
            return Strip.blank(width)
        if scroll_y + y >= lines.height:
            return Strip.blank(width)
        item, sub = lines.at(scroll_y + y)
        strip = Strip(self._item(lines, item)[sub])
        self.drawn.set()
        if lines.split or lines.wrapped:
            return strip.crop_extend(0, width, None)
        if not lines.has_gutter(item):
            return strip.crop_extend(scroll_x, scroll_x + width, None)
        # Unwrapped and scrolled sideways: the numbers and the sign stay, the text moves.
        g = min(lines.gutter, width)
        text = strip.crop(g + scroll_x, g + scroll_x + width - g)
        return Strip.join([strip.crop(0, g), text]).crop_extend(0, width, None)
