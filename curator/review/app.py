"""The review app and the factory that builds it, shared by ``curator review`` and the tests."""

from __future__ import annotations

import datetime as dt
import io
from typing import TYPE_CHECKING

from rich.console import Console
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

    def __init__(
        self, vault: Vault, settings: Settings, *, now: dt.datetime | None = None, verdicts: str | None = None
    ) -> None:
        super().__init__()
        self.vault = vault
        self.settings = settings
        self.verdicts = verdicts
        """Where verdicts are kept between runs (``validator.verdicts``); None: each judged afresh."""
        self.now = now
        """The clock ages are shown against (None: the real one, which moves on; snapshot tests fix it)."""
        self.crashed: Exception | None = None
        """The first exception nothing in the app handled: ``curator review`` raises it once the
        app has left the screen, for the one handler every command's bug goes through (exit 3,
        one line, the traceback in the log)."""
        # Textual prints such an exception's traceback, with the local variables of each frame
        # (a proposal's text, a note's), as the app exits: that is the log's to keep, not the
        # terminal's.
        self.error_console = Console(file=io.StringIO(), stderr=True)

    def _handle_exception(self, error: Exception) -> None:
        # Textual's one hook for an exception a handler or worker did not catch (it then exits).
        if self.crashed is None:
            self.crashed = error
        super()._handle_exception(error)

    def on_mount(self) -> None:
        self.push_screen(QueueScreen(self.vault, self.settings, now=self.now, kept_in=self.verdicts))


def make_app(
    vault: Vault, settings: Settings, *, now: dt.datetime | None = None, verdicts: str | None = None
) -> ReviewApp:
    """The review app for ``vault``: what ``curator review`` runs and the tests drive. ``verdicts``:
    the folder verdicts are kept in between runs (``App.verdicts``), as ``curator proposals`` keeps them."""
    return ReviewApp(vault, settings, now=now, verdicts=verdicts)
