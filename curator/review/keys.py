"""Which of the review screen's keys act on the highlighted proposal now (the others are shown
disabled in the footer, and do nothing)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from curator.proposals.events import PENDING

if TYPE_CHECKING:
    from curator.review.entries import Entry

# Keys whose footer entry is redrawn (enabled or not) when the highlighted proposal changes.
FOOTER_KEYS = ("apply", "reject", "rebase", "preview", "toggle_hunk", "edit", "request_changes")


def live(action: str, entry: Entry | None, *, checking: bool, kept: bool, comparing: bool) -> bool | None:
    """True when ``action`` acts on ``entry``, None when it is disabled (Textual's convention).

    ``checking``: its pre-flight is running; ``kept``: hunks of it are marked; ``comparing``:
    the diff shown is against the revision it supersedes (``i``)."""
    pending = entry is not None and entry.status == PENDING and not entry.gone
    if action == "apply":
        # Never on a result older than the pre-flight that is running now. Hunks kept of a
        # conflicting proposal may apply: their revision is judged on its own.
        ok = entry is not None and not checking and (entry.apply_blocker is None or kept)
    elif action in ("reject", "request_changes"):
        ok = pending
    elif action == "rebase":
        ok = entry is not None and entry.rebase_blocker is None and not checking
    elif action in ("preview", "split", "jump", "against"):
        ok = entry is not None
    elif action in ("toggle_hunk", "toggle_file", "edit"):
        ok = pending and entry is not None and entry.report is not None and not comparing
    else:
        return True
    return True if ok else None
