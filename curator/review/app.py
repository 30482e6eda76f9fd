"""The review app and the factory that builds it, shared by ``curator review`` and the tests."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from textual.app import App

from curator.review.queue_screen import QueueScreen

if TYPE_CHECKING:
    from curator.settings import Settings
    from curator.vault.discover import Vault


class ReviewApp(App[None]):
    """Clear the proposal queue from the keyboard."""

    TITLE = "Curator review"
    # Quitting is a screen key (q), so a dialog that is open cannot be quit through.
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, vault: Vault, settings: Settings, *, now: dt.datetime | None = None) -> None:
        super().__init__()
        self.vault = vault
        self.settings = settings
        self.now = now
        """The clock ages are shown against (None: the real one; snapshot tests fix it)."""

    def on_mount(self) -> None:
        self.push_screen(QueueScreen(self.vault, self.settings, now=self.now))


def make_app(vault: Vault, settings: Settings, *, now: dt.datetime | None = None) -> ReviewApp:
    """The review app for ``vault``: what ``curator review`` runs and the tests drive."""
    return ReviewApp(vault, settings, now=now)
