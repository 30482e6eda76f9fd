"""``e``: edit the proposed file before applying it, in ``$VISUAL``/``$EDITOR`` or in the app.

The text edited is the proposed post-image (the file as the proposal would leave it);
what is saved becomes a revision of the reviewer's own (``operations.revise.edit``).
With an editor set, the app steps aside (``App.suspend``) while it runs on a temporary
copy; without one, ``EditScreen`` edits it in a ``TextArea`` (``ctrl+s`` keeps the edit,
``Esc`` leaves without one, asking twice when there is an edit to lose).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import tempfile
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

# Editors that take ``+LINE`` before the file to open it at that line.
_AT_LINE = frozenset({"vi", "vim", "nvim", "view", "nano", "emacs", "emacsclient", "micro", "kak", "joe", "mg"})


def editor_command() -> list[str] | None:
    """``$VISUAL``, else ``$EDITOR``, split as a shell would; None when neither is set."""
    for name in ("VISUAL", "EDITOR"):
        value = os.environ.get(name, "").strip()
        if value:
            try:
                words = shlex.split(value)
            except ValueError:
                continue
            if words:
                return words
    return None


def run_editor(app: App[None], command: list[str], text: str, line: int | None, suffix: str) -> str | None:
    """``text`` edited in ``command`` on a temporary file (the app suspended meanwhile); the text
    saved, or None when the editor failed or could not start."""
    fd, path = tempfile.mkstemp(prefix="curator-edit-", suffix=suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        args = [*command]
        if line and os.path.basename(command[0]) in _AT_LINE:
            args.append(f"+{line}")
        args.append(path)
        try:
            with app.suspend():
                done = subprocess.run(args, check=False)
        except Exception as e:  # not a terminal the app can leave (a test's headless driver)
            if type(e).__name__ != "SuspendNotSupported":
                raise
            done = subprocess.run(args, check=False, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            return None
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)


class EditScreen(ModalScreen[str | None]):
    """The proposed file in a ``TextArea``: ``ctrl+s`` keeps the edit, ``Esc`` discards it."""

    DEFAULT_CSS = """
    EditScreen {
        background: $background 60%;
    }
    EditScreen > Vertical {
        margin: 1 2;
        border: thick $warning;
        border-title-color: $text;
        background: $surface;
    }
    EditScreen #edit-help {
        height: 1;
        color: $text-muted;
        padding: 0 1;
    }
    EditScreen TextArea {
        height: 1fr;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Stage my revision", priority=True),
        # Above the TextArea's own use of Esc; with an edit made, the first Esc only warns.
        Binding("escape", "cancel", "Cancel", priority=True),
    ]

    def __init__(self, path: str, text: str, line: int | None = None) -> None:
        super().__init__()
        self.path = path
        self.text = text
        self.line = line
        self._warned = False

    def compose(self) -> ComposeResult:
        box = Vertical()
        box.border_title = f"{self.path} — as proposed, yours to edit"
        with box:
            yield Static(
                Text("ctrl+s stages your edit as a revision of the proposal (nothing is applied) · Esc cancels"),
                id="edit-help",
            )
            yield TextArea(self.text, id="edit-text", soft_wrap=True, show_line_numbers=True, tab_behavior="indent")

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        if self.line:
            area.move_cursor((max(0, self.line - 1), 0))

    def action_save(self) -> None:
        self.dismiss(self.query_one(TextArea).text)

    def action_cancel(self) -> None:
        if self.query_one(TextArea).text != self.text and not self._warned:
            self._warned = True
            self.notify("Esc again discards your edit; ctrl+s stages it.", severity="warning", timeout=5)
            return
        self.dismiss(None)


def line_of(header: str) -> int | None:
    """The first new-side line a hunk header names (``@@ -a,b +c,d @@`` → c): where to open."""
    try:
        new = header.split("+", 1)[1].split(" ", 1)[0]
        return max(1, int(new.split(",", 1)[0]))
    except (IndexError, ValueError):
        return None
