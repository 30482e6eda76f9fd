"""The queue's first frame needs none of the validator's weight: no pygit2, pydantic or pygments yet.

Those load in the workers after the first paint (the validator, the decisions, a viewed file),
however long a loaded machine takes to finish that frame."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import GitVault

PROBE = """
import asyncio, sys, time
from curator.commands.app import App
from curator.review.app import make_app
from curator.review.queue_screen import QueueScreen

SLOW = float(sys.argv[2])

WATCHED = ("pygit2", "pydantic", "pygments", "curator.validator.verdict")


async def main() -> None:
    app = make_app(*App(vault_arg=sys.argv[1]).place()[:2])
    seen = []
    display = app._display

    def watched(screen, update):
        display(screen, update)
        s = app.screen
        if not seen and isinstance(s, QueueScreen) and s.queue.row_count:
            # A busy machine: the frame with the rows is rendered, and the UI thread is held
            # before that frame is done. The workers must not start on what was rendered.
            time.sleep(SLOW)
            seen.append(sorted(m for m in WATCHED if m in sys.modules))

    app._display = watched
    async with app.run_test(size=(110, 32)):
        while not seen:
            await asyncio.sleep(0.01)
    print("LOADED=" + ",".join(seen[0]))


asyncio.run(main())
"""


@pytest.mark.parametrize("slow", [0.0, 8.0], ids=["quick-frame", "slow-frame"])
def test_the_first_frame_loads_nothing_heavy(example_vault: GitVault, slow: float) -> None:
    r = subprocess.run(
        [sys.executable, "-c", PROBE, str(example_vault.root), str(slow)],
        capture_output=True,
        text=True,
        timeout=120,  # a queue whose rows are never drawn fails here instead of hanging the suite
    )
    assert r.stdout.rstrip().endswith("LOADED="), r.stdout + r.stderr
