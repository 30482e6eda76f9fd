"""The review screen's revisions: keep some hunks (space, ``f``), edit before applying (``e``),
ask for changes (``c``), and the diff against the revision a proposal supersedes (``i``).

Each goes through ``curator.operations.revise`` (and ``decisions.request_changes``), the code
``curator apply --only/--hunks`` and ``curator request-changes`` run; ``QueueScreen`` holds
the keys, ``Decisions.action_apply`` asks here first whether hunks are marked.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work

from curator import unsafe
from curator.diffview.visible import visible
from curator.errors import CuratorError
from curator.operations import decisions
from curator.review import entries as entries_mod
from curator.review.confirm import ConfirmScreen
from curator.review.marks import Marks, hunks_of, place, total_hunks
from curator.review.screen_part import ScreenPart

if TYPE_CHECKING:
    from curator.diffview.model import DiffModel
    from curator.proposals.revision import Selection
    from curator.review.entries import Entry
    from curator.validator.subject import ChangeView


class Revising(ScreenPart):
    """Marks, edits, requests for changes and revision diffs (the screen itself is ``QueueScreen``)."""

    def init_revising(self) -> None:
        self.marks: dict[str, Marks] = {}
        """What the reviewer keeps of each proposal, until it is decided."""
        self.against: str | None = None
        """The proposal whose diff against the revision it supersedes is shown (``i``), if any."""
        self.against_first: str | None = None
        """A revision just staged here (an edit): shown first with its diff against the one it supersedes."""

    # --- marks --------------------------------------------------------------------------

    def _changes(self, entry: Entry | None) -> list[ChangeView] | None:
        """The highlighted proposal's changes, when the diff shown is drawn from them."""
        if entry is None or entry.report is None or entry.report.subject is None or entry.status != "pending":
            return None
        model = self.models.get(entry.id)
        changes = entry.report.subject.changes
        if model is None or self.diff.model is not model or len(model.files) != len(changes):
            return None
        return changes

    def marked(self, entry: Entry | None) -> Selection | None:
        """What is marked of ``entry`` (None: nothing, and ``a`` applies all of it)."""
        if entry is None or not self.marks.get(entry.id) or not self.marks[entry.id].count():
            return None
        changes = entry.report.subject.changes if entry.report and entry.report.subject else []
        return self.marks[entry.id].selection(changes)

    def marks_line(self, entry: Entry | None) -> str:
        """The count the line above the footer shows, e.g. ``1 of 3 hunks marked``."""
        marks = self.marks.get(entry.id) if entry else None
        if entry is None or not marks or not marks.count():
            return ""
        changes = entry.report.subject.changes if entry.report and entry.report.subject else []
        return f"{marks.count()} of {total_hunks(changes)} hunks marked — a applies only those"

    def refresh_marks(self, entry: Entry | None) -> None:
        changes = self._changes(entry)
        model = self.diff.model
        marks = self.marks.get(entry.id) if entry is not None else None
        self._footer_count(f"Keep {marks.count()}/{total_hunks(changes or [])}" if marks and marks.count() else "Keep")
        if entry is None or changes is None or model is None:
            self.diff.set_marks(frozenset())
            return
        self.diff.set_marks((marks or Marks()).rows(model, changes))

    def _footer_count(self, label: str) -> None:
        """The footer's space key says how many hunks are kept (``Keep 1/3``): this screen's own
        copy of the binding, relabelled."""
        found = self._bindings.key_to_bindings.get("space")
        if not found or found[0].description == label:
            return
        self._bindings.key_to_bindings["space"] = [dataclasses.replace(b, description=label) for b in found]
        self.refresh_bindings()

    def _toggle(self, whole_file: bool) -> None:
        entry = self.current()
        changes = self._changes(entry)
        row = self.diff.current_row()
        model = self.diff.model
        if entry is None or changes is None or row is None or model is None:
            if entry is not None and entry.status == "pending":
                self.notify("Wait for the pre-flight, then mark hunks.", timeout=3)
            return
        file, hunk = place(model, row)
        view = changes[file]
        marks = self.marks.setdefault(entry.id, Marks())
        if whole_file or hunk is None or view.change.op != "modify":
            marks.toggle_file(view.change.path, hunks_of(view))
        else:
            marks.toggle_hunk(view.change.path, hunk)
        self._show(entry)

    def action_toggle_hunk(self) -> None:
        self._toggle(whole_file=False)

    def action_toggle_file(self) -> None:
        self._toggle(whole_file=True)

    def ask_partial(self, entry: Entry, sel: Selection) -> None:
        changes = entry.report.subject.changes if entry.report and entry.report.subject else []
        counts = {v.change.path: hunks_of(v) for v in changes}
        body = Text(
            "Only what you marked becomes a new revision of this proposal (its author kept, you recorded as "
            "its reviewer). Curator validates it, applies it and commits exactly its files; this proposal is "
            "marked superseded. The rest is not applied.\n\n"
        )
        for part in sel.describe(counts).split("; "):
            body.append(f"  keep {visible(part)}\n")
        body.append("\nYour own staged and unstaged work stays as it is.")
        ulid = entry.id
        marks = self.marks.get(ulid)
        shown = f"{marks.count() if marks else 0} of {total_hunks(changes)} hunks"

        def done(answer: str | None) -> None:
            if answer is not None:
                self.decide_partial(ulid, sel)

        self.app.push_screen(ConfirmScreen(f"Apply {shown} of “{entry.title}”?", body, verb="Apply"), done)

    @work(thread=True, exclusive=True, group="decide")
    def decide_partial(self, ulid: str, sel: Selection) -> None:
        from curator.operations import revise  # heavy: pygit2

        review = self.review
        try:
            done = revise.apply_partial(entries_mod.fresh(review.vault), review.settings, ulid, sel, by=review.by)
        except CuratorError as e:
            self.app.call_from_thread(self._failed, ulid, f"Not applied: {e}")
            return
        applied = done.applied
        where = f"committed {applied.commit[:12]}" if applied.commit else "applied"
        new = done.revision.new if done.revision else None
        self.app.call_from_thread(self._partly_applied, ulid, new, where)

    def _partly_applied(self, ulid: str, new: str | None, where: str) -> None:
        if self.closing:
            return
        self.marks.pop(ulid, None)
        if new is not None:
            self.queue.decided_here.add(new)
            self._decided(ulid, f"Applied what you kept as revision {new}: {where}; {ulid} is superseded.", True)
        else:
            self._decided(ulid, f"Everything was marked: the proposal itself was applied, {where}.", True)

    # --- edit before apply ----------------------------------------------------------------

    def action_edit(self) -> None:
        from curator.review.editor import EditScreen, editor_command, run_editor

        entry = self.current()
        changes = self._changes(entry)
        row = self.diff.current_row()
        model = self.diff.model
        if entry is None or changes is None or row is None or model is None:
            if entry is not None and entry.status == "pending":
                self.notify("Wait for the pre-flight, then edit.", timeout=3)
            return
        file, hunk = place(model, row)
        view = changes[file]
        path = view.change.path
        if view.change.op == "delete":
            self.notify(f"{visible(path)} is deleted by the proposal: there is nothing to edit.", timeout=5)
            return
        text = view.post_text
        if text is None:
            self.notify(f"{visible(path)}: the proposed file cannot be worked out or is not text.", timeout=5)
            return
        line = None
        if hunk is not None:
            header = model.rows[row] if model.rows[row].kind == "hunk" else None
            line = _new_line(header.text) if header is not None else None
        ulid = entry.id
        command = editor_command()
        if command is not None:
            edited = run_editor(self.app, command, text, line, suffix="-" + path.rsplit("/", 1)[-1])
            if edited is None:
                self.notify(f"The editor ({command[0]}) failed; nothing was staged.", severity="error", timeout=6)
            elif edited == text:
                self.notify("Unchanged: nothing was staged.", timeout=4)
            else:
                self.decide_edit(ulid, path, edited)
            return
        if unsafe.first_unsafe(text, keep="\n\t") is not None:
            self.notify(
                "The proposed file holds control characters; set $EDITOR to edit it outside the app.",
                severity="warning",
                timeout=8,
            )
            return

        def done(edited: str | None) -> None:
            if edited is None:
                return
            if edited == text:
                self.notify("Unchanged: nothing was staged.", timeout=4)
            else:
                self.decide_edit(ulid, path, edited)

        self.app.push_screen(EditScreen(visible(path), text, line), done)

    @work(thread=True, exclusive=True, group="decide")
    def decide_edit(self, ulid: str, path: str, text: str) -> None:
        from curator.operations import revise  # heavy: pygit2

        review = self.review
        try:
            made = revise.edit(entries_mod.fresh(review.vault), review.settings, ulid, path, text, by=review.by)
        except CuratorError as e:
            self.app.call_from_thread(self._failed, ulid, f"Not staged: {e}")
            return
        if not made.ok:
            first = made.report.findings[0]
            self.app.call_from_thread(
                self._failed,
                ulid,
                f"Your edit is rejected by the validator ({first.code} {visible(first.path)}: "
                f"{visible(first.message)}); nothing was staged.",
            )
            return
        self.app.call_from_thread(self._revised, ulid, made.new, "Your edit is staged as revision")

    def _revised(self, old: str, new: str, what: str) -> None:
        if self.closing:
            return
        self.notify(f"{what} {new}; {old} is superseded. Shown against it; i shows its own diff.", timeout=8)
        self.against_first = new
        self.queue.decided_here.add(old)
        self.marks.pop(old, None)
        self.models.pop(old, None)
        self.load_queue(select=new)

    # --- request changes ------------------------------------------------------------------

    def action_request_changes(self) -> None:
        entry = self.current()
        if entry is None or entry.status != "pending" or entry.gone:
            return
        body = Text(
            "The proposal stays in the queue and the vault as it is; a changes-requested event records "
            "your reason. Its author reads it (kp_proposal, as your words) and answers with a new revision, "
            "which supersedes this one.\n"
        )
        ulid = entry.id

        def done(reason: str | None) -> None:
            if reason:
                self.decide_request(ulid, reason)

        self.app.push_screen(
            ConfirmScreen(f"Ask for changes to “{entry.title}”?", body, verb="Ask for changes", ask_reason=True), done
        )

    @work(thread=True, exclusive=True, group="decide")
    def decide_request(self, ulid: str, reason: str) -> None:
        review = self.review
        try:
            decisions.request_changes(entries_mod.fresh(review.vault), ulid, reason, by=review.by)
        except CuratorError as e:
            self.app.call_from_thread(self._failed, ulid, f"Not recorded: {e}")
            return
        self.app.call_from_thread(self._requested, ulid)

    def _requested(self, ulid: str) -> None:
        if self.closing:
            return
        self.notify("Changes requested: the proposal waits for its author's revision.", timeout=6)
        self.models.pop(ulid, None)
        following = self.queue.next_pending(ulid)
        self.load_queue(select=following or ulid)

    # --- the diff against the revision superseded ----------------------------------------

    def show_against_first(self, entry: Entry | None) -> None:
        """Once the revision just staged is highlighted and checked, its diff against the old one."""
        if entry is not None and entry.id == self.against_first and entry.report is not None and entry.supersedes:
            self.against_first = None
            if self.against != entry.id:
                self.action_against()

    def action_against(self) -> None:
        entry = self.current()
        if entry is None:
            return
        if self.against == entry.id:
            self.against = None
            self.diff.border_title = "Changes"
            self.diff.show(None, "Checking…", of=None)
            self._show(entry)
            return
        old = entry.supersedes
        if not old:
            self.notify("This proposal is not a revision of another one.", timeout=4)
            return
        self.against = entry.id
        self.diff.border_title = f"Changes against {old} (the revision it supersedes)"
        self.diff.show(None, f"Comparing with {old}…", of=None)
        self.compare(entry.id, old)

    @work(thread=True, exclusive=True, group="against")
    def compare(self, new: str, old: str) -> None:
        from curator.diffview.between import between
        from curator.diffview.model import build

        review = self.review
        ours = entries_mod.check(review.vault, review.settings, new)
        theirs = entries_mod.check(review.vault, review.settings, old)
        readable = [r.subject is not None and r.subject.proposal.exists and r.subject.manifest for r in (ours, theirs)]
        if not all(readable):
            self.app.call_from_thread(self._compared, new, None, f"{old} cannot be read: nothing to compare with.")
            return
        assert ours.subject is not None and theirs.subject is not None
        views = between(theirs.subject, ours.subject)
        model = build(views, review.settings.producers.names) if views else None
        self.app.call_from_thread(self._compared, new, model, "")

    def _compared(self, new: str, model: DiffModel | None, why: str) -> None:
        if self.closing or self.against != new or self.queue.chosen != new:
            return
        if model is None:
            self.diff.show(None, why or "No difference: the two revisions leave the files the same.")
        else:
            self.diff.show(model, of=f"{new} against")


def _new_line(header: str) -> int | None:
    """The first new-side line a hunk header names (``@@ -a,b +c,d @@`` → c)."""
    try:
        new = header.split("+", 1)[1].split(" ", 1)[0]
        return max(1, int(new.split(",", 1)[0]))
    except (IndexError, ValueError):
        return None
