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
    ("n / p", "next / previous hunk or file in the diff"),
    ("space / b-space", "page the diff down / up"),
    ("s", "split (side-by-side) diff on and off"),
    ("/", "filter by text, author or verdict (Esc clears)"),
    ("o", "sort by the next column (or click a column's header)"),
    ("d", "show decided proposals too"),
    ("a", "apply (asks first; disabled while invalid or conflicting)"),
    ("r", "reject, with a reason (asks first)"),
    ("b", "rebase a drifted proposal into a new revision (asks first)"),
    ("e", "the proposed file, whole and read-only"),
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
