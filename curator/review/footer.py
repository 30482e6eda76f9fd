"""The footer: the screen's keys, compact, with ``? Help`` and ``q Quit`` always in view.

Textual's footer scrolls its keys off the right edge when they do not fit (at 80 columns
the review screen's do not). Help and quit are docked at the right instead, as Textual
docks the command palette's key, so a reviewer can always see how to learn the rest
and how to leave.
"""

from __future__ import annotations

import dataclasses

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

# Actions whose keys stay in view, in this order at the right.
KEPT = ("help", "app.quit")


class ReviewFooter(Footer):
    DEFAULT_CSS = """
    ReviewFooter HorizontalGroup.-kept {
        dock: right;
        width: auto;
        padding-left: 1;
    }
    """

    def __init__(self) -> None:
        super().__init__(compact=True, show_command_palette=False)

    def compose(self) -> ComposeResult:
        kept: dict[str, FooterKey] = {}
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.action in KEPT:
                kept[widget.action] = widget
            else:
                yield widget
        if kept:
            # One group: widgets docked at the same edge would be drawn over each other.
            yield HorizontalGroup(*(kept[a] for a in KEPT if a in kept), classes="-kept")


def relabel(screen: Screen[None], key: str, label: str) -> None:
    """The footer's entry for ``key`` says ``label`` (``space Keep 1/3``): the screen's own copy
    of the binding, relabelled."""
    found = screen._bindings.key_to_bindings.get(key)
    if not found or found[0].description == label:
        return
    screen._bindings.key_to_bindings[key] = [dataclasses.replace(b, description=label) for b in found]
    screen.refresh_bindings()
