"""The queue's first frame needs none of the validator's weight: no pygit2, pydantic or pygments yet.

Those load in the workers after the first paint (the validator, the decisions, a viewed file)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import GitVault

PROBE = """
import asyncio, sys
from curator.app import App
from curator.review.app import make_app
from curator.review.queue_screen import QueueScreen

WATCHED = ("pygit2", "pydantic", "pygments", "curator.validator")


async def main() -> None:
    app = make_app(App(vault_arg=sys.argv[1]))
    seen = []
    display = app._display

    def watched(screen, update):
        display(screen, update)
        s = app.screen
        if not seen and isinstance(s, QueueScreen) and s.queue.row_count:
            seen.append(sorted(m for m in WATCHED if m in sys.modules))

    app._display = watched
    async with app.run_test(size=(110, 32)):
        while not seen:
            await asyncio.sleep(0.01)
    print("LOADED=" + ",".join(seen[0]))


asyncio.run(main())
"""


def test_the_first_frame_loads_nothing_heavy(example_vault: GitVault) -> None:
    r = subprocess.run([sys.executable, "-c", PROBE, str(example_vault.root)], capture_output=True, text=True)
    assert r.stdout.rstrip().endswith("LOADED="), r.stdout + r.stderr
