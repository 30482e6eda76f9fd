"""``i``: a revision's diff against the revision it supersedes (``diffview.between``).

``Against`` is a widget that is never drawn: it owns which proposal is shown that way,
compares the two revisions in a worker and posts the diff (``Against.Compared``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.message import Message
from textual.widget import Widget

from curator.review import entries as entries_mod

if TYPE_CHECKING:
    from curator.diffview.model import DiffModel
    from curator.review.entries import Entry
    from curator.settings import Settings
    from curator.vault.discover import Vault


class Against(Widget):
    """Which revision's diff against the one it supersedes is shown, and the worker that makes it."""

    DEFAULT_CSS = """
    Against {
        display: none;
    }
    """

    class Compared(Message):
        """The diff between ``new`` and what it supersedes (None: nothing to show, ``why`` says why)."""

        def __init__(self, new: str, model: DiffModel | None, why: str) -> None:
            super().__init__()
            self.new = new
            self.model = model
            self.why = why

    def __init__(self, vault: Vault, settings: Settings) -> None:
        super().__init__()
        self.vault = vault
        self.settings = settings
        self.shown: str | None = None
        """The proposal whose diff against the revision it supersedes is shown (``i``), if any."""
        self.first: str | None = None
        """A revision just staged here (an edit): shown first with its diff against the one it supersedes."""

    def wants_first(self, entry: Entry | None) -> bool:
        """Once the revision just staged is highlighted and checked: its diff against the old one."""
        if entry is not None and entry.id == self.first and entry.report is not None and entry.supersedes:
            self.first = None
            return self.shown != entry.id
        return False

    @work(thread=True, exclusive=True, group="against")
    def compare(self, new: str, old: str) -> None:
        from curator.diffview.between import between
        from curator.diffview.model import build

        ours = entries_mod.check(self.vault, self.settings, new)
        theirs = entries_mod.check(self.vault, self.settings, old)
        readable = [r.subject is not None and r.subject.proposal.exists and r.subject.manifest for r in (ours, theirs)]
        if not all(readable):
            self.post_message(self.Compared(new, None, f"{old} cannot be read: nothing to compare with."))
            return
        assert ours.subject is not None and theirs.subject is not None
        views = between(theirs.subject, ours.subject)
        model = build(views, self.settings.producers.names) if views else None
        self.post_message(self.Compared(new, model, ""))
