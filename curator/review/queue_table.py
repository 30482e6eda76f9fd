"""The queue: one row per proposal (title, author, age, verdict, drift, files), sortable and filterable."""

from __future__ import annotations

import threading
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.strip import Strip
from textual.widgets import DataTable

from curator import clock
from curator.proposals import revision
from curator.review.entries import CHECKING, Entry

COLUMNS = (
    ("title", "Title"),
    ("author", "Author"),
    ("age", "Age"),
    ("verdict", "Verdict"),
    ("drift", "Drift"),
    ("files", "Files"),
)
# Rows drawn before the first paint; the rest follow it.
FIRST_ROWS = 24
# Fixed widths; the title takes what is left.
WIDTHS = {"author": 22, "age": 4, "verdict": 10, "drift": 9, "files": 5}
SORTS = ("age", "title", "author", "verdict", "drift", "files")
_VERDICT_STYLE = {"valid": "green", "rejected": "red", CHECKING: "grey50"}
_DRIFT_STYLE = {"clean": "green", "drifted": "yellow", "conflicts": "bold red", "new": "cyan"}
_STATUS_STYLE = {"applied": "green", "rejected": "red", "superseded": "grey62"}


def _sort_value(entry: Entry, column: str) -> tuple[object, ...]:
    if column == "age":
        return (entry.created or "", entry.id)
    if column == "files":
        return (entry.files, entry.id)
    return (str(getattr(entry, column)).casefold(), entry.id)


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

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.entries: dict[str, Entry] = {}
        self.query_text = ""
        self.show_decided = False
        self.sort_column = "age"
        self.sort_reverse = False
        self.now = clock.now()
        self._chosen: str | None = None
        self._generation = 0
        # Decided while the UI is open: kept in view with their event until the next restart.
        self.decided_here: set[str] = set()
        self.drawn = threading.Event()
        """Set once a row of proposals has been drawn: the workers wait for the first paint."""

    def _add_columns(self) -> None:
        inner = self.scrollable_content_region.width or 80
        author = WIDTHS["author"] if inner >= 90 else 14
        rest = sum(w for k, w in WIDTHS.items() if k != "author") + author
        title = max(16, inner - rest - 2 * len(COLUMNS) - 1)
        for key, label in COLUMNS:
            self.add_column(
                label, key=key, width=title if key == "title" else author if key == "author" else WIDTHS[key]
            )

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        if self.row_count and not self.drawn.is_set() and y > 0:  # y 0 is the header
            self.drawn.set()
        return strip

    def on_mount(self) -> None:
        self._add_columns()

    def on_resize(self) -> None:
        if self.is_mounted:
            self.rebuild()

    # --- contents -----------------------------------------------------------------------

    def visible_entries(self) -> list[Entry]:
        shown = [
            e
            for e in self.entries.values()
            if (self.show_decided or (e.status == "pending" and not e.held_back) or e.id in self.decided_here)
            and (not self.query_text or e.matches(self.query_text))
        ]
        shown.sort(key=lambda e: _sort_value(e, self.sort_column), reverse=self.sort_reverse)
        return shown

    def _chains(self) -> None:
        """Each entry's place in its revision chain (v1 → v2), from what every manifest supersedes."""
        revised = {e.id: e.supersedes for e in self.entries.values()}
        if not any(revised.values()):
            for e in self.entries.values():
                e.version, e.chain = 1, []
            return
        links = revision.chains(revised)
        newer = {link.supersedes: link.id for link in links.values() if link.supersedes}
        for e in self.entries.values():
            link = links.get(e.id)
            e.version = link.version if link else 1
            chain = revision.chain_of(e.id, links, newer)
            e.chain = chain if len(chain) > 1 else []

    def _title(self, e: Entry) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        if e.chain:
            text.append(f"v{e.version} ", style="bold magenta")
        if e.requested is not None and e.status == "pending":
            text.append("↩ ", style="bold yellow")
        text.append(e.title or e.id)
        return text

    def _cells(self, e: Entry) -> list[Text]:
        verdict = Text(e.verdict, style=_VERDICT_STYLE.get(e.verdict, ""))
        if e.status != "pending":
            verdict = Text(e.status, style=_STATUS_STYLE.get(e.status, ""))
        if e.gone:
            verdict = Text("gone", style="grey50")
        return [
            self._title(e),
            Text(e.author, no_wrap=True, overflow="ellipsis"),
            Text(e.age(self.now), justify="right"),
            verdict,
            Text(e.drift, style=_DRIFT_STYLE.get(e.drift, "")),
            Text(str(e.files) if e.files else "", justify="right"),
        ]

    def rebuild(self, keep: str | None = None) -> None:
        """Redraw every row (after a filter, sort or toggle), keeping the cursor on ``keep``.

        The rows of the first screens go in at once and the rest after that paint: a table
        measures every cell it is given, and a queue of 500 should not wait for that."""
        keep = keep if keep is not None else self._chosen
        self._generation += 1
        self._chains()
        self.clear(columns=True)
        self._add_columns()
        rows = self.visible_entries()
        first = max(FIRST_ROWS, 2 * self.size.height)
        for e in rows[:first]:
            self.add_row(*self._cells(e), key=e.id)
        pending = sum(e.status == "pending" and not e.gone and not e.held_back for e in self.entries.values())
        self.border_title = f"Proposals — {pending} pending"
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
            self.add_row(*self._cells(e), key=e.id)
        ids = [e.id for e in rows]
        if keep in ids:
            self.select(keep)

    def update_entry(self, entry: Entry) -> None:
        """Refresh one proposal's row in place (the validator finished, or it was decided)."""
        self.entries[entry.id] = entry
        if entry.supersedes or entry.chain:  # only a revision's report can change a chain
            self._chains()
            # A revision's report names what it supersedes: every row of the chain shows it.
            for other in (entry.supersedes, *entry.chain):
                if other and other != entry.id and other in self.rows and other in self.entries:
                    self.update_cell(other, "title", self._title(self.entries[other]))
        if entry.id not in self.rows:
            return
        for (key, _label), cell in zip(COLUMNS, self._cells(entry), strict=True):
            self.update_cell(entry.id, key, cell)

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
            if e.status == "pending" and not e.gone and e.id != after:
                return e.id
        return None

    def select(self, ulid: str) -> None:
        if ulid in self.rows:
            self.move_cursor(row=self.get_row_index(ulid), animate=False)
            self._announce()
