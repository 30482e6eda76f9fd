"""Rebasing a drifted proposal: a 3-way merge into a new revision, never applied silently.

For each changed file the merge takes the proposal's base (``base_blob``), its
post-image (the change applied to that base) and the file as it is in the work
tree now. Where the merge is clean the result is staged as a **new** proposal
(new ULID, ``supersedes: OLD``) through ``operations.revise`` (the one way a
revision is staged), validated like any other, and the old proposal gets a
``superseded`` event. The new
revision waits in the queue for a person; nothing is applied here.

Where the merge itself conflicts (the person's edits and the proposal's change
touch the same lines), each conflicting region is reported with its lines in
the current file and in the base, and nothing is staged or recorded.

The merge is ``merge3`` (the 3-way merge of bzr and breezy), not hand-written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygit2

from curator.errors import CheckFailed, NotFound, Rejected
from curator.operations import gather as sources
from curator.operations import recovery, revise, stage
from curator.proposals import store
from curator.proposals.events import PENDING
from curator.proposals.hunks import split_lines
from curator.proposals.layout import PROPOSALS_DIR
from curator.settings import Settings
from curator.validator.state import RepoState
from curator.validator.subject import ChangeView
from curator.validator.verdict import ProposalReport, validate_proposal
from curator.vault.discover import Vault


@dataclass(frozen=True)
class MergeConflict:
    """One region where the work tree's edits and the proposal's change overlap."""

    path: str
    current: tuple[int, int]
    """1-based first and last line in the current file (last < first: an insertion point)."""
    base: tuple[int, int]
    """The same for the proposal's base."""
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass
class Rebased:
    old: str
    new: str | None = None
    """The new revision's id, when one was staged."""
    report: ProposalReport | None = None
    """The validator's verdict on the new revision (staged only when valid)."""
    conflicts: list[MergeConflict] = field(default_factory=list)
    nothing_to_do: str | None = None
    """Why there was nothing to rebase, when there was not."""


def _span(start: int, end: int) -> tuple[int, int]:
    return (start + 1, end)


def _lines_text(first: int, last: int) -> str:
    if last < first:
        return f"after line {first - 1}" if first > 1 else "at the start"
    return f"line {first}" if first == last else f"lines {first}-{last}"


def merge_text(path: str, base: str, current: str, post: str) -> tuple[str | None, list[MergeConflict]]:
    """The proposal's change (base → post) merged onto ``current``; or the conflicting regions."""
    import merge3

    base_l, cur_l, post_l = split_lines(base), split_lines(current), split_lines(post)
    m = merge3.Merge3(base_l, cur_l, post_l)
    out: list[str] = []
    conflicts: list[MergeConflict] = []
    regions: list[tuple[Any, ...]] = list(m.merge_regions())  # merge3 yields tuples of varying length
    for region in regions:
        kind = region[0]
        if kind == "unchanged":
            out.extend(base_l[region[1] : region[2]])
        elif kind in ("a", "same"):
            out.extend(cur_l[region[1] : region[2]])
        elif kind == "b":
            out.extend(post_l[region[1] : region[2]])
        else:  # conflict: (zstart, zend, astart, aend, bstart, bend)
            zs, ze, as_, ae = region[1], region[2], region[3], region[4]
            cur, bas = _span(as_, ae), _span(zs, ze)
            conflicts.append(
                MergeConflict(
                    path,
                    cur,
                    bas,
                    f"{_lines_text(*cur)} of the current file {'were' if cur[1] > cur[0] else 'was'} edited "
                    "where the proposal changes "
                    f"{_lines_text(*bas)} of its base",
                )
            )
    if conflicts:
        return None, conflicts
    return "".join(out), []


