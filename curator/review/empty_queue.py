"""What the screen shows instead of the queue when nothing waits for review."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

EMPTY = """No proposals are waiting for review.

Proposals arrive in .kp/proposals/ when an agent calls kp_propose over MCP, when the
librarian runs `curator digest`, or when you stage your own edits with `curator propose`.
This screen fills in as soon as one is there: press d to see decided proposals, q to quit."""


class EmptyQueue(Static):
    """How proposals arrive, shown while the screen has the ``-empty`` class."""

    DEFAULT_CSS = """
    EmptyQueue {
        height: 1fr;
        padding: 1 2;
        color: $text-muted;
        display: none;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text(EMPTY), id=id)
