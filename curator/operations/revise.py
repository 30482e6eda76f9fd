"""Staging a revision: a new proposal that supersedes a pending one, under the vault lock.

One way for every revision (``curator.proposals.revision`` says what one is):
``stage_revision`` checks the old proposal is pending, journals the pair
(``rebase_journal``: killed between the two steps, the next command finishes or undoes
it), stages the new one through ``stage.stage`` (validated like any proposal, written
only when valid) and records the old one's ``superseded`` event, naming the new one,
in a decision commit of its own. Nothing is applied here, except by ``apply_partial``,
which stages the reviewer's selection and applies it in the same hold of the lock.

- ``partial`` / ``apply_partial``: the files and hunks a reviewer keeps (author kept,
  reviewer recorded as ``revised_by``);
- ``edit``: a reviewer's own post-image of one file (the revision is the reviewer's);
- ``answer``: an author's new changes in reply to a request for changes (MCP's
  ``kp_propose`` with ``revises``);
- ``curator.operations.rebase``: a 3-way merge onto the files as they are now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygit2

from curator.errors import CheckFailed, NotFound, Rejected, UsageError, told
from curator.operations import apply as applier
from curator.operations import decisions, rebase_journal, recovery, stage, then_apply_journal
from curator.operations import gather as sources
from curator.operations.committed import committed_events, committed_status
from curator.proposals import events as events_mod
from curator.proposals import revision, store
from curator.proposals.layout import PROPOSALS_DIR
from curator.proposals.manifest import Author
from curator.validator.state import RepoState
from curator.validator.verdict import ProposalReport, validate_proposal
from curator.vault.identity import is_ulid, new_ulid

if TYPE_CHECKING:
    from curator.operations.apply import Applied
    from curator.settings import Settings
    from curator.validator.subject import ChangeView, Subject
    from curator.vault.discover import Vault


def author_of(by: str) -> Author:
    """``kind:name`` (what events record in ``by``) as a manifest author."""
    return stage.parse_author(by)


def newer_revision(vault: Vault, ulid: str) -> str | None:
    """The revision that superseded ``ulid``, as its committed ``superseded`` event names it."""
    raw = committed_events(vault, ulid)
    evs = events_mod.parse(raw)[0] if raw is not None else []
    for e in evs:
        if e.event == "superseded" and e.reason:
            named = [w for w in e.reason.split() if is_ulid(w) and w != ulid]
            if named:
                return named[-1]
    return None


def check_revisable(vault: Vault, ulid: str) -> None:
    """A revision answers a pending proposal: a missing or decided one is refused, in one line."""
    if not is_ulid(ulid):
        shown = ulid if len(ulid) <= 40 else ulid[:40] + "…"
        raise UsageError(f"{shown!r} is not a proposal id (a ULID)")
    folder = store.folder_of(vault.root, ulid)
    if folder.state() != "folder":
        raise NotFound(f"no proposal {ulid} in {PROPOSALS_DIR}/ to revise")
    state = committed_status(vault, ulid)
    if state == "superseded":
        newer = newer_revision(vault, ulid)
        hint = f"revise {newer}, its newer revision" if newer else "revise its newer revision"
        raise CheckFailed(f"proposal {ulid} is already superseded; only a pending proposal can be revised", hint=hint)
    if state != events_mod.PENDING:
        raise CheckFailed(
            f"proposal {ulid} is already {state}; only a pending proposal can be revised",
            hint="propose the change again as a new proposal" if state == "rejected" else None,
        )


@dataclass
class Revision:
    old: str
    staged: stage.Staged

    @property
    def new(self) -> str:
        return self.staged.id

    @property
    def ok(self) -> bool:
        return self.staged.ok

    @property
    def report(self) -> ProposalReport:
        return self.staged.report


def stage_revision(
    vault: Vault,
    settings: Settings,
    old: str,
    drafts: list[stage.Draft],
    *,
    how: str,
    by: str,
    title: str,
    rationale: str,
    author: Author,
    base: str,
    blobs: dict[str, bytes] | None = None,
    revised_by: Author | None = None,
    ulid: str | None = None,
) -> Revision:
    """Stage ``drafts`` as a revision of ``old`` (as ``ulid``, or a new id) and supersede ``old``
    by it (when it is valid)."""
    if how not in revision.HOW:
        raise ValueError(f"unknown kind of revision {how!r}")
    with recovery.locked(vault, f"revise {old}"):
        check_revisable(vault, old)
        new = ulid or new_ulid()
        # Journaled first: a kill between staging the new revision and superseding the old one
        # is finished or undone by the next command (rebase_journal), never left as two pending.
        # An error on the way leaves the journal for the next command to settle, as a kill would.
        rebase_journal.save(vault, old, new)
        staged = stage.stage(
            vault,
            settings,
            drafts,
            title=title,
            rationale=rationale,
            author=author,
            base=base,
            blobs=blobs,
            ulid=new,
            supersedes=old,
            revised_by=revised_by,
        )
        if staged.ok:
            decisions.record(vault, old, "superseded", by, revision.superseded_reason(how, new))
        rebase_journal.clear(vault)
        return Revision(old, staged)


# --- what a revision holds ---------------------------------------------------------------


def _pending_subject(vault: Vault, settings: Settings, ulid: str) -> tuple[ProposalReport, Subject]:
    check_revisable(vault, ulid)
    report = validate_proposal(RepoState(vault, settings), store.load_within(vault.root, ulid, settings.limits))
    subject = report.subject
    if subject is None or subject.manifest is None:
        raise Rejected(f"proposal {ulid} has no readable manifest", hint=f"see curator validate {ulid}")
    return report, subject


def hunk_counts(subject: Subject) -> dict[str, int]:
    """Each changed path's number of hunks as the diff numbers them (a new note counts as one)."""
    counts = {}
    for view in subject.changes:
        c = view.change
        counts[c.path] = 1 if c.op == "create" or view.patch is None else len(view.patch.hunks)
    return counts


