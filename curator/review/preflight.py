"""The pre-flight of the highlighted proposal: the validator and the drift check in a worker,
with its stored diff drawn first so the reviewer reads while it runs.

``Preflight`` is a widget that is never drawn: it owns what is being checked and the diff
models made so far, runs the worker, and hears its results as its own messages
(``Preflight.Stored``, ``Preflight.Done``), which then bubble up for the screen to show.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from textual import work
from textual.message import Message
from textual.widget import Widget
from textual.worker import Worker, get_current_worker

from curator.diffview.model import DiffModel, build
from curator.proposals.events import PENDING
from curator.review import entries as entries_mod
from curator.review import stored as stored_mod
from curator.review.loading import wait_for

if TYPE_CHECKING:
    from curator.review.entries import Entry
    from curator.settings import Settings
    from curator.validator.verdict import ProposalReport
    from curator.validator.verdicts import Verdict
    from curator.vault.discover import Vault

# Diff sections read for the first screen of a proposal's stored diff, before all of them.
STORED_FIRST = 40


class Preflight(Widget):
    """What the review screen checks of the proposal it shows, and the diffs it has made."""

    DEFAULT_CSS = """
    Preflight {
        display: none;
    }
    """

    class Stored(Message):
        """A diff drawn from the proposal's own files, while its pre-flight runs."""

        def __init__(self, ulid: str, token: object, model: DiffModel, drawn: threading.Event) -> None:
            super().__init__()
            self.ulid = ulid
            self.token = token
            self.model = model
            self.drawn = drawn
            """Set once the frame showing it is drawn (the worker waits before reading on)."""
            self.kept = False
            """True when the pre-flight kept it as the proposal's diff (none better is in)."""

    class Kept(Message):
        """The verdict kept of the proposal (``validator.verdicts``), of the folder with ``digest``:
        the pre-flight's result, before its report (for the diff) is made."""

        def __init__(self, ulid: str, token: object, kept: Verdict, digest: str) -> None:
            super().__init__()
            self.ulid = ulid
            self.token = token
            self.kept = kept
            self.digest = digest
            self.current = True
            """False when it was decided, or checked again, since this pre-flight began."""

    class Done(Message):
        """The pre-flight's report, and the diff drawn from it (None: nothing to draw)."""

        def __init__(self, ulid: str, token: object, report: ProposalReport, model: DiffModel | None) -> None:
            super().__init__()
            self.ulid = ulid
            self.token = token
            self.report = report
            self.model = model
            self.current = True
            """False when it was decided, or checked again, since this pre-flight began."""

    def __init__(
        self,
        vault: Vault,
        settings: Settings,
        first_frame: threading.Event,
        painted: threading.Event,
        kept_in: str | None = None,
    ) -> None:
        super().__init__()
        self.vault = vault
        self.settings = settings
        self.kept_in = kept_in
        """Where verdicts are kept between runs (``validator.verdicts``); None: judged afresh."""
        self.first_frame = first_frame
        """The queue's first frame: nothing here runs before it is on the screen."""
        self.painted = painted
        self.checking: set[str] = set()
        """Proposals whose pre-flight result is not in yet (``a`` stays disabled)."""
        self.models: dict[str, DiffModel] = {}
        """The latest diff of each proposal looked at: the pre-flight's, or the stored diff's until it is in."""
        self._partial: dict[str, DiffModel] = {}
        """Models drawn from a stored diff while the pre-flight runs (replaced as more is read)."""
        self.running: set[str] = set()
        """Proposals a pre-flight worker is validating, or is about to (read by the queue's
        worker, which leaves them to it: no second check of a large one)."""
        self._workers: dict[Worker[None], str] = {}
        self._tokens: dict[str, object] = {}
        """The latest pre-flight asked for, per proposal: only its result ends the checking state."""

    def begin(self, entry: Entry) -> bool:
        """The reviewer highlighted ``entry``: it is being checked from now. Its diff is the queue's
        validator's, when that has read it; True when nothing of it is drawn yet."""
        self.checking.add(entry.id)
        self.adopt(entry)
        return entry.id not in self.models

    def adopt(self, entry: Entry) -> None:
        """Draw ``entry``'s diff from the report the queue's validator made, if none is drawn yet."""
        if entry.id not in self.models and entry.report is not None:
            model = self._model(entry.report)
            if model is not None:
                self.models[entry.id] = model

    def _model(self, report: ProposalReport) -> DiffModel | None:
        if report.subject is None:
            return None
        return build(report.subject.changes, self.settings.producers.names, drift=report.status == PENDING)

    def forget(self, ulid: str) -> None:
        """``ulid`` was decided, or its folder rewritten: drop its diff, and whatever a pre-flight
        that began before says of it (its result is of the proposal and vault as they were)."""
        self.models.pop(ulid, None)
        self._partial.pop(ulid, None)
        self._tokens.pop(ulid, None)
        # The queue's worker judges it again now, not waiting on a result that is dropped: a kept
        # verdict enables a decision while the report for the diff is still being made.
        self.running.discard(ulid)

    def check(self, ulid: str, stored_first: bool = False, shown: threading.Event | None = None) -> None:
        """Start the pre-flight of ``ulid``; until this one's result is in, ``a`` stays disabled.
        ``shown``: set once the diff shown now is drawn (the worker waits for it)."""
        self.checking.add(ulid)
        token = self._tokens[ulid] = object()
        # Marked here, on the UI thread, before the worker is even started: the queue's worker
        # must never find it unmarked and validate it a second time.
        self.running.add(ulid)
        self._workers[self.run_check(ulid, token, shown, stored_first)] = ulid

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # Unmarked once no worker of it is left, here rather than in the worker: one that was
        # cancelled before it started never runs a line of its own.
        if event.worker.is_finished and event.worker in self._workers:
            ulid = self._workers.pop(event.worker)
            if ulid not in self._workers.values():
                self.running.discard(ulid)

    @work(thread=True, exclusive=True, group="preflight")
    def run_check(self, ulid: str, token: object, shown: threading.Event | None, stored_first: bool = False) -> None:
        """The validator and the drift check for the highlighted proposal, and its diff rows.

        With ``stored_first`` (nothing of this proposal is shown yet), its stored diff is
        read and drawn first, so the reviewer reads while the pre-flight runs; ``a`` stays
        disabled until the pre-flight's result is in."""
        worker = get_current_worker()
        # The queue's first frame, and what the highlight drew, come before any of this: the
        # validator would hold the interpreter lock while the screen is being drawn. Rows
        # are rendered before the frame is on the screen: it is the frame that is waited for.
        if not wait_for(self.first_frame, worker):
            return
        self.painted.wait(timeout=2)
        if shown is not None:
            shown.wait(timeout=1)
        if worker.is_cancelled:
            return
        kept, done = entries_mod.kept(self.vault, self.settings, ulid, self.kept_in)
        # Judged before on the same proposal, HEAD, config and work tree (curator proposals,
        # validate, this queue): the verdict is in at once, and a applies the folder it is of.
        # It is looked up before the stored diff is read (a 6,500-change manifest is seconds of
        # YAML); the report that draws the diff follows, the rules not run again.
        if kept is not None and not self.post_message(self.Kept(ulid, token, *kept)):
            return
        # A screenful of files first (an adopt proposal has thousands); the rest come with the
        # report. Reading and drawing the whole stored diff first held the verdict of a
        # 6,500-note adopt back by seconds, for a list the report draws again.
        more = self._stored(ulid, token, STORED_FIRST, worker) if stored_first else 0
        if more is None or worker.is_cancelled:
            return
        report = entries_mod.check(self.vault, self.settings, ulid, self.kept_in, done)
        model = self._model(report)
        # Delivered even when the reviewer has moved on: it is this proposal's verdict.
        self.post_message(self.Done(ulid, token, report, model))

    def _stored(self, ulid: str, token: object, first: int | None, worker: Worker[None]) -> int | None:
        """Draw the stored diff's first ``first`` files (None: all) and wait for its frame: how
        many files are left out (0 when it cannot be read), None when the app is closing."""
        stored = stored_mod.stored_changes(self.vault, self.settings, ulid, first)
        if stored is None or worker.is_cancelled:
            return 0
        changes, more = stored
        drawn = threading.Event()
        model = build(changes, self.settings.producers.names, more=more)
        if not self.post_message(self.Stored(ulid, token, model, drawn)):
            return None
        drawn.wait(timeout=2)
        return more

    def on_preflight_stored(self, message: Stored) -> None:
        ulid = message.ulid
        shown = self.models.get(ulid)
        # Its pre-flight's report is not in (a kept verdict may be): drawn until that report is.
        current = self._tokens.get(ulid) is message.token
        if current and (shown is None or shown is self._partial.get(ulid)):
            self._partial[ulid] = self.models[ulid] = message.model
            message.kept = True

    def on_preflight_kept(self, message: Kept) -> None:
        message.current = self._tokens.get(message.ulid) is message.token
        if message.current:
            self.checking.discard(message.ulid)

    def on_preflight_done(self, message: Done) -> None:
        ulid = message.ulid
        message.current = self._tokens.get(ulid) is message.token
        if not message.current:
            return  # a newer pre-flight of it is running, or it was decided since this one began
        self.checking.discard(ulid)
        self._partial.pop(ulid, None)
        if message.model is not None:
            self.models[ulid] = message.model
        else:
            self.models.pop(ulid, None)
