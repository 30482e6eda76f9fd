"""Driving the real review app: the factory the CLI uses, and waits on conditions (never sleeps)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from curator.commands.app import App
from curator.review.app import ReviewApp, make_app
from curator.review.queue_screen import QueueScreen


def review_app(root: Path, *, keep_verdicts: bool = False) -> ReviewApp:
    """The app ``curator review`` runs; ``keep_verdicts``: with the index folder's kept verdicts,
    as the command has them (else each proposal is judged afresh)."""
    app = App(vault_arg=str(root))
    return make_app(*app.place()[:2], verdicts=app.verdicts() if keep_verdicts else None)


async def settle(pilot: Pilot[None]) -> None:
    """Wait until every worker is done and the messages they posted are handled."""
    for _ in range(50):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not any(w.is_running for w in pilot.app.workers):
            return
    raise AssertionError("the workers never finished")


async def until(pilot: Pilot[None], condition: Callable[[], bool], what: str) -> None:
    for _ in range(200):
        if condition():
            return
        await settle(pilot)
    raise AssertionError(f"never happened: {what}")


def screen(pilot: Pilot[None]) -> QueueScreen:
    s = pilot.app.screen_stack[1] if len(pilot.app.screen_stack) > 1 else pilot.app.screen
    assert isinstance(s, QueueScreen)
    return s
