"""The decisions: apply (whole, or the hunks kept), reject, rebase, edit and ask for changes,
each asked first and run in a worker through the code the CLI runs (``operations.apply``,
``operations.decisions``, ``operations.rebase``, ``operations.revise``).

``Decisions`` is a widget that is never drawn: it asks, decides, and posts what came of it
(``Decisions.Done``, ``Decisions.Failed``) for the screen to show.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from textual import work
from textual.message import Message
from textual.widget import Widget

from curator import unsafe
from curator.diffview.visible import visible
from curator.errors import CuratorError
from curator.operations import decisions
from curator.proposals.events import PENDING
from curator.review import asks
from curator.review import entries as entries_mod
from curator.review.confirm import ConfirmScreen
from curator.review.marks import place

if TYPE_CHECKING:
    from rich.text import Text

    from curator.diffview.model import DiffModel
    from curator.proposals.revision import Selection
    from curator.review.entries import Entry
    from curator.settings import Settings
    from curator.validator.subject import ChangeView
    from curator.vault.discover import Vault

Outcome = Literal["applied", "partly applied", "rejected", "rebased", "edited", "requested"]


class Decisions(Widget):
    """What the review screen does on a, r, b, e and c."""

    DEFAULT_CSS = """
    Decisions {
        display: none;
    }
    """

    class Done(Message):
        """A decision went through: ``said`` tells the reviewer; ``new``: the revision it staged."""

        def __init__(self, ulid: str, outcome: Outcome, said: str, new: str | None = None) -> None:
            super().__init__()
            self.ulid = ulid
            self.outcome = outcome
            self.said = said
            self.new = new

    class Failed(Message):
        """A decision did not go through; ``said`` says why (the proposal or vault may have changed)."""

        def __init__(self, ulid: str, said: str) -> None:
            super().__init__()
            self.ulid = ulid
            self.said = said

    def __init__(self, vault: Vault, settings: Settings, kept_in: str | None = None) -> None:
        super().__init__()
        self.vault = vault
        self.settings = settings
        self.kept_in = kept_in
        """Where verdicts are kept (``validator.verdicts``): apply does not run the rules again on
        a proposal judged on the same inputs, as ``curator apply`` does not."""
        self._by: str | None = None

    @property
    def by(self) -> str:
        """Who decides: recorded in each event, as ``curator apply``/``reject`` record it.

        Read from git's config when the first decision is made (in its worker): opening the
        repository loads pygit2, which the queue's first paint does not need."""
        if self._by is None:
            from curator.operations import stage

            self._by = f"human:{stage.default_author(entries_mod.fresh(self.vault)).name}"
        return self._by

    def _ask(
        self, question: tuple[str, Text], verb: str, then: Callable[[str], object], *, reason: bool = False
    ) -> None:
        title, body = question

        def done(answer: str | None) -> None:
            if answer is not None and (answer or not reason):
                then(answer)

        self.app.push_screen(ConfirmScreen(title, body, verb=verb, ask_reason=reason), done)

    # --- asking ---------------------------------------------------------------------------

    def ask(self, action: str, entry: Entry, kept: Selection | None = None, marked: int = 0) -> None:
        """Ask before ``action`` (apply, reject, rebase, request_changes) on ``entry``, then do it.

        With hunks ``kept``, apply takes only those, as a revision the validator judges on its
        own (the hunks kept of a conflicting proposal may well apply)."""
        ulid = entry.id
        if action == "apply" and kept is not None and entry.status == PENDING and not entry.gone:
            self._ask(asks.apply_kept(entry, kept, marked), "Apply", lambda _: self.apply_kept(ulid, kept))
        elif action == "apply" and entry.apply_blocker is None:
            # What the person sees is what is applied: the folder as the diff pane shows it.
            shown = entry.shown_digest()
            self._ask(asks.apply(entry), "Apply", lambda _: self.apply(ulid, shown))
        elif action == "reject":
            self._ask(asks.reject(entry), "Reject", lambda why: self.reject(ulid, why), reason=True)
        elif action == "rebase":
            self._ask(asks.rebase(entry), "Rebase", lambda _: self.rebase(ulid))
        elif action == "request_changes":
            question = asks.request_changes(entry)
            self._ask(question, "Ask for changes", lambda why: self.request_changes(ulid, why), reason=True)

    def edit(self, ulid: str, model: DiffModel, changes: Sequence[ChangeView], row: int) -> None:
        """``e`` at diff row ``row``: the proposed file in ``$VISUAL``/``$EDITOR``, or in the app,
        opened at that hunk; what is saved is staged as a revision."""
        from curator.review.editor import EditScreen, editor_command, line_of, run_editor

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
        header = model.rows[row] if hunk is not None and model.rows[row].kind == "hunk" else None
        line = line_of(header.text) if header is not None else None
        command = editor_command()
        if command is not None:
            edited = run_editor(self.app, command, text, line, suffix="-" + path.rsplit("/", 1)[-1])
            if edited is None:
                self.notify(f"The editor ({command[0]}) failed; nothing was staged.", severity="error", timeout=6)
            elif edited == text:
                self.notify("Unchanged: nothing was staged.", timeout=4)
            else:
                self.stage_edit(ulid, path, edited)
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
                self.stage_edit(ulid, path, edited)

        self.app.push_screen(EditScreen(visible(path), text, line), done)

    # --- deciding (workers) -----------------------------------------------------------------

    @work(thread=True, exclusive=True, group="decide")
    def apply(self, ulid: str, shown: str | None = None) -> None:
        from curator.operations import apply as applier  # heavy: pygit2, never before the first paint

        try:
            vault = entries_mod.fresh(self.vault)
            done = applier.apply(vault, self.settings, ulid, by=self.by, shown=shown, kept=self.kept_in)
        except CuratorError as e:
            self.post_message(self.Failed(ulid, f"Not applied: {e}"))
            return
        where = f"committed {done.commit[:12]}" if done.commit else "applied"
        self.post_message(self.Done(ulid, "applied", f"Applied: {where}."))

    @work(thread=True, exclusive=True, group="decide")
    def apply_kept(self, ulid: str, sel: Selection) -> None:
        from curator.operations import revise  # heavy: pygit2

        try:
            done = revise.apply_partial(entries_mod.fresh(self.vault), self.settings, ulid, sel, by=self.by)
        except CuratorError as e:
            self.post_message(self.Failed(ulid, f"Not applied: {e}"))
            return
        where = f"committed {done.applied.commit[:12]}" if done.applied.commit else "applied"
        new = done.revision.new if done.revision else None
        if new is not None:
            said = f"Applied what you kept as revision {new}: {where}; {ulid} is superseded."
        else:
            said = f"Everything was marked: the proposal itself was applied, {where}."
        self.post_message(self.Done(ulid, "partly applied", said, new))

    @work(thread=True, exclusive=True, group="decide")
    def reject(self, ulid: str, reason: str) -> None:
        try:
            decisions.reject(entries_mod.fresh(self.vault), ulid, reason, by=self.by)
        except CuratorError as e:
            self.post_message(self.Failed(ulid, f"Not rejected: {e}"))
            return
        self.post_message(self.Done(ulid, "rejected", "Rejected."))

    @work(thread=True, exclusive=True, group="decide")
    def rebase(self, ulid: str) -> None:
        from curator.operations import rebase as rebaser  # heavy: pygit2 and merge3

        try:
            done = rebaser.rebase(entries_mod.fresh(self.vault), self.settings, ulid, by=self.by)
        except CuratorError as e:
            self.post_message(self.Failed(ulid, f"Not rebased: {e}"))
            return
        if done.conflicts:
            lines = "\n".join(f"{visible(c.path)}: {c.message}" for c in done.conflicts)
            self.post_message(self.Failed(ulid, f"The 3-way merge conflicts; nothing was staged.\n{lines}"))
        elif done.nothing_to_do:
            self.post_message(self.Failed(ulid, f"Nothing to rebase: {done.nothing_to_do}."))
        elif done.report is not None and not done.report.ok:
            first = done.report.findings[0]
            said = f"The merged revision is rejected ({first.code} {visible(first.path)}); nothing was staged."
            self.post_message(self.Failed(ulid, said))
        else:
            said = f"New revision {done.new} staged for review; {ulid} is superseded."
            self.post_message(self.Done(ulid, "rebased", said, done.new))

    @work(thread=True, exclusive=True, group="decide")
    def stage_edit(self, ulid: str, path: str, text: str) -> None:
        from curator.operations import revise  # heavy: pygit2

        try:
            made = revise.edit(entries_mod.fresh(self.vault), self.settings, ulid, path, text, by=self.by)
        except CuratorError as e:
            self.post_message(self.Failed(ulid, f"Not staged: {e}"))
            return
        if not made.ok:
            first = made.report.findings[0]
            said = (
                f"Your edit is rejected by the validator ({first.code} {visible(first.path)}: "
                f"{visible(first.message)}); nothing was staged."
            )
            self.post_message(self.Failed(ulid, said))
            return
        said = (
            f"Your edit is staged as revision {made.new}; {ulid} is superseded. Shown against it; i shows its own diff."
        )
        self.post_message(self.Done(ulid, "edited", said, made.new))

    @work(thread=True, exclusive=True, group="decide")
    def request_changes(self, ulid: str, reason: str) -> None:
        try:
            decisions.request_changes(entries_mod.fresh(self.vault), ulid, reason, by=self.by)
        except CuratorError as e:
            self.post_message(self.Failed(ulid, f"Not recorded: {e}"))
            return
        self.post_message(
            self.Done(ulid, "requested", "Changes requested: the proposal waits for its author's revision.")
        )
