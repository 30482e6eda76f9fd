"""Loading the queue: the rows from the manifests for the first paint, then every verdict.

A worker lists the proposals, reads the manifests of the first screen's rows (plain
YAML), lets the first frame be drawn, reads the rest, then runs the validator over
the queue, handing reports to the UI thread in batches. ``QueueScreen`` holds it.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from textual import work
from textual.worker import Worker, get_current_worker

from curator.review import entries as entries_mod
from curator.review.entries import Entry
from curator.review.screen_part import ScreenPart

if TYPE_CHECKING:
    from curator.validator.verdict import ProposalReport

# Reports are handed to the UI thread in batches, so a queue of 500 repaints a few times, not 500.
BATCH = 25
# Manifests read before the first paint (a screen's rows and then some), and per batch after it.
FIRST_MANIFESTS = 24
MANIFEST_BATCH = 100


def wait_for(event: threading.Event, worker: Worker[None]) -> bool:
    """Wait for ``event`` however long it takes; False when the worker is cancelled first.

    No time bound: on a loaded machine the first frame can take seconds, and a worker that
    gave up waiting would load the validator while that frame is still being drawn. Each
    event waited on this way is set by the UI thread for as long as the app runs."""
    while not event.wait(0.05):
        if worker.is_cancelled:
            return False
    return True


class QueueLoading(ScreenPart):
    """The review screen's queue worker (the screen itself is ``QueueScreen``)."""

    @work(thread=True, exclusive=True, group="queue")
    def load_queue(self, select: str | None = None) -> None:
        """List the queue from the manifests at once, then validate every proposal in the background.

        The first paint needs the rows of the first screen and nothing else: their
        manifests are read (plain YAML, no pydantic), then the frame is drawn, then the
        other manifests, then the validator fills in verdicts and drift."""
        review = self.review
        worker = get_current_worker()
        listed = entries_mod.list_queue(review.vault)
        # The queue's own dict, read from this thread (no widget lookup off the UI thread).
        known = set(self.queue_entries)
        # Oldest first, as the queue opens (sorted by age).
        unread = [ulid for ulid, hint in listed if ulid not in known and not hint]
        first = {ulid: entries_mod.read_manifest(review.vault, ulid) for ulid in unread[:FIRST_MANIFESTS]}
        painted = threading.Event()
        self.app.call_from_thread(self._listed, listed, first, select, painted)
        # Drawn before the rest is read: every worker here wants the one interpreter lock,
        # and the first paint of a long queue matters more than the rows below it.
        if not wait_for(painted, worker):
            return
        if listed:
            # The frame is done; its rows are drawn by now unless the table shows none (a
            # terminal a few lines high), which must not hold the verdicts back for long.
            self.painted.wait(timeout=2)
        # Now the large manifests too, and the first ones that were too large before the paint.
        cap = review.settings.limits.max_proposal_bytes
        rest = [u for u, data in first.items() if data is None] + unread[FIRST_MANIFESTS:]
        for at in range(0, len(rest), MANIFEST_BATCH):
            if worker.is_cancelled:
                return
            batch = {
                ulid: entries_mod.read_manifest(review.vault, ulid, cap) for ulid in rest[at : at + MANIFEST_BATCH]
            }
            self.app.call_from_thread(self._summarised, batch)
        ids = [ulid for ulid, _hint in listed]
        # A proposal whose pre-flight is running is left to it (the same check; its report comes).
        # One the reviewer moved away from before its check began gets no report from there:
        # those are checked here at the end.
        left: list[str] = []

        def skip(ulid: str) -> bool:
            if ulid in self.preflighting:
                left.append(ulid)
                return True
            return False

        batch_reports: list[ProposalReport] = []
        for round_ in (ids, left):
            for report in entries_mod.check_all(
                review.vault, review.settings, round_, skip=skip if round_ is ids else None
            ):
                if worker.is_cancelled:
                    return
                batch_reports.append(report)
                if len(batch_reports) >= BATCH:
                    self.app.call_from_thread(self._checked, batch_reports)
                    batch_reports = []
                time.sleep(0)  # hand the lock to the UI thread between proposals: keys stay responsive
            if round_ is ids:
                # Wait for those pre-flights; recheck only the ones that delivered nothing.
                while any(u in self.preflighting for u in left) and not worker.is_cancelled:
                    time.sleep(0.05)
                entries = self.queue_entries
                left[:] = [u for u in left if entries.get(u) is None or entries[u].report is None]
        if batch_reports and not worker.is_cancelled:
            self.app.call_from_thread(self._checked, batch_reports)

    def _listed(
        self,
        listed: list[tuple[str, bool]],
        manifests: dict[str, dict[str, object] | None],
        select: str | None,
        painted: threading.Event,
    ) -> None:
        if self.closing:
            painted.set()
            self.first_frame.set()
            return
        queue = self.queue
        known = queue.entries
        ids = {ulid for ulid, _hint in listed}
        for gone in set(known) - ids:
            known[gone].gone = True
        for ulid, hint in listed:
            if ulid not in known:
                known[ulid] = Entry(ulid, created=entries_mod.created_from_ulid(ulid), maybe_decided=hint)
            if ulid in manifests:
                entries_mod.summarise(known[ulid], manifests[ulid])
        queue.rebuild(keep=select)
        self._empty_state()

        def drawn() -> None:
            painted.set()
            self.first_frame.set()
            if not queue.row_count:
                self.painted.set()  # drawn empty: nothing to wait for

        self.call_after_refresh(drawn)

    def _summarised(self, manifests: dict[str, dict[str, object] | None]) -> None:
        if self.closing:
            return
        queue = self.queue
        for ulid, data in manifests.items():
            entry = queue.entries.get(ulid)
            if entry is not None and entry.report is None:
                queue.update_entry(entries_mod.summarise(entry, data))

    def _checked(self, reports: list[ProposalReport]) -> None:
        if self.closing:
            return
        queue = self.queue
        rebuild = False
        for report in reports:
            entry = queue.entries.get(report.id) or Entry(report.id)
            before = entry.status
            entries_mod.fill(entry, report)
            if entry.status != before:
                rebuild = True
            queue.update_entry(entry)
            if report.id == queue.chosen and report.id not in self.checking:
                self._show(entry)
        if rebuild:
            queue.rebuild()
        self._empty_state()
