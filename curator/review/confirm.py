"""The confirmation dialog every decision goes through (apply, reject, rebase)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static


class ConfirmScreen(ModalScreen[str | None]):
    """Asks before a decision. Dismissed with the reason (or "" when none is asked), or None.

    With ``ask_reason`` the person must type why (``curator reject --reason``)."""

    DEFAULT_CSS = """
    ConfirmScreen {
        align: center middle;
        background: $background 60%;
    }
    ConfirmScreen > Vertical {
        width: 72;
        max-width: 95%;
        height: auto;
        border: thick $warning;
        background: $surface;
        padding: 1 2;
    }
    ConfirmScreen #confirm-title {
        text-style: bold;
        margin-bottom: 1;
    }
    ConfirmScreen #confirm-body {
        margin-bottom: 1;
    }
    ConfirmScreen Input {
        margin-bottom: 1;
    }
    ConfirmScreen Horizontal {
        height: auto;
        align-horizontal: right;
    }
    ConfirmScreen Button {
        margin-left: 2;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("y", "confirm", "Yes", show=False),
        Binding("n", "cancel", "No", show=False),
    ]

    def __init__(self, title: str, body: Text, *, verb: str, ask_reason: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.verb = verb
        self.ask_reason = ask_reason

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(self.title_text), id="confirm-title")
            yield Static(self.body, id="confirm-body")
            if self.ask_reason:
                yield Input(placeholder="Why? (recorded with the decision)", id="reason")
            with Horizontal():
                yield Button("Cancel", id="cancel")
                yield Button(self.verb, id="confirm", variant="warning", disabled=self.ask_reason)

    def on_mount(self) -> None:
        if self.ask_reason:
            self.query_one("#reason", Input).focus()
        else:
            self.query_one("#confirm", Button).focus()

    def _reason(self) -> str:
        return self.query_one("#reason", Input).value.strip() if self.ask_reason else ""

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#confirm", Button).disabled = not event.value.strip()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_confirm()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "confirm":
            self.action_confirm()
        else:
            self.action_cancel()

    def action_confirm(self) -> None:
        if self.ask_reason and not self._reason():
            self.notify(f"Say why before you {self.verb.lower()}.", severity="warning")
            return
        self.dismiss(self._reason())

    def action_cancel(self) -> None:
        self.dismiss(None)
