"""The review screen's decisions: apply, reject and rebase, each asked first and run in a worker.

Each goes through the same functions as the CLI (``commands.apply.decide``,
``commands.reject.decide``, ``proposals.rebase``); ``QueueScreen`` holds the keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work

from curator.diffview.visible import visible
from curator.errors import CuratorError
from curator.operations import decisions
from curator.review import entries as entries_mod
from curator.review.confirm import ConfirmScreen
from curator.review.entries import Entry
from curator.review.screen_part import ScreenPart

if TYPE_CHECKING:
    pass

# Files listed in a confirmation dialog; past this it says how many more (the diff shows them all).
DIALOG_FILES = 12


class Decisions(ScreenPart):
    """What the review screen does on a, r and b (the screen itself is ``QueueScreen``)."""

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
        if entry is None or entry.id in self.checking:
            return
        sel = self.marked(entry)
        if sel is not None and entry.status == "pending" and not entry.gone:
            # Hunks are marked: only those, as a revision (``Revising``), which the validator
            # judges on its own: the hunks kept of a conflicting proposal may well apply.
            self.ask_partial(entry, sel)
            return
        if entry.apply_blocker is not None:
            return
        body = Text("Curator checks it again, applies it to the work tree and commits exactly these files:\n\n")
        body.append_text(self._files(entry))
        body.append("\nYour own staged and unstaged work stays as it is.")
        ulid = entry.id
        # What the person sees is what is applied: the folder as the diff pane shows it.
        shown = entry.report.subject.proposal.digest() if entry.report and entry.report.subject else None

        def done(answer: str | None) -> None:
            if answer is not None:
                self.decide_apply(ulid, shown)

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
    def decide_apply(self, ulid: str, shown: str | None = None) -> None:
        from curator.operations import apply as applier  # heavy: pygit2, never before the first paint

        review = self.review
        try:
            done = applier.apply(entries_mod.fresh(review.vault), review.settings, ulid, by=review.by, shown=shown)
        except CuratorError as e:
            self.app.call_from_thread(self._failed, ulid, f"Not applied: {e}")
            return
        where = f"committed {done.commit[:12]}" if done.commit else "applied"
        self.app.call_from_thread(self._decided, ulid, f"Applied: {where}.", True)

    @work(thread=True, exclusive=True, group="decide")
    def decide_reject(self, ulid: str, reason: str) -> None:
        review = self.review
        try:
            decisions.reject(entries_mod.fresh(review.vault), ulid, reason, by=review.by)
        except CuratorError as e:
            self.app.call_from_thread(self._failed, ulid, f"Not rejected: {e}")
            return
        self.app.call_from_thread(self._decided, ulid, "Rejected.", False)

    @work(thread=True, exclusive=True, group="decide")
    def decide_rebase(self, ulid: str) -> None:
        from curator.operations import rebase as rebaser  # heavy: pygit2 and merge3

        review = self.review
        vault = entries_mod.fresh(review.vault)
        try:
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
