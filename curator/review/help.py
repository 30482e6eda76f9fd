"""``?``: every key of the review UI, and what it does."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS = (
    ("j / k, ↓ / ↑", "move through the queue"),
    ("n / p", "next / previous hunk or file in the diff (▸ marks where it is)"),
    ("pgdn / pgup", "page the diff"),
    ("s", "split (side-by-side) diff on and off"),
    ("/", "filter by text, author or verdict (Esc clears)"),
    ("o", "sort by the next column (or click a column's header)"),
    ("d", "show decided proposals too"),
    ("space", "keep the hunk at ▸ (or the file, on its header); again to unmark"),
    ("f", "keep the whole file at ▸; again to unmark"),
    ("a", "apply (asks first); with hunks kept, only those, as a new revision"),
    ("r", "reject, with a reason (asks first)"),
    ("c", "ask for changes, with a reason (asks first); it stays pending"),
    ("e", "edit the proposed file ($EDITOR, or here: ctrl+s stages it)"),
    ("i", "a revision's diff against the one it supersedes"),
    ("b", "rebase a drifted proposal into a new revision (asks first)"),
    ("v", "the proposed file, whole and read-only"),
    ("tab", "move between the queue and the diff"),
    ("?", "this help"),
    ("q", "quit"),
)


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
        background: $background 60%;
    }
    HelpScreen > Vertical {
        width: 70;
        max-width: 95%;
        height: auto;
        border: thick $primary;
        background: $surface;
        padding: 1 2;
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
        with Vertical():
            yield Static("Review keys", classes="title")
            yield Static(table)

    def action_close(self) -> None:
        self.dismiss(None)
