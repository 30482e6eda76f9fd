"""``v``: the proposed post-image of one file, whole and read-only.

Shown in the UI rather than in ``$PAGER``: a pager set to pass escapes through
(``less -R``, a common setting) would let a proposal's bytes drive the
terminal. Here every line is made visible first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from curator.diffview.visible import visible, visible_line
from curator.proposals.hunks import split_lines

if TYPE_CHECKING:
    from curator.review.entries import Entry


class PreviewScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    PreviewScreen {
        background: $background 60%;
    }
    PreviewScreen > VerticalScroll {
        margin: 1 2;
        border: thick $primary;
        border-title-color: $text;
        background: $surface;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,v", "close", "Close")]

    def __init__(self, path: str, content: str | None, note: str = "") -> None:
        super().__init__()
        self.path = path
        self.content = content
        self.note = note

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll()
        scroll.border_title = f"{self.path} — as proposed (read-only)"
        with scroll:
            if self.content is None:
                yield Static(Text(self.note or "Nothing to show.", style="italic"))
            else:
                code = "\n".join(visible_line(line) for line in split_lines(self.content))
                from rich.syntax import Syntax  # pygments: loaded when a file is first viewed, not at start

                yield Static(Syntax(code, "markdown", theme="ansi_dark", line_numbers=True, word_wrap=True))

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


def preview_of(entry: Entry, file: int) -> PreviewScreen | None:
    """``v`` on ``entry``: file number ``file`` of its changes as proposed (None: nothing to show)."""
    if entry.report is None or entry.report.subject is None or not entry.report.subject.changes:
        return None
    changes = entry.report.subject.changes
    view = changes[min(file, len(changes) - 1)]
    path = visible(view.change.path)
    if view.change.op == "delete":
        return PreviewScreen(path, None, "The proposal deletes this file.")
    text = view.post_text
    note = "" if text is not None else "Not shown: the proposed file cannot be worked out or is not text."
    return PreviewScreen(path, text, note)
