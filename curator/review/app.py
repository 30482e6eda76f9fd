"""The review app and the factory that builds it, shared by ``curator review`` and the tests."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from textual.app import App

from curator.review import entries
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
        self._by: str | None = None
        self.now = now
        """The clock ages are shown against (None: the real one; snapshot tests fix it)."""

    @property
    def by(self) -> str:
        """Who decides: recorded in each event, as ``curator apply``/``reject`` record it.

        Read from git's config when the first decision is made (in its worker): opening the
        repository loads pygit2, which the queue's first paint does not need."""
        if self._by is None:
            from curator.operations import stage

            self._by = f"human:{stage.default_author(entries.fresh(self.vault)).name}"
        return self._by

    def on_mount(self) -> None:
        self.push_screen(QueueScreen())


def make_app(vault: Vault, settings: Settings, *, now: dt.datetime | None = None) -> ReviewApp:
    """The review app for ``vault``: what ``curator review`` runs and the tests drive."""
    return ReviewApp(vault, settings, now=now)
