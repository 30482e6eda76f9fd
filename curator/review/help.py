"""``?``: every key of the review UI, and what it does."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS = (
    ("j / k, ↓ / ↑", "move through the queue"),
    ("n / p", "next / previous hunk or file in the diff (▸ marks it)"),
    ("pgdn / pgup", "page the diff"),
    ("s", "split (side-by-side) diff on and off"),
    ("w", "wrap long lines on and off (horizontal scroll when off)"),
    ("/", "filter by text, author or verdict (Esc clears)"),
    ("o", "sort by the next column (or click a column's header)"),
    ("d", "show decided proposals too"),
    ("space", "keep the hunk at ▸, or its file on a header; again: unmark"),
    ("f", "keep the whole file at ▸; again to unmark"),
    ("a", "apply (asks first); with hunks kept, those, as a revision"),
    ("r", "reject, with a reason (asks first)"),
    ("c", "ask for changes, with a reason (asks first); stays pending"),
    ("e", "edit the proposed file ($EDITOR, or here: ctrl+s stages)"),
    ("i", "a revision's diff against the one it supersedes"),
    ("b", "rebase a drifted proposal into a new revision (asks first)"),
    ("v", "the proposed file, whole and read-only"),
    ("tab", "move between the queue and the diff"),
    ("?", "this help"),
    ("q", "quit"),
)


class HelpScreen(ModalScreen[None]):
    """Every key, in a box that scrolls where the terminal is too short for all of them."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
        background: $background 60%;
    }
    HelpScreen > VerticalScroll {
        width: 76;
        max-width: 100%;
        height: auto;
        max-height: 100%;
        border: thick $primary;
        border-title-color: $text;
        border-subtitle-color: $text-muted;
        background: $surface;
        padding: 0 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close"),
    ]

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        for key, what in KEYS:
            table.add_row(key, what)
        box = VerticalScroll()
        box.border_title = "Review keys"
        box.border_subtitle = "↓ ↑ pgdn scroll · Esc closes"
        with box:
            yield Static(table)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
