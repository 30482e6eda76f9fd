"""``curator review``: the review UI (Textual), imported only here."""

from __future__ import annotations

import sys

from curator.commands.app import App
from curator.errors import UsageError


def run(app: App) -> int:
    try:
        from curator.review.app import make_app  # heavy: textual, only this command loads it
    except ImportError as e:
        if e.name and e.name.split(".")[0] == "textual":
            raise UsageError(
                "the review UI is not installed", hint="pip install 'curator[review]' (the review extra)"
            ) from None
        raise
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("curator review needs a terminal", hint="use curator proposals, apply and reject in scripts")

    app.vault()  # finishes or undoes an interrupted operation before the queue is read
    review = make_app(app.vault(), app.settings(), verdicts=app.verdicts())
    review.run()
    if review.crashed is not None:
        raise review.crashed  # a bug inside the UI: exit 3 and one line, as in every command
    return 0
