"""The review screen: the queue, the highlighted proposal's detail and diff, and the keys.

The screen composes widgets that own their state and say what happened by message:
``QueueTable`` (the queue, loaded and validated by its own worker), ``ProposalPanel``
(the highlighted proposal's detail and diff, its pre-flight and what is kept of it),
``Decisions`` (apply, reject, rebase, edit, ask for changes), the filter box and the
status line; it routes what one says to the others and holds the keys. Nothing that reads
the repository runs on the UI thread; every worker goes through the functions the CLI uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen

from curator.proposals.events import PENDING
from curator.review import footer, keys
from curator.review.against import Against
from curator.review.decide import Decisions
from curator.review.detail import DetailPane
from curator.review.diff_pane import DiffPane
from curator.review.empty_queue import EmptyQueue
from curator.review.footer import ReviewFooter
from curator.review.help import HelpScreen
from curator.review.preflight import Preflight
from curator.review.proposal_panel import ProposalPanel
from curator.review.queue_filter import QueueFilter
from curator.review.queue_table import QueueTable
from curator.review.status_line import StatusLine

if TYPE_CHECKING:
    import datetime as dt

    from curator.review.entries import Entry
    from curator.settings import Settings
    from curator.vault.discover import Vault


# Seconds a decision's notification stays: longer where it names a new revision.
SAID_FOR = {"rebased": 8, "edited": 8, "requested": 6}


class QueueScreen(Screen[None]):
    DEFAULT_CSS = """
    QueueScreen #queue {
        height: 35%;
        min-height: 6;
    }
    QueueScreen.-empty #empty {
        display: block;
    }
    QueueScreen.-empty #lower {
        display: none;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "apply", "Apply"),
        Binding("r", "reject", "Reject"),
        Binding("b", "rebase", "Rebase"),
        Binding("s", "split", "Split"),
        Binding("w", "wrap", "Wrap", show=False),
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
        # Above the queue's own use of them (it has the focus at start): they page the diff.
        Binding("pagedown", "page(1)", "Page down", show=False, priority=True),
        Binding("pageup", "page(-1)", "Page up", show=False, priority=True),
        Binding("escape", "clear_filter", "Clear filter", show=False),
    ]

    def __init__(
        self, vault: Vault, settings: Settings, *, now: dt.datetime | None = None, kept_in: str | None = None
    ) -> None:
        super().__init__()
        self.vault = vault
        self.settings = settings
        self.now = now
        self.kept_in = kept_in
        self._enabled: tuple[bool | None, ...] = ()

    def compose(self) -> ComposeResult:
        queue = QueueTable(self.vault, self.settings, now=self.now, kept_in=self.kept_in, id="queue")
        yield queue
        yield EmptyQueue(id="empty")
        preflight = Preflight(self.vault, self.settings, queue.first_frame, queue.drawn, self.kept_in)
        yield ProposalPanel(preflight, Against(self.vault, self.settings), id="lower")
        yield QueueFilter(id="filter")
        yield StatusLine(id="status")
        yield ReviewFooter()
        yield Decisions(self.vault, self.settings, self.kept_in)

    @property
    def queue(self) -> QueueTable:
        return self.query_one(QueueTable)

    @property
    def panel(self) -> ProposalPanel:
        return self.query_one(ProposalPanel)

    @property
    def diff(self) -> DiffPane:
        return self.panel.diff

    @property
    def preflight(self) -> Preflight:
        return self.panel.preflight

    @property
    def closing(self) -> bool:
        """The app is quitting: a late message has nowhere to go (the widgets are gone)."""
        return not self.is_attached or not self.query(QueueTable)

    def on_mount(self) -> None:
        self.queue.focus()
        self._load()

    def _load(self, select: str | None = None) -> None:
        self.queue.load(select, self.preflight.running)

    def _empty_state(self) -> None:
        self.set_class(not self.queue.row_count, "-empty")

    def current(self) -> Entry | None:
        ulid = self.queue.chosen
        return self.queue.entries.get(ulid) if ulid else None

    def _show(self, entry: Entry | None) -> None:
        checking = entry is not None and entry.id in self.preflight.checking
        self.panel.show(entry)
        self.query_one(StatusLine).show(entry, checking, self.panel.kept_line(entry))
        footer.relabel(self, "space", self.panel.keep_label(entry))
        # The footer is rebuilt on every refresh of the bindings: only when a key changed.
        enabled = tuple(self.check_action(a, ()) for a in keys.FOOTER_KEYS)
        if enabled != self._enabled:
            self._enabled = enabled
            self.refresh_bindings()

    # --- what the widgets say -------------------------------------------------------------

    def on_queue_table_chosen(self, message: QueueTable.Chosen) -> None:
        entry = self.queue.entries.get(message.ulid) if message.ulid else None
        if entry is None:
            self._show(None)
            return
        stored_first = self.preflight.begin(entry)
        self._show(entry)
        self._check(entry.id, stored_first)

    def _check(self, ulid: str, stored_first: bool = False) -> None:
        diff = self.diff
        shown = diff.drawn if diff.of == ulid and diff.model is not None else None
        self.preflight.check(ulid, stored_first, shown)

    def on_queue_table_listed(self) -> None:
        if not self.closing:
            self._empty_state()

    def on_queue_table_checked(self, message: QueueTable.Checked) -> None:
        if self.closing:
            return
        entry = self.current()
        if entry is not None and entry.id not in self.preflight.checking:
            if entry.id in {found.id for found, _digest in message.reports}:
                self.preflight.adopt(entry)  # a decision dropped its diff: this report draws it
                self._show(entry)
            elif tuple(entry.chain) != self.panel.query_one(DetailPane).chain:
                self._show(entry)  # the queue learned more of its revision chain
        self._empty_state()

    def on_preflight_stored(self, message: Preflight.Stored) -> None:
        if self.closing:
            message.drawn.set()
            return
        if message.kept and message.ulid == self.queue.chosen:
            self._show(self.queue.entries.get(message.ulid))
        self.call_after_refresh(message.drawn.set)

    def on_preflight_kept(self, message: Preflight.Kept) -> None:
        if message.current and not self.closing:
            entry = self.queue.take_kept(message.kept, message.digest)
            if message.ulid == self.queue.chosen:
                self._show(entry)

    def on_preflight_done(self, message: Preflight.Done) -> None:
        if not message.current or self.closing:
            return
        entry = self.queue.take(message.report)
        if message.ulid == self.queue.chosen:
            self._show(entry)

    def on_decisions_failed(self, message: Decisions.Failed) -> None:
        if self.closing:
            return
        self.notify(message.said, severity="error", timeout=10)
        # The proposal or the vault may have changed: show what is true now.
        if message.ulid == self.queue.chosen:
            self.preflight.checking.add(message.ulid)
            self._show(self.current())
            self._check(message.ulid)

    def on_decisions_done(self, message: Decisions.Done) -> None:
        if self.closing:
            return
        self.notify(message.said, timeout=SAID_FOR.get(message.outcome, 5))
        self.panel.decided(message.ulid, message.outcome, message.new)
        # Re-read the queue: the decided one shows its event, and after an apply every other
        # proposal's drift is checked again against the vault as it now is.
        select = self.queue.decided(message.ulid, message.outcome, message.new)
        self._load(select=select)
        if select == message.ulid and message.outcome == "rejected":
            self._check(message.ulid)

    def on_queue_filter_typed(self, message: QueueFilter.Typed) -> None:
        self.queue.query_text = message.words
        self.queue.rebuild()

    def on_queue_filter_left(self) -> None:
        self.queue.focus()

    # --- keys ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        entry = self.current()
        checking = entry is not None and entry.id in self.preflight.checking
        kept = entry is not None and self.diff.kept.count(entry.id) > 0
        return keys.live(action, entry, checking=checking, kept=kept, comparing=self.panel.against.shown is not None)

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
        self.panel.toggle_split()

    def action_wrap(self) -> None:
        self.diff.wrap = not self.diff.wrap

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
        self.query_one(QueueFilter).open()

    def action_clear_filter(self) -> None:
        if self.query_one(QueueFilter).close(filtering=bool(self.queue.query_text)):
            self.on_queue_filter_typed(QueueFilter.Typed(""))
            self.queue.focus()
            self._empty_state()

    def action_preview(self) -> None:
        entry = self.current()
        screen = self.panel.preview(entry) if entry is not None else None
        if screen is not None:
            self.app.push_screen(screen)

    def action_against(self) -> None:
        entry = self.current()
        if entry is not None:
            said = self.panel.toggle_against(entry)
            if said:
                self.notify(said, timeout=4)
            else:
                self._show(entry)

    # --- decisions (``Decisions`` asks and runs them) ------------------------------------

    def _decide(self, action: str) -> None:
        entry = self.current()
        if entry is not None and self.check_action(action, ()):
            self.query_one(Decisions).ask(action, entry, self.panel.kept(entry), self.diff.kept.count(entry.id))

    def action_apply(self) -> None:
        self._decide("apply")

    def action_reject(self) -> None:
        self._decide("reject")

    def action_rebase(self) -> None:
        self._decide("rebase")

    def action_request_changes(self) -> None:
        self._decide("request_changes")

    def _ready(self, what: str) -> Entry | None:
        """The highlighted proposal once its diff is the pre-flight's; else says to wait."""
        entry = self.current()
        if self.panel.at(entry) is None:
            if entry is not None and entry.status == PENDING:
                self.notify(f"Wait for the pre-flight, then {what}.", timeout=3)
            return None
        return entry

    def _toggle(self, whole_file: bool) -> None:
        entry = self._ready("mark hunks")
        if entry is not None and self.panel.toggle(entry, whole_file):
            self._show(entry)

    def action_toggle_hunk(self) -> None:
        self._toggle(whole_file=False)

    def action_toggle_file(self) -> None:
        self._toggle(whole_file=True)

    def action_edit(self) -> None:
        entry = self._ready("edit")
        at = self.panel.at(entry)
        if entry is not None and at is not None and self.diff.model is not None:
            self.query_one(Decisions).edit(entry.id, self.diff.model, *at)