def _copy(view: ChangeView) -> stage.Draft:
    """A change of the old proposal, carried into the revision as it is."""
    c = view.change
    if c.op == "create":
        if view.new_bytes is None:
            raise Rejected(f"{c.path}: the new note is missing from the proposal's files/")
        return stage.Draft("create", c.path, content=view.new_bytes, kp_id=c.kp_id)
    if view.patch is None:
        raise Rejected(f"{c.path}: changes.diff has no section for it", hint="see curator validate")
    return stage.Draft(c.op, c.path, base_blob=c.base_blob, diff=_ended(view.patch.text), kp_id=c.kp_id)


def _ended(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def partial_drafts(subject: Subject, sel: revision.Selection) -> list[stage.Draft]:
    """The changes ``sel`` keeps, each hunk exactly as the proposal has it."""
    counts = hunk_counts(subject)
    revision.check(sel, {v.change.path: v.change.op for v in subject.changes}, counts)
    drafts = []
    for view in subject.changes:
        c = view.change
        kept = sel.kept(c.path, counts[c.path])
        if not kept:
            continue
        if c.op != "modify" or len(kept) == counts[c.path]:
            drafts.append(_copy(view))
            continue
        assert view.patch is not None
        drafts.append(
            stage.Draft("modify", c.path, base_blob=c.base_blob, diff=_ended(revision.section(view.patch, kept)))
        )
    return drafts


def covers_all(subject: Subject, sel: revision.Selection) -> bool:
    counts = hunk_counts(subject)
    return all(len(sel.kept(p, n)) == n for p, n in counts.items())


def _partial_rationale(rationale: str, by: str, what: str) -> str:
    note = f"Partly accepted by {by}: {what}."
    return f"{rationale.rstrip()}\n\n{note}" if rationale.strip() else note


def preview_partial(vault: Vault, settings: Settings, ulid: str, sel: revision.Selection, *, by: str) -> ProposalReport:
    """The validator's report on the revision ``sel`` would stage, built in memory: what a
    confirmation shows. Nothing is written."""
    _report, subject = _pending_subject(vault, settings, ulid)
    m = subject.manifest
    assert m is not None
    drafts = partial_drafts(subject, sel)
    proposal = stage.build(
        drafts,
        ulid=new_ulid(),
        title=m.title,
        rationale=_partial_rationale(m.rationale, by, sel.describe(hunk_counts(subject))),
        author=m.author,
        base=m.base,
        supersedes=ulid,
        revised_by=author_of(by),
    )
    return validate_proposal(RepoState(vault, settings), proposal)


def partial(
    vault: Vault, settings: Settings, ulid: str, sel: revision.Selection, *, by: str, new: str | None = None
) -> Revision:
    """Stage the part of ``ulid`` that ``sel`` keeps as its revision; the author stays, ``by`` is
    recorded as the reviewer (``revised_by``, and the ``superseded`` event)."""
    with recovery.locked(vault, f"partly accept {ulid}"):
        _report, subject = _pending_subject(vault, settings, ulid)
        m = subject.manifest
        assert m is not None
        drafts = partial_drafts(subject, sel)
        return stage_revision(
            vault,
            settings,
            ulid,
            drafts,
            how="partial",
            by=by,
            title=m.title,
            rationale=_partial_rationale(m.rationale, by, sel.describe(hunk_counts(subject))),
            author=m.author,
            base=m.base,
            revised_by=author_of(by),
            ulid=new,
        )


@dataclass
class PartlyApplied:
    applied: Applied
    revision: Revision | None
    """The revision staged for the selection; None when it kept everything (the proposal itself
    was applied)."""


def apply_partial(
    vault: Vault, settings: Settings, ulid: str, sel: revision.Selection, *, by: str, commit: bool = True
) -> PartlyApplied:
    """Stage the selection as a revision, then apply that revision: one step, under one lock.

    A selection of every hunk applies the proposal itself. A revision the validator rejects is
    not staged, and nothing is superseded or applied."""
    with recovery.locked(vault, f"partly apply {ulid}"):
        _report, subject = _pending_subject(vault, settings, ulid)
        revision.check(sel, {v.change.path: v.change.op for v in subject.changes}, hunk_counts(subject))
        if covers_all(subject, sel):
            return PartlyApplied(applier.apply(vault, settings, ulid, by=by, commit=commit), None)
        # Journaled first: killed after the revision is staged or the proposal superseded, the
        # next command applies the revision (then_apply_journal), as this one would have.
        new = new_ulid()
        then_apply_journal.save(vault, new, by, commit=commit)
        try:
            made = partial(vault, settings, ulid, sel, by=by, new=new)
            if not made.ok:
                first = made.report.findings[0]
                raise Rejected(
                    f"the selection from {ulid} is rejected by the validator: {first.code} {first.path}: {first.message}",
                    hint="nothing was staged or applied; choose other hunks, or apply or reject the whole proposal",
                )
            try:
                done = applier.apply(vault, settings, made.new, by=by, commit=commit)
            except Exception as e:
                said = told(e, f" (the selection waits in the queue as {made.new}, which supersedes {ulid})")
                if said is None:
                    raise
                raise said from e
        except Exception:
            then_apply_journal.clear(vault)  # said in the message: nothing is left to finish
            raise
        then_apply_journal.clear(vault)
        return PartlyApplied(done, made)


def edit(vault: Vault, settings: Settings, ulid: str, path: str, new_text: str, *, by: str) -> Revision:
    """A reviewer's own version of ``path`` in ``ulid``: a revision authored by ``by`` holding
    the proposal's other changes as they were and this file as the reviewer left it."""
    with recovery.locked(vault, f"edit {ulid}"):
        _report, subject = _pending_subject(vault, settings, ulid)
        m = subject.manifest
        assert m is not None
        drafts: list[stage.Draft] = []
        blobs: dict[str, bytes] = {}
        found = False
        new_bytes = new_text.encode("utf-8")
        for view in subject.changes:
            c = view.change
            if c.path != path:
                drafts.append(_copy(view))
                continue
            found = True
            if c.op == "delete":
                raise UsageError(f"{path} is deleted by the proposal: there is no text to edit")
            if c.op == "create":
                drafts.append(stage.Draft("create", path, content=new_bytes, kp_id=c.kp_id))
                continue
            # The edit is made on the file as it is now (what the reviewer saw proposed).
            before = view.current_bytes if view.current_bytes is not None else view.base_bytes
            if before is None:
                raise Rejected(f"{path}: neither the file nor the proposal's base blob can be read")
            if new_bytes == before:
                continue  # edited back to the file as it is: this file is left out
            oid = str(pygit2.hash(before))
            if vault.repo.get(oid) is None:
                blobs[oid] = before
            drafts.append(stage.Draft("modify", path, base_blob=oid, diff=sources.unified(path, before, new_bytes)))
        if not found:
            raise UsageError(f"{path} is not a file this proposal changes")
        if not drafts:
            raise UsageError("the edit leaves nothing to propose: every file is as it is in the vault")
        author = author_of(by)
        note = f"Edited by {by} from {m.author}'s proposal {ulid}."
        rationale = f"{m.rationale.rstrip()}\n\n{note}" if m.rationale.strip() else note
        return stage_revision(
            vault,
            settings,
            ulid,
            drafts,
            how="edit",
            by=by,
            title=m.title,
            rationale=rationale,
            author=author,
            base=stage.head_commit(vault),
            blobs=blobs,
        )