def _decode(raw: bytes | None) -> str | None:
    if raw is None:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _draft(
    vault: Vault, view: ChangeView, conflicts: list[MergeConflict], blobs: dict[str, bytes]
) -> stage.Draft | None:
    """The change redone against the current file; None when it is no longer needed.

    A base blob the object store lacks goes into ``blobs``: staging writes it only
    if the new revision is valid.
    """
    c = view.change
    if c.op == "create":
        if view.current_bytes is not None:
            conflicts.append(MergeConflict(c.path, (1, 0), (1, 0), "a file now exists where the proposal creates one"))
            return None
        return stage.Draft("create", c.path, content=view.new_bytes, kp_id=c.kp_id)
    base = _decode(view.base_bytes)
    if base is None:
        what = "is not in this repository" if view.base_bytes is None else "is not UTF-8 text"
        raise CheckFailed(
            f"cannot rebase {c.path}: its base blob {(c.base_blob or '?')[:12]} {what}",
            hint="the base is needed for a 3-way merge; ask for the proposal to be made again",
        )
    current = _decode(view.current_bytes)
    if c.op == "delete":
        if view.current_bytes is None:
            return None  # already gone: the deletion is no longer needed
        if current != base:
            conflicts.append(
                MergeConflict(
                    c.path,
                    (1, len(split_lines(current or ""))),
                    (1, len(split_lines(base))),
                    "the file changed since the proposal's base; deleting it would lose those edits",
                )
            )
            return None
        return stage.Draft(
            "delete", c.path, base_blob=c.base_blob, diff=sources.unified(c.path, view.current_bytes, None)
        )
    post = view.post_from_base
    if post is None:
        raise Rejected(
            f"cannot rebase {c.path}: the proposal does not apply to its own base",
            hint="a rebase merges base, post-image and the current file; this proposal has no post-image",
        )
    if view.current_bytes is None or current is None:
        why = "the file no longer exists" if view.current_bytes is None else "the file is no longer UTF-8 text"
        conflicts.append(MergeConflict(c.path, (1, 0), (1, len(split_lines(base))), why))
        return None
    merged, found = merge_text(c.path, base, current, post)
    if found:
        conflicts.extend(found)
        return None
    assert merged is not None
    if merged == current:
        return None  # the work tree already holds the change
    # The blob the new diff applies to must be readable by the validator and by apply.
    base_blob = str(pygit2.hash(view.current_bytes))
    if vault.repo.get(base_blob) is None:
        blobs[base_blob] = view.current_bytes
    return stage.Draft(
        "modify", c.path, base_blob=base_blob, diff=sources.unified(c.path, view.current_bytes, merged.encode("utf-8"))
    )


def rebase(vault: Vault, settings: Settings, ulid: str, *, by: str) -> Rebased:
    """Rebase proposal ``ulid`` onto the work tree as it is, under the vault lock."""
    with recovery.locked(vault, f"rebase {ulid}"):
        return _rebase(vault, settings, ulid, by=by)


def _rebase(vault: Vault, settings: Settings, ulid: str, *, by: str) -> Rebased:
    proposal = store.load_within(vault.root, ulid, settings.limits)
    if not proposal.exists:
        raise NotFound(f"no proposal {ulid} in {PROPOSALS_DIR}/")
    state = RepoState(vault, settings)
    report = validate_proposal(state, proposal)
    if report.status != PENDING:
        raise CheckFailed(f"proposal {ulid} is already {report.status}")
    subject = report.subject
    manifest = subject.manifest if subject else None
    if subject is None or manifest is None:
        raise Rejected(f"proposal {ulid} has no readable manifest", hint=f"see curator validate {ulid}")
    blocking = [f for f in report.findings if f.code != "KP005"]
    if blocking:
        first = blocking[0]
        raise Rejected(
            f"proposal {ulid} is rejected for more than drift: {first.code} {first.path}: {first.message}",
            hint="a rebase only redoes the change against the current files",
        )
    done = Rebased(ulid)
    if report.drift == "clean" and report.ok:
        done.nothing_to_do = "it applies to the vault as it is (clean)"
        return done
    drafts = []
    blobs: dict[str, bytes] = {}
    for view in subject.changes:
        draft = _draft(vault, view, done.conflicts, blobs)
        if draft is not None:
            drafts.append(draft)
    if done.conflicts:
        return done
    if not drafts:
        done.nothing_to_do = "the vault already holds every change it makes"
        return done
    made = revise.stage_revision(
        vault,
        settings,
        ulid,
        drafts,
        how="rebase",
        by=by,
        title=manifest.title,
        rationale=manifest.rationale,
        author=manifest.author,
        base=stage.head_commit(vault),
        blobs=blobs,
        revised_by=revise.author_of(by),
    )
    done.new = made.new
    done.report = made.report
    return done
