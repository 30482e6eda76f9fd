"""The review screen's pre-flight: the validator and the drift check of the highlighted
proposal in a worker, with its stored diff drawn first so the reviewer reads while it runs
(the screen itself is ``QueueScreen``)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from textual import work
from textual.worker import get_current_worker

from curator.diffview.model import DiffModel, build
from curator.review import entries as entries_mod
from curator.review.entries import Entry
from curator.review.loading import wait_for
from curator.review.screen_part import ScreenPart

if TYPE_CHECKING:
    from curator.validator.verdict import ProposalReport

# Diff sections read for the first screen of a proposal's stored diff, before all of them.
STORED_FIRST = 40


class Preflight(ScreenPart):
    """What the review screen checks of the proposal it shows (the screen is ``QueueScreen``)."""

    def _check(self, ulid: str, stored_first: bool = False) -> None:
        """Start the pre-flight of ``ulid``; until this one's result is in, ``a`` stays disabled."""
        self.checking.add(ulid)
        token = self._tokens[ulid] = object()
        diff = self.diff
        shown = diff.drawn if diff.of == ulid and diff.model is not None else None
        self.preflight(ulid, token, shown, stored_first)

    @work(thread=True, exclusive=True, group="preflight")
    def preflight(self, ulid: str, token: object, shown: threading.Event | None, stored_first: bool = False) -> None:
        """The validator and the drift check for the highlighted proposal, and its diff rows.

        With ``stored_first`` (nothing of this proposal is shown yet), its stored diff is
        read and drawn first, so the reviewer reads while the pre-flight runs; ``a`` stays
        disabled until the pre-flight's result is in."""
        review = self.review
        worker = get_current_worker()
        producers = review.settings.producers.names
        # From here the queue's worker leaves this proposal to us (no second check of a large one).
        self.preflighting.add(ulid)
        try:
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
            # A screenful of files first, then all of them (an adopt proposal has thousands).
            for first in (STORED_FIRST, None) if stored_first else ():
                stored = entries_mod.stored_changes(review.vault, review.settings, ulid, first)
                if stored is None or worker.is_cancelled:
                    break
                changes, more = stored
                drawn = threading.Event()
                self.app.call_from_thread(self._stored, ulid, build(changes, producers, more=more), drawn)
                drawn.wait(timeout=2)
                if not more:
                    break
            if worker.is_cancelled:
                return
            report = entries_mod.check(review.vault, review.settings, ulid)
            model = build(report.subject.changes, producers) if report.subject else None
            # Delivered even when the reviewer has moved on: it is this proposal's verdict.
            self.app.call_from_thread(self._preflight_done, ulid, token, report, model)
        finally:
            self.preflighting.discard(ulid)

    def _stored(self, ulid: str, model: DiffModel, drawn: threading.Event) -> None:
        if self.closing:
            drawn.set()
            return
        shown = self.models.get(ulid)
        if ulid in self.checking and (shown is None or shown is self._partial.get(ulid)):
            self._partial[ulid] = model
            self.models[ulid] = model
            if ulid == self.queue.chosen:
                self._show(self.queue.entries.get(ulid))
        self.call_after_refresh(drawn.set)

    def _preflight_done(self, ulid: str, token: object, report: ProposalReport, model: DiffModel | None) -> None:
        if self.closing:
            return
        if self._tokens.get(ulid) is token:
            self.checking.discard(ulid)
        self._partial.pop(ulid, None)
        entry = self.queue.entries.get(ulid) or Entry(ulid)
        entries_mod.fill(entry, report)
        self.queue.update_entry(entry)
        if model is not None:
            self.models[ulid] = model
        else:
            self.models.pop(ulid, None)
        if ulid == self.queue.chosen:
            self._show(entry)
