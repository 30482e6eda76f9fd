"""The queue: one row per proposal (title, author, age, verdict, drift, files), sortable and filterable.

The table owns the queue's entries and loads them itself (``load``, a worker running
``loading.load``): the worker's results arrive as the table's own messages, which it
applies to its entries and lets bubble up for the screen to redraw what it shows.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Set
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.strip import Strip
from textual.timer import Timer
from textual.widgets import DataTable
from textual.worker import get_current_worker

from curator import clock
from curator.proposals.events import PENDING
from curator.review import entries as entries_mod
from curator.review import loading, stored
from curator.review.entries import Entry
from curator.review.queue_rows import COLUMNS, SORTS, cells, columns, link_chains, sort_value, title

if TYPE_CHECKING:
    from curator.settings import Settings
    from curator.validator.verdict import ProposalReport
    from curator.validator.verdicts import Verdict
    from curator.vault.discover import Vault

# Seconds between redraws of the ages (the finest an age shows is a minute, past the first).
AGE_EVERY = 30
# Rows drawn before the first paint; the rest follow it.
FIRST_ROWS = 24


class QueueTable(DataTable[Text]):
    """The proposal queue. Posts ``QueueTable.Chosen`` when the highlighted proposal changes."""

    DEFAULT_CSS = """
    QueueTable {
        height: 1fr;
        border: round $primary 40%;
        border-title-color: $text;
        border-subtitle-color: $text-muted;
    }
    QueueTable:focus {
        border: round $primary;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
    ]

    class Chosen(Message):
        """The highlighted proposal changed (``ulid`` is None when the queue is empty)."""

        def __init__(self, ulid: str | None) -> None:
            super().__init__()
            self.ulid = ulid

    class Listed(Message):
        """The loader listed the queue and read the first screen's manifests."""

        def __init__(
            self,
            listed: list[tuple[str, bool]],
            manifests: dict[str, dict[str, Any] | None],
            select: str | None,
            painted: threading.Event,
        ) -> None:
            super().__init__()
            self.listed = listed
            self.manifests = manifests
            self.select = select
            self.painted = painted
            """Set once the frame with these rows is drawn (the loader waits for it)."""

    class Summarised(Message):
        """More manifests read, for rows the validator has not reached yet."""

        def __init__(self, manifests: dict[str, dict[str, Any] | None]) -> None:
            super().__init__()
            self.manifests = manifests

    class Checked(Message):
        """The validator's verdicts on a batch of the queue: each with its report when judged now,
        else with the digest of the folder it is of (``entries.judge_all``)."""

        def __init__(self, reports: list[tuple[Verdict, str | None]]) -> None:
            super().__init__()
            self.reports = reports

    def __init__(
        self,
        vault: Vault,
        settings: Settings,
        *,
        now: dt.datetime | None = None,
        kept_in: str | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.vault = vault
        self.settings = settings
        self.kept_in = kept_in
        """Where verdicts are kept between runs (``validator.verdicts``); None: judged afresh."""
        self.entries: dict[str, Entry] = {}
        self.query_text = ""
        self.show_decided = False
        self.sort_column = "age"
        self.sort_reverse = False
        self.now = now if now is not None else clock.now()
        self._clock_fixed = now is not None
        self.ticking: Timer | None = None
        """Redraws the ages as the clock moves on (None with a fixed clock, as snapshots have)."""
        self._chosen: str | None = None
        self._generation = 0
        # Decided while the UI is open: kept in view with their event until the next restart.
        self.decided_here: set[str] = set()
        self.drawn = threading.Event()
        """Set once a row of proposals has been drawn: the workers wait for the first paint."""
        self.first_frame = threading.Event()
        """Set after the first frame of the listed queue is on the screen (not merely rendered)."""

    def _add_columns(self) -> None:
        for key, label, width in columns(self.scrollable_content_region.width or 80):
            self.add_column(label, key=key, width=width)

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        if self.row_count and not self.drawn.is_set() and y > 0:  # y 0 is the header
            self.drawn.set()
        return strip

    def on_mount(self) -> None:
        self._add_columns()
        if not self._clock_fixed:
            self.ticking = self.set_interval(AGE_EVERY, self.tick)

    def tick(self) -> None:
        """The clock moved on: each row's age, against it."""
        self.now = clock.now()
        for key in self.rows:
            entry = self.entries.get(str(key.value))
            if entry is not None:
                self.update_cell(key, "age", Text(clock.age(entry.created, self.now), justify="right"))

    def on_resize(self) -> None:
        if self.is_mounted:
            self.rebuild()

    # --- contents -----------------------------------------------------------------------

    def visible_entries(self) -> list[Entry]:
        shown = [
            e
            for e in self.entries.values()
            if (self.show_decided or (e.status == PENDING and not e.held_back) or e.id in self.decided_here)
            and (not self.query_text or e.matches(self.query_text))
        ]
        shown.sort(key=lambda e: sort_value(e, self.sort_column), reverse=self.sort_reverse)
        return shown

    def rebuild(self, keep: str | None = None) -> None:
        """Redraw every row (after a filter, sort or toggle), keeping the cursor on ``keep``.

        The rows of the first screens go in at once and the rest after that paint: a table
        measures every cell it is given, and a queue of 500 should not wait for that."""
        keep = keep if keep is not None else self._chosen
        self._generation += 1
        link_chains(self.entries.values())
        self.clear(columns=True)
        self._add_columns()
        rows = self.visible_entries()
        first = max(FIRST_ROWS, 2 * self.size.height)
        for e in rows[:first]:
            self.add_row(*cells(e, self.now), key=e.id)
        self._heading()
        bits = [f"sorted by {self.sort_column}{' ↓' if self.sort_reverse else ''}"]
        if self.query_text:
            bits.insert(0, f"filter: {self.query_text} ({len(rows)} shown)")
        if self.show_decided:
            bits.append("decided shown")
        self.border_subtitle = " · ".join(bits)
        ids = [e.id for e in rows]
        if keep in ids[:first]:
            self.move_cursor(row=ids.index(keep), animate=False)
        if len(rows) > first:
            self.call_after_refresh(self._add_rest, self._generation, rows[first:], keep)
        self._announce()

    def _add_rest(self, generation: int, rows: list[Entry], keep: str | None) -> None:
        if generation != self._generation:
            return  # rebuilt again since: those rows are stale
        for e in rows:
            self.add_row(*cells(e, self.now), key=e.id)
        ids = [e.id for e in rows]
        if keep in ids:
            self.select(keep)

    def take(self, report: ProposalReport) -> Entry:
        """A pre-flight's report on one proposal: its row shows it."""
        entry = self.entries.get(report.id) or Entry(report.id)
        self.update_entry(entries_mod.fill(entry, report))
        return entry

    def take_kept(self, kept: Verdict, digest: str | None) -> Entry:
        """The verdict kept of one proposal (of the folder with ``digest``): its row shows it."""
        entry = self.entries.get(kept.id) or Entry(kept.id)
        self.update_entry(entries_mod.fill_kept(entry, kept, digest))
        return entry

    def _heading(self) -> None:
        pending = sum(e.status == PENDING and not e.gone and not e.held_back for e in self.entries.values())
        self.border_title = f"Proposals — {pending} pending"

    def update_entry(self, entry: Entry) -> None:
        """Refresh one proposal's row in place (the validator finished, or it was decided)."""
        self.entries[entry.id] = entry
        self._heading()
        if entry.supersedes or entry.chain:  # only a revision's report can change a chain
            link_chains(self.entries.values())
            # A revision's report names what it supersedes: every row of the chain shows it.
            for other in (entry.supersedes, *entry.chain):
                if other and other != entry.id and other in self.rows and other in self.entries:
                    self.update_cell(other, "title", title(self.entries[other]))
        if entry.id not in self.rows:
            return
        for (key, _label), cell in zip(COLUMNS, cells(entry, self.now), strict=True):
            self.update_cell(entry.id, key, cell)

    # --- loading -------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="queue")
    def load(self, select: str | None = None, leave: Set[str] = frozenset()) -> None:
        """List the queue and check every proposal (``loading.load``), then keep ``select``
        highlighted; ``leave``: proposals a pre-flight is checking (their reports come from it)."""
        loading.load(self, get_current_worker(), self.vault, self.settings, select, leave, self.kept_in)

    def on_queue_table_listed(self, message: Listed) -> None:
        known = self.entries
        ids = {ulid for ulid, _hint in message.listed}
        for gone in set(known) - ids:
            known[gone].gone = True
        for ulid, hint in message.listed:
            if ulid not in known:
                known[ulid] = Entry(ulid, created=stored.created_from_ulid(ulid), maybe_decided=hint)
            if ulid in message.manifests:
                entries_mod.summarise(known[ulid], message.manifests[ulid])
        self.rebuild(keep=message.select)

        def drawn() -> None:
            message.painted.set()
            self.first_frame.set()
            if not self.row_count:
                self.drawn.set()  # drawn empty: nothing to wait for

        self.call_after_refresh(drawn)

    def on_queue_table_summarised(self, message: Summarised) -> None:
        for ulid, data in message.manifests.items():
            entry = self.entries.get(ulid)
            if entry is not None and not entry.checked:
                self.update_entry(entries_mod.summarise(entry, data))

    def on_queue_table_checked(self, message: Checked) -> None:
        rebuild = False
        for found, digest in message.reports:
            entry = self.entries.get(found.id) or Entry(found.id)
            before = entry.status
            if found.report is not None:
                entries_mod.fill(entry, found.report)
            else:
                entries_mod.fill_kept(entry, found, digest)
            if entry.status != before:
                rebuild = True
            self.update_entry(entry)
        if rebuild:
            self.rebuild()

    # --- the highlighted proposal -------------------------------------------------------

    @property
    def chosen(self) -> str | None:
        return self._chosen

    def _announce(self) -> None:
        ulid: str | None = None
        if self.row_count:
            ulid = str(self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value)
        if ulid != self._chosen:
            self._chosen = ulid
            self.post_message(self.Chosen(ulid))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._announce()

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        column = str(event.column_key.value)
        if column == self.sort_column:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_column, self.sort_reverse = column, False
        self.rebuild()

    def cycle_sort(self) -> None:
        at = SORTS.index(self.sort_column) if self.sort_column in SORTS else -1
        self.sort_column = SORTS[(at + 1) % len(SORTS)]
        self.sort_reverse = False
        self.rebuild()

    def next_pending(self, after: str) -> str | None:
        """The proposal to move to after ``after`` was decided: the next pending one in view."""
        rows = self.visible_entries()
        ids = [e.id for e in rows]
        start = ids.index(after) + 1 if after in ids else 0
        for e in rows[start:] + rows[:start]:
            if e.status == PENDING and not e.gone and e.id != after:
                return e.id
        return None

    def decided(self, ulid: str, outcome: str, new: str | None) -> str:
        """``ulid`` was decided here (``Decisions.Done``): what to highlight next. The decided
        one stays in view with its event, and a revision applied here with it."""
        if outcome == "requested":  # still pending: on to the next one
            return self.next_pending(ulid) or ulid
        self.decided_here.add(ulid)
        if outcome in ("rebased", "edited") and new is not None:
            return new  # the new revision, to review
        if outcome == "partly applied" and new is not None:
            self.decided_here.add(new)
        return self.next_pending(ulid) or ulid

    def select(self, ulid: str) -> None:
        if ulid in self.rows:
            self.move_cursor(row=self.get_row_index(ulid), animate=False)
            self._announce()
