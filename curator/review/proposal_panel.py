"""The highlighted proposal: its detail beside its diff, with the pre-flight that checks it, what
the reviewer keeps of it, and its diff against the revision it supersedes (``i``).

``ProposalPanel`` composes ``DetailPane`` and ``DiffPane`` with ``Preflight`` and ``Against``
(never drawn); their messages bubble through it to the screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal

from curator.proposals.events import PENDING
from curator.review.against import Against
from curator.review.detail import DetailPane
from curator.review.diff_pane import DiffPane
from curator.review.preflight import Preflight
from curator.review.preview import PreviewScreen, preview_of

if TYPE_CHECKING:
    from curator.proposals.revision import Selection
    from curator.review.entries import Entry
    from curator.validator.subject import ChangeView


def all_changes(entry: Entry | None) -> list[ChangeView]:
    return entry.report.subject.changes if entry and entry.report and entry.report.subject else []


class ProposalPanel(Horizontal):
    """What the reviewer reads of the highlighted proposal before deciding."""

    DEFAULT_CSS = """
    ProposalPanel {
        height: 1fr;
    }
    ProposalPanel #detail {
        width: 38%;
        min-width: 28;
    }
    ProposalPanel #diff {
        width: 1fr;
    }
    ProposalPanel.-split #detail {
        display: none;
    }
    """

    def __init__(self, preflight: Preflight, against: Against, *, id: str | None = None) -> None:
        # Made by the screen, which holds what they need (the queue's first frame, where verdicts
        # are kept): the pre-flight's arguments are spelled once, by its own __init__.
        super().__init__(id=id)
        self._parts = (preflight, against)

    def compose(self) -> ComposeResult:
        yield DetailPane(id="detail")
        yield DiffPane(id="diff")
        yield from self._parts

    def on_mount(self) -> None:
        self.query_one(DetailPane).border_title = "Proposal"
        self.diff.border_title = "Changes"

    @property
    def diff(self) -> DiffPane:
        return self.query_one(DiffPane)

    @property
    def preflight(self) -> Preflight:
        return self._parts[0]

    @property
    def against(self) -> Against:
        return self._parts[1]

    def toggle_split(self) -> None:
        # Side by side needs the width: the detail pane steps aside until split is off again.
        self.diff.split = not self.diff.split
        self.set_class(self.diff.split, "-split")

    # --- what is shown ------------------------------------------------------------------

    def show(self, entry: Entry | None) -> None:
        """Show ``entry``'s detail and its latest diff (the diff against the revision it
        supersedes stays while ``i`` has it on), with what the reviewer keeps of it."""
        self.query_one(DetailPane).show(entry)
        diff, against, models = self.diff, self.against, self.preflight.models
        if against.shown is not None and (entry is None or entry.id != against.shown):
            against.shown = None
            diff.border_title = "Changes"
        if against.shown is not None:
            pass  # the diff against the superseded revision stays until i is pressed again
        elif entry is None:
            diff.show(None, "No proposal selected.")
        elif entry.gone:
            diff.show(None, "The proposal's folder is gone.")
        elif entry.id in models:
            if diff.model is not models[entry.id]:
                diff.show(models[entry.id], of=entry.id)
        else:
            diff.show(None, "Checking…")
        if against.shown is None:
            changes = self.changes(entry)
            if entry is None or changes is None or diff.model is None:
                diff.set_marks(frozenset())
            else:
                diff.set_marks(diff.kept.rows(entry.id, diff.model, changes))
        if against.wants_first(entry) and entry is not None:
            self.toggle_against(entry)

    def changes(self, entry: Entry | None) -> list[ChangeView] | None:
        """The highlighted proposal's changes, when the diff shown is drawn from them."""
        if entry is None or entry.report is None or entry.report.subject is None or entry.status != PENDING:
            return None
        model = self.preflight.models.get(entry.id)
        changes = entry.report.subject.changes
        if model is None or self.diff.model is not model or len(model.files) != len(changes):
            return None
        return changes

    def decided(self, ulid: str, outcome: str, new: str | None) -> None:
        """``ulid`` was decided here (``Decisions.Done``): its diff and marks are stale; an edit's
        revision is shown first against the one it supersedes."""
        self.preflight.forget(ulid)
        if outcome in ("edited", "partly applied"):
            self.diff.kept.drop(ulid)
        if outcome == "edited":
            self.against.first = new

    # --- what the reviewer keeps ------------------------------------------------------------

    def kept(self, entry: Entry) -> Selection | None:
        return self.diff.kept.selection(entry.id, all_changes(entry))

    def kept_line(self, entry: Entry | None) -> str:
        return self.diff.kept.line(entry.id, all_changes(entry)) if entry is not None else ""

    def keep_label(self, entry: Entry | None) -> str:
        return self.diff.kept.label(entry.id if entry else None, self.changes(entry) or [])

    def at(self, entry: Entry | None) -> tuple[list[ChangeView], int] | None:
        """The changes of ``entry`` and the diff row the reviewer is at, once its diff is the
        pre-flight's (None before)."""
        changes = self.changes(entry)
        row = self.diff.current_row()
        if entry is None or changes is None or row is None or self.diff.model is None:
            return None
        return changes, row

    def toggle(self, entry: Entry, whole_file: bool) -> bool:
        """Keep the hunk at ``▸`` (or its whole file), or stop keeping it; False when not ready."""
        at = self.at(entry)
        if at is None or self.diff.model is None:
            return False
        self.diff.kept.toggle(entry.id, self.diff.model, *at, whole_file)
        return True

    # --- other views of it ------------------------------------------------------------------

    def preview(self, entry: Entry) -> PreviewScreen | None:
        """``v``: the file at the top of the diff, as proposed."""
        model = self.preflight.models.get(entry.id)
        return preview_of(entry, self.diff.top_file(model)) if model is not None else None

    def toggle_against(self, entry: Entry) -> str | None:
        """``i``: the diff against the revision ``entry`` supersedes, or its own again (drawn by
        the next ``show``); what to tell the reviewer when there is no such revision."""
        diff, against = self.diff, self.against
        if against.shown == entry.id:
            against.shown = None
            diff.border_title = "Changes"
            diff.show(None, "Checking…", of=None)
            return None
        old = entry.supersedes
        if not old:
            return "This proposal is not a revision of another one."
        against.shown = entry.id
        diff.border_title = f"Changes against {old} (the revision it supersedes)"
        diff.show(None, f"Comparing with {old}…", of=None)
        against.compare(entry.id, old)
        return None

    def on_against_compared(self, message: Against.Compared) -> None:
        message.stop()
        if self.against.shown != message.new or not self.is_attached:
            return
        if message.model is None:
            self.diff.show(None, message.why or "No difference: the two revisions leave the files the same.")
        else:
            self.diff.show(message.model, of=f"{message.new} against")
