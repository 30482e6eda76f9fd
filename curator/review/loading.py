"""Loading the queue: the rows from the manifests for the first paint, then every verdict.

``QueueTable.load`` runs ``load`` in a worker thread. It lists the proposals, reads
the manifests of the first screen's rows (plain YAML), lets the first frame be drawn,
reads the rest, then runs the validator over the queue; each step reaches the table
as a message (``QueueTable.Listed``, ``Summarised``, ``Checked``), reports in batches.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Set
from typing import TYPE_CHECKING

from textual.worker import Worker

from curator.review import entries as entries_mod
from curator.review import stored

if TYPE_CHECKING:
    from curator.review.queue_table import QueueTable
    from curator.settings import Settings
    from curator.validator.verdicts import Verdict
    from curator.vault.discover import Vault

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


def load(
    table: QueueTable,
    worker: Worker[None],
    vault: Vault,
    settings: Settings,
    select: str | None,
    leave: Set[str],
    kept_in: str | None = None,
) -> None:
    """List the queue from the manifests at once, then validate every proposal.

    The first paint needs the rows of the first screen and nothing else: their manifests
    are read (plain YAML, no pydantic), then the frame is drawn, then the other manifests,
    then the validator fills in verdicts and drift. ``leave``: the proposals a pre-flight
    is validating right now (it delivers their reports; they are not checked twice).
    ``kept_in``: where verdicts are kept (``validator.verdicts``): one kept of the same inputs
    is read back, one judged here is kept."""
    listed = stored.list_queue(vault)
    # The table's own dict, read from this thread (no widget lookup off the UI thread).
    known = set(table.entries)
    # Oldest first, as the queue opens (sorted by age).
    unread = [ulid for ulid, hint in listed if ulid not in known and not hint]
    first = {ulid: stored.read_manifest(vault, ulid) for ulid in unread[:FIRST_MANIFESTS]}
    painted = threading.Event()
    if not table.post_message(table.Listed(listed, first, select, painted)):
        return
    # Drawn before the rest is read: every worker here wants the one interpreter lock,
    # and the first paint of a long queue matters more than the rows below it.
    if not wait_for(painted, worker):
        return
    if listed:
        # The frame is done; its rows are drawn by now unless the table shows none (a
        # terminal a few lines high), which must not hold the verdicts back for long.
        table.drawn.wait(timeout=2)
    # Now the large manifests too, and the first ones that were too large before the paint.
    cap = settings.limits.max_proposal_bytes
    rest = [u for u, data in first.items() if data is None] + unread[FIRST_MANIFESTS:]
    for at in range(0, len(rest), MANIFEST_BATCH):
        if worker.is_cancelled:
            return
        batch = {ulid: stored.read_manifest(vault, ulid, cap) for ulid in rest[at : at + MANIFEST_BATCH]}
        table.post_message(table.Summarised(batch))
    ids = [ulid for ulid, _hint in listed]
    # A proposal whose pre-flight is running is left to it (the same check; its report comes),
    # and so is the highlighted one, whose pre-flight the screen may not have asked for yet.
    # One the reviewer moved away from before its check began gets no report from there:
    # those are checked here at the end.
    left: list[str] = []
    entries = table.entries

    def preflighted(ulid: str) -> bool:
        return ulid in leave or (ulid == table.chosen and (entries.get(ulid) is None or not entries[ulid].checked))

    def skip(ulid: str) -> bool:
        if preflighted(ulid):
            left.append(ulid)
            return True
        return False

    reports: list[tuple[Verdict, str | None]] = []
    for round_ in (ids, left):
        for found in entries_mod.judge_all(vault, settings, round_, kept_in, skip if round_ is ids else None):
            if worker.is_cancelled:
                return
            reports.append(found)
            if len(reports) >= BATCH:
                table.post_message(table.Checked(reports))
                reports = []
            time.sleep(0)  # hand the lock to the UI thread between proposals: keys stay responsive
        if round_ is ids:
            # Wait for those pre-flights; recheck only the ones that delivered nothing.
            while any(preflighted(u) for u in left) and not worker.is_cancelled:
                time.sleep(0.05)
            left[:] = [u for u in left if entries.get(u) is None or not entries[u].checked]
    if reports and not worker.is_cancelled:
        table.post_message(table.Checked(reports))
