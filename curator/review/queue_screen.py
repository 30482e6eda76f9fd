"""The review screen: queue, detail and diff; the keys; the workers that check and decide.

Nothing that reads the repository runs on the UI thread: the queue is
validated by one worker, the highlighted proposal's pre-flight by another,
and decisions by a third, each through the same functions the CLI uses
(``commands.apply.decide``, ``commands.reject.decide``, ``proposals.rebase``).
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Input, Static
from textual.worker import get_current_worker

from curator.diffview.model import DiffModel, build
from curator.diffview.visible import visible
from curator.errors import CuratorError
from curator.review import entries as entries_mod
from curator.review.confirm import ConfirmScreen
from curator.review.detail import DetailPane
from curator.review.diff_pane import DiffPane
from curator.review.entries import Entry
from curator.review.help import HelpScreen
from curator.review.preview import PreviewScreen
from curator.review.queue_table import QueueTable
from curator.review.status_line import StatusLine

if TYPE_CHECKING:
    from curator.review.app import ReviewApp
    from curator.validator import ProposalReport

EMPTY = """No proposals are waiting for review.

Proposals arrive in .kp/proposals/ when an agent calls kp_propose over MCP, when the
librarian runs `curator digest`, or when you stage your own edits with `curator propose`.
This screen fills in as soon as one is there: press d to see decided proposals, q to quit."""

# Reports are handed to the UI thread in batches, so a queue of 500 repaints a few times, not 500.
BATCH = 25
# Manifests read before the first paint (a screen's rows and then some), and per batch after it.
FIRST_MANIFESTS = 24
MANIFEST_BATCH = 100
# Diff sections read for the first screen of a proposal's stored diff, before all of them.
STORED_FIRST = 40
# Files listed in a confirmation dialog; past this it says how many more (the diff shows them all).
DIALOG_FILES = 12


class QueueScreen(Screen[None]):
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
        Binding("e", "preview", "View file"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "app.quit", "Quit"),
        Binding("j", "move(1)", "Down", show=False),
        Binding("k", "move(-1)", "Up", show=False),
        Binding("d", "toggle_decided", "Decided", show=False),
        Binding("o", "sort", "Sort", show=False),
        Binding("space,pagedown", "page(1)", "Page down", show=False),
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
        """Set once the queue's first frame is drawn: the pre-flight waits for it."""
        self._enabled: tuple[bool | None, ...] = ()

    @property
    def review(self) -> ReviewApp:
        from curator.review.app import ReviewApp

        assert isinstance(self.app, ReviewApp)
        return self.app

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
        self.load_queue()

    # --- loading and checking (workers) -------------------------------------------------

    @work(thread=True, exclusive=True, group="queue")
    def load_queue(self, select: str | None = None) -> None:
        """List the queue from the manifests at once, then validate every proposal in the background.

        The first paint needs the rows of the first screen and nothing else: their
        manifests are read (plain YAML, no pydantic), then the frame is drawn, then the
        other manifests, then the validator fills in verdicts and drift."""
        review = self.review
        worker = get_current_worker()
        listed = entries_mod.list_queue(review.vault)
        known = set(self.queue.entries)
        unread = [ulid for ulid, hint in listed if ulid not in known and not hint]
        if self.queue.sort_reverse:
            unread.reverse()
        first = {ulid: entries_mod.read_manifest(review.vault, ulid) for ulid in unread[:FIRST_MANIFESTS]}
        painted = threading.Event()
        self.app.call_from_thread(self._listed, listed, first, select, painted)
        # Drawn before the rest is read: every worker here wants the one interpreter lock,
        # and the first paint of a long queue matters more than the rows below it.
        painted.wait(timeout=5)
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
            self.painted.set()

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

    def _empty_state(self) -> None:
        self.set_class(not self.queue.row_count, "-empty")

    @work(thread=True, exclusive=True, group="preflight")
    def preflight(self, ulid: str, token: object, stored_first: bool = False) -> None:
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
            self.painted.wait(timeout=5)  # the queue's first frame comes before any of this
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

    def _check(self, ulid: str, stored_first: bool = False) -> None:
        """Start the pre-flight of ``ulid``; until this one's result is in, ``a`` stays disabled."""
        self.checking.add(ulid)
        token = self._tokens[ulid] = object()
        self.preflight(ulid, token, stored_first)

    def _show(self, entry: Entry | None) -> None:
        checking = entry is not None and entry.id in self.checking
        self.query_one(DetailPane).show(entry)
        self.query_one(StatusLine).show(entry, checking)
        diff = self.diff
        if entry is None:
            diff.show(None, "No proposal selected.")
        elif entry.gone:
            diff.show(None, "The proposal's folder is gone.")
        elif entry.id in self.models:
            model = self.models[entry.id]
            if diff.model is not model:
                diff.show(model, of=entry.id)
        else:
            diff.show(None, "Checking…")
        # The footer is rebuilt on every refresh of the bindings: only when a key changed.
        enabled = tuple(self.check_action(a, ()) for a in ("apply", "reject", "rebase", "preview"))
        if enabled != self._enabled:
            self._enabled = enabled
            self.refresh_bindings()

    # --- keys ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        entry = self.current()
        if action == "apply":
            # Never on a result older than the pre-flight that is running now.
            ok = entry is not None and entry.apply_blocker is None and entry.id not in self.checking
            return True if ok else None
        if action == "reject":
            return True if entry is not None and entry.status == "pending" and not entry.gone else None
        if action == "rebase":
            ok = entry is not None and entry.rebase_blocker is None and entry.id not in self.checking
            return True if ok else None
        if action in ("preview", "split", "jump"):
            return True if entry is not None else None
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

    # --- decisions ----------------------------------------------------------------------

    def _files(self, entry: Entry) -> Text:
        text = Text()
        subject = entry.report.subject if entry.report else None
        changes = subject.changes if subject else []
        for view in changes[:DIALOG_FILES]:
            text.append(f"  {view.change.op:6} ", style="bold")
            text.append(visible(view.change.path))
            if view.drift:
                text.append(f"  [{view.drift}]")
            text.append("\n")
        if len(changes) > DIALOG_FILES:
            text.append(f"  … and {len(changes) - DIALOG_FILES:,} more ({len(changes):,} files; the diff shows each)\n")
        return text

    def action_apply(self) -> None:
        entry = self.current()
        if entry is None or entry.apply_blocker is not None or entry.id in self.checking:
            return
        body = Text("Curator checks it again, applies it to the work tree and commits exactly these files:\n\n")
        body.append_text(self._files(entry))
        body.append("\nYour own staged and unstaged work stays as it is.")
        ulid = entry.id

        def done(answer: str | None) -> None:
            if answer is not None:
                self.decide_apply(ulid)

        self.app.push_screen(ConfirmScreen(f"Apply “{entry.title}”?", body, verb="Apply"), done)

    def action_reject(self) -> None:
        entry = self.current()
        if entry is None or entry.status != "pending" or entry.gone:
            return
        body = Text("The vault stays as it is; a rejected event records your reason.\n\n")
        body.append_text(self._files(entry))
        ulid = entry.id

        def done(reason: str | None) -> None:
            if reason:
                self.decide_reject(ulid, reason)

        self.app.push_screen(ConfirmScreen(f"Reject “{entry.title}”?", body, verb="Reject", ask_reason=True), done)

    def action_rebase(self) -> None:
        entry = self.current()
        if entry is None or entry.rebase_blocker is not None or entry.id in self.checking:
            return
        body = Text(
            "A 3-way merge of the proposal's base, its change and the files as they are now becomes a new "
            "revision (a new proposal) that waits here for review. This one is marked superseded. "
            "Nothing is applied.\n\n"
        )
        body.append_text(self._files(entry))
        ulid = entry.id

        def done(answer: str | None) -> None:
            if answer is not None:
                self.decide_rebase(ulid)

        self.app.push_screen(ConfirmScreen(f"Rebase “{entry.title}”?", body, verb="Rebase"), done)

    @work(thread=True, exclusive=True, group="decide")
    def decide_apply(self, ulid: str) -> None:
        from curator.commands import apply as apply_cmd

        review = self.review
        try:
            done = apply_cmd.decide(entries_mod.fresh(review.vault), review.settings, ulid, by=review.by)
        except CuratorError as e:
            self.app.call_from_thread(self._failed, ulid, f"Not applied: {e}")
            return
        where = f"committed {done.commit[:12]}" if done.commit else "applied"
        self.app.call_from_thread(self._decided, ulid, f"Applied: {where}.", True)

    @work(thread=True, exclusive=True, group="decide")
    def decide_reject(self, ulid: str, reason: str) -> None:
        from curator.commands import reject as reject_cmd

        review = self.review
        try:
            reject_cmd.decide(entries_mod.fresh(review.vault), ulid, reason, by=review.by)
        except CuratorError as e:
            self.app.call_from_thread(self._failed, ulid, f"Not rejected: {e}")
            return
        self.app.call_from_thread(self._decided, ulid, "Rejected.", False)

    @work(thread=True, exclusive=True, group="decide")
    def decide_rebase(self, ulid: str) -> None:
        from curator.proposals import rebase as rebaser
        from curator.proposals.lock import vault_lock

        review = self.review
        vault = entries_mod.fresh(review.vault)
        try:
            with vault_lock(vault, f"rebase {ulid}"):
                done = rebaser.rebase(vault, review.settings, ulid, by=review.by)
        except CuratorError as e:
            self.app.call_from_thread(self._failed, ulid, f"Not rebased: {e}")
            return
        if done.conflicts:
            lines = "\n".join(f"{visible(c.path)}: {c.message}" for c in done.conflicts)
            self.app.call_from_thread(self._failed, ulid, f"The 3-way merge conflicts; nothing was staged.\n{lines}")
        elif done.nothing_to_do:
            self.app.call_from_thread(self._failed, ulid, f"Nothing to rebase: {done.nothing_to_do}.")
        elif done.report is not None and not done.report.ok:
            first = done.report.findings[0]
            self.app.call_from_thread(
                self._failed,
                ulid,
                f"The merged revision is rejected ({first.code} {visible(first.path)}); nothing was staged.",
            )
        else:
            self.app.call_from_thread(self._rebased, ulid, done.new)

    def _failed(self, ulid: str, message: str) -> None:
        if self.closing:
            return
        self.notify(message, severity="error", timeout=10)
        # The proposal or the vault may have changed: show what is true now.
        if ulid == self.queue.chosen:
            self.checking.add(ulid)
            self._show(self.current())
            self._check(ulid)

    def _decided(self, ulid: str, message: str, vault_changed: bool) -> None:
        if self.closing:
            return
        self.notify(message, timeout=5)
        queue = self.queue
        queue.decided_here.add(ulid)
        following = queue.next_pending(ulid)
        self.models.pop(ulid, None)
        # Re-read the queue: the decided one shows its event, and after an apply every other
        # proposal's drift is checked again against the vault as it now is.
        self.load_queue(select=following or ulid)
        if following is None and not vault_changed:
            self._check(ulid)

    def _rebased(self, old: str, new: str | None) -> None:
        if self.closing:
            return
        self.notify(f"New revision {new} staged for review; {old} is superseded.", timeout=8)
        self.queue.decided_here.add(old)
        self.models.pop(old, None)
        self.load_queue(select=new)
