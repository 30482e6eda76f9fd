"""One line above the footer: the pre-flight's result, and why a key is disabled."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from curator.diffview.visible import visible
from curator.proposals.events import PENDING
from curator.review.entries import Entry


def explain(entry: Entry | None, checking: bool, marks: str = "") -> Text:
    if entry is None:
        return Text("")
    if entry.gone:
        return Text("This proposal is gone (its folder was removed).", style="grey62")
    if entry.status != PENDING:
        ev = entry.event
        when = f" {ev.at} by {visible(ev.by)}" if ev else ""
        return Text(f"{entry.status.capitalize()}{when}.", style="bold")
    if checking or not entry.checked:
        return Text("Pre-flight: the validator and the drift check are running…", style="italic grey62")
    text = Text()
    blocker = entry.apply_blocker
    if marks:
        text.append(marks, style="bold yellow")
        text.append(" (space and f mark and unmark).")
        return text
    if entry.requested is not None and blocker is None:
        text.append("Changes requested", style="bold yellow")
        text.append(f" by {visible(entry.requested.by)}; waiting for a revision. a still applies it.")
        return text
    if blocker is None:
        text.append("Valid", style="bold green")
        text.append(
            f" · {'new files only' if entry.drift in ('', 'new') else entry.drift}",
            style="green" if entry.drift != "drifted" else "yellow",
        )
        text.append(" — a applies it, r rejects it.")
        if entry.rebase_blocker is None:
            text.append(" b rebases it onto the vault as it is.")
        return text
    text.append("Apply disabled: ", style="bold red")
    text.append(blocker)
    text.append(".")
    return text


class StatusLine(Static):
    """The pre-flight's verdict for the highlighted proposal."""

    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        padding: 0 1;
        background: $panel;
    }
    """

    def show(self, entry: Entry | None, checking: bool = False, marks: str = "") -> None:
        self.update(explain(entry, checking, marks))
