"""``curator review``: the review UI (Textual), imported only here."""

from __future__ import annotations

import sys

from curator.commands.app import App
from curator.errors import UsageError


def run(app: App) -> int:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("curator review needs a terminal", hint="use curator proposals, apply and reject in scripts")
    from curator.review.app import make_app

    app.vault()  # finishes or undoes an interrupted operation before the queue is read
    make_app(app.vault(), app.settings()).run()
    return 0
