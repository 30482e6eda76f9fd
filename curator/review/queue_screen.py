"""The review screen: queue, detail and diff; the keys; the highlighted proposal's pre-flight.

Nothing that reads the repository runs on the UI thread: the queue is loaded and
validated by one worker (``loading``), the highlighted proposal's pre-flight by
another (here), and decisions by a third (``decide``), each through the same
functions the CLI uses (``commands.apply.decide``, ``commands.reject.decide``,
``proposals.rebase``).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Input, Static

from curator.diffview.model import DiffModel, build
from curator.diffview.visible import visible
from curator.review.decide import Decisions
from curator.review.detail import DetailPane
from curator.review.diff_pane import DiffPane
from curator.review.entries import Entry
from curator.review.help import HelpScreen
from curator.review.loading import QueueLoading
from curator.review.preflight import Preflight
from curator.review.preview import PreviewScreen
from curator.review.queue_table import QueueTable
from curator.review.revising import Revising
from curator.review.status_line import StatusLine

if TYPE_CHECKING:
    from curator.review.app import ReviewApp

EMPTY = """No proposals are waiting for review.

Proposals arrive in .kp/proposals/ when an agent calls kp_propose over MCP, when the
librarian runs `curator digest`, or when you stage your own edits with `curator propose`.
This screen fills in as soon as one is there: press d to see decided proposals, q to quit."""

class QueueScreen(QueueLoading, Preflight, Decisions, Revising):
    DEFAULT_CSS = """
    QueueScreen #queue {
        height: 35%;
        min-height: 6;
    }
    QueueScreen #lower {
        height: 1fr;
    }
    QueueScreen #detail {
        width: 38%;
        min-width: 28;
    }
    QueueScreen #diff {
        width: 1fr;
    }
    QueueScreen.-split #detail {
        display: none;
    }
    QueueScreen #empty {
        height: 1fr;
        padding: 1 2;
        color: $text-muted;
        display: none;
    }
    QueueScreen.-empty #empty {
        display: block;
    }
    QueueScreen.-empty #lower {
        display: none;
    }
    QueueScreen #filter {
        display: none;
        height: 3;
    }
    QueueScreen #filter.-shown {
        display: block;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "apply", "Apply"),
        Binding("r", "reject", "Reject"),
        Binding("b", "rebase", "Rebase"),
        Binding("s", "split", "Split"),
        Binding("n", "jump(True)", "Next hunk"),
        Binding("p", "jump(False)", "Prev", show=False),
        Binding("slash", "filter", "Filter"),
        Binding("space", "toggle_hunk", "Keep"),
        Binding("e", "edit", "Edit"),
        Binding("c", "request_changes", "Changes"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "app.quit", "Quit"),
        Binding("j", "move(1)", "Down", show=False),
        Binding("k", "move(-1)", "Up", show=False),
        Binding("d", "toggle_decided", "Decided", show=False),
        Binding("o", "sort", "Sort", show=False),
        Binding("f", "toggle_file", "Keep file", show=False),
        Binding("v", "preview", "View file", show=False),
        Binding("i", "against", "Against previous revision", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("escape", "clear_filter", "Clear filter", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.checking: set[str] = set()
        self.models: dict[str, DiffModel] = {}
        """The latest diff of each proposal looked at: the pre-flight's, or the stored diff's until it is in."""
        self._partial: dict[str, DiffModel] = {}
        """Models drawn from a stored diff while the pre-flight runs (replaced as more is read)."""
        self.preflighting: set[str] = set()
        """Proposals a pre-flight worker is validating right now (read by the queue's worker)."""
        self._tokens: dict[str, object] = {}
        """The latest pre-flight asked for, per proposal: only its result ends the checking state."""
        self.queue_entries: dict[str, Entry] = {}
        """The queue's entries (the same dict the table holds), for the queue's worker to read."""
        self.painted = threading.Event()
        """Set once the queue's first rows are drawn (or it is drawn empty): the workers wait for it."""
        self.first_frame = threading.Event()
        """Set after the first frame of the listed queue is on the screen (not merely rendered)."""
        self._enabled: tuple[bool | None, ...] = ()
        self.init_revising()

    @property
    def review(self) -> ReviewApp:
        # The screen is only ever pushed by ReviewApp (which imports this module, so the
        # class is named for the type checker only).
        return cast("ReviewApp", self.app)

    def compose(self) -> ComposeResult:
        yield QueueTable(id="queue")
        yield Static(Text(EMPTY), id="empty")
        with Horizontal(id="lower"):
            yield DetailPane(id="detail")
            yield DiffPane(id="diff")
        yield Input(
            placeholder="filter: words in the title, author, verdict or drift (Enter keeps, Esc clears)", id="filter"
        )
        yield StatusLine(id="status")
        yield Footer()

    @property
    def queue(self) -> QueueTable:
        return self.query_one(QueueTable)

    @property
    def closing(self) -> bool:
        """The app is quitting: a worker's late result has nowhere to go (the widgets are gone)."""
        return not self.is_attached or not self.query(QueueTable)

    @property
    def diff(self) -> DiffPane:
        return self.query_one(DiffPane)

    def on_mount(self) -> None:
        self.query_one(DetailPane).border_title = "Proposal"
        self.diff.border_title = "Changes"
        if self.review.now is not None:
            self.queue.now = self.review.now
        self.queue.focus()
        self.queue_entries = self.queue.entries
        self.painted = self.queue.drawn
        self.load_queue()

    # --- the pre-flight (a worker) ----------------------------------------------------

    def _empty_state(self) -> None:
        self.set_class(not self.queue.row_count, "-empty")

    # --- showing the highlighted proposal -----------------------------------------------

    def current(self) -> Entry | None:
        ulid = self.queue.chosen
        return self.queue.entries.get(ulid) if ulid else None

    def on_queue_table_chosen(self, message: QueueTable.Chosen) -> None:
        entry = self.queue.entries.get(message.ulid) if message.ulid else None
        if entry is None:
            self._show(None)
            return
        self.checking.add(entry.id)
        if entry.id not in self.models and entry.report is not None and entry.report.subject is not None:
            # The queue's validator has read it already: its diff is shown while the pre-flight runs.
            self.models[entry.id] = build(entry.report.subject.changes, self.review.settings.producers.names)
        self._show(entry)
        self._check(entry.id, stored_first=entry.id not in self.models)

    def _show(self, entry: Entry | None) -> None:
        checking = entry is not None and entry.id in self.checking
        self.query_one(DetailPane).show(entry)
        self.query_one(StatusLine).show(entry, checking, self.marks_line(entry))
        diff = self.diff
        if self.against is not None and (entry is None or entry.id != self.against):
            self.against = None
            diff.border_title = "Changes"
        if self.against is not None:
            pass  # the diff against the superseded revision stays until i is pressed again
        elif entry is None:
            diff.show(None, "No proposal selected.")
        elif entry.gone:
            diff.show(None, "The proposal's folder is gone.")
        elif entry.id in self.models:
            model = self.models[entry.id]
            if diff.model is not model:
                diff.show(model, of=entry.id)
        else:
            diff.show(None, "Checking…")
        if self.against is None:
            self.refresh_marks(entry)
        self.show_against_first(entry)
        # The footer is rebuilt on every refresh of the bindings: only when a key changed.
        keys = ("apply", "reject", "rebase", "preview", "toggle_hunk", "edit", "request_changes")
        enabled = tuple(self.check_action(a, ()) for a in keys)
        if enabled != self._enabled:
            self._enabled = enabled
            self.refresh_bindings()

    # --- keys ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        entry = self.current()
        if action == "apply":
            # Never on a result older than the pre-flight that is running now.
            if entry is None or entry.id in self.checking:
                return None
            # Hunks kept of a conflicting proposal may apply: their revision is judged on its own.
            return True if entry.apply_blocker is None or self.marked(entry) is not None else None
        if action == "reject":
            return True if entry is not None and entry.status == "pending" and not entry.gone else None
        if action == "rebase":
            ok = entry is not None and entry.rebase_blocker is None and entry.id not in self.checking
            return True if ok else None
        if action in ("preview", "split", "jump", "against"):
            return True if entry is not None else None
        if action in ("toggle_hunk", "toggle_file", "edit"):
            ok = entry is not None and entry.status == "pending" and not entry.gone and entry.report is not None
            return True if ok and self.against is None else None
        if action == "request_changes":
            return True if entry is not None and entry.status == "pending" and not entry.gone else None
        return True

    def action_move(self, step: int) -> None:
        if step > 0:
            self.queue.action_cursor_down()
        else:
            self.queue.action_cursor_up()

    def action_page(self, step: int) -> None:
        if step > 0:
            self.diff.scroll_page_down(animate=False)
        else:
            self.diff.scroll_page_up(animate=False)

    def action_split(self) -> None:
        # Side by side needs the width: the detail pane steps aside until split is off again.
        self.diff.split = not self.diff.split
        self.set_class(self.diff.split, "-split")

    def action_jump(self, forward: bool) -> None:
        if not self.diff.jump(forward):
            self.notify("No more hunks that way.", timeout=2)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_sort(self) -> None:
        self.queue.cycle_sort()

    def action_toggle_decided(self) -> None:
        self.queue.show_decided = not self.queue.show_decided
        self.queue.rebuild()
        self._empty_state()

    def action_filter(self) -> None:
        box = self.query_one("#filter", Input)
        box.add_class("-shown")
        box.focus()

    def action_clear_filter(self) -> None:
        box = self.query_one("#filter", Input)
        if box.has_class("-shown") or self.queue.query_text:
            box.value = ""
            box.remove_class("-shown")
            self.queue.query_text = ""
            self.queue.rebuild()
            self.queue.focus()
            self._empty_state()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "filter":
            self.queue.query_text = event.value.strip()
            self.queue.rebuild()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "filter":
            event.input.remove_class("-shown")
            self.queue.focus()

    def action_preview(self) -> None:
        entry = self.current()
        model = self.models.get(entry.id) if entry else None
        if entry is None or entry.report is None or entry.report.subject is None or model is None:
            return
        rows = model.rows
        top = rows[min(int(self.diff.scroll_y), len(rows) - 1)].file if rows and not self.diff.split else 0
        changes = entry.report.subject.changes
        if not changes:
            return
        view = changes[min(top, len(changes) - 1)]
        path = visible(view.change.path)
        if view.change.op == "delete":
            self.app.push_screen(PreviewScreen(path, None, "The proposal deletes this file."))
        else:
            text = view.post_text
            note = "" if text is not None else "Not shown: the proposed file cannot be worked out or is not text."
            self.app.push_screen(PreviewScreen(path, text, note))
