"""``curator review``: the review UI (Textual), imported only here."""

from __future__ import annotations

import sys

from curator.commands.app import App
from curator.errors import UsageError


def run(app: App) -> int:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("curator review needs a terminal", hint="use curator proposals, apply and reject in scripts")
    from curator.review.app import make_app

    vault = app.vault()
    from curator.operations import journal

    if journal.load(vault) is not None:
        from curator.operations.lock import vault_lock

        with vault_lock(vault, "recover"):
            pass  # taking the lock finishes or undoes an interrupted apply before the queue is read
    make_app(app).run()
    return 0
