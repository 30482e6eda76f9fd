"""Verdicts kept between runs: ``curator proposals``, ``validate``, ``apply`` and the review UI ask
about the same proposals again and again, and a 6,500-note proposal takes seconds to judge.

``verdict(state, proposal, folder)`` is the one entry: the validator's verdict on a proposal
(``verdict.validate_proposal``), read from ``folder`` when it was judged before on the same
inputs, else judged now and kept. A kept verdict is keyed by everything a verdict is a function
of, and is never trusted across a change of any of them:

- the proposal folder (``ProposalDir.digest``: manifest, diff, files) and its ``events.jsonl``;
- HEAD (the commit "committed" means: decisions, base blobs, what a create may replace);
- the config, as parsed (``Settings``: globs, producers, limits);
- the work tree the proposal meets: every file's path, size and modification time from the
  stat walk (a note edited since, a new note taking a kp_id, a new ``.gitignore``), the git index
  and git's own config, ignore and attribute files (line endings, ignored paths);
- Curator itself (its source files and the versions of the libraries that judge).

A work tree that changed while a proposal was judged, or a file changed within the last two
seconds (a second edit in the same clock tick would keep its size and time: git's "racy"
case), is judged and not kept.

Kept in ``verdicts/`` in the index folder: outside the vault, private to its user (0700), like
the index and for the same reason. An agent with file tools reaches the vault (``.git`` too), and
a verdict it could write there would show a person "valid" for a proposal that is not; another
local user must not plant one either. Only Curator's own work-tree view is kept (not the staged
tree, a commit, ``--against``, or ``propose``'s overlay). A kept verdict that does not read is
judged again.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field
from typing import Any, TypeVar

from curator.errors import CuratorError
from curator.fsutil import read_own, write_atomic
from curator.locations import make_private
from curator.proposals import events as events_mod
from curator.proposals import store
from curator.proposals.store import ProposalDir
from curator.validator.finding import Finding
from curator.validator.state import RepoState
from curator.validator.subject import WORST_FIRST, Drift, build
from curator.validator.verdict import ProposalReport, validate_proposal
from curator.validator.verdict_key import SCHEMA, keeps, key_of, settled, walked

T = TypeVar("T")

MAX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Verdict:
    """What the queue, ``proposals``, ``validate`` and the review UI show of a proposal."""

    id: str
    ok: bool
    auto_applicable: bool
    status: events_mod.Status
    drift: Drift | None
    findings: tuple[Finding, ...]
    title: str | None
    """None: the manifest does not read."""
    author: str | None
    created: str | None
    supersedes: str | None
    """The proposal this one revises (its revision chain's previous link)."""
    changes: tuple[tuple[str, str], ...]
    """(op, path) of each change."""
    requested: events_mod.Event | None
    """A reviewer's request for changes, committed and still open."""
    decided: events_mod.Event | None
    """The event that decided it (``status`` is not pending)."""
    exists: bool = True
    kept: bool = False
    """Read from the kept verdicts, not judged in this call."""
    report: ProposalReport | None = field(default=None, compare=False, repr=False)
    """The validator's report (with its ``Subject``) when judged in this call."""

    @property
    def verdict(self) -> str:
        """valid or rejected: the validator's word (a decided proposal: on its record)."""
        return "valid" if self.ok else "rejected"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "ok": self.ok,
            "auto_applicable": self.auto_applicable,
            "status": self.status,
            "drift": self.drift,
            "findings": [f.to_json() for f in self.findings],
            "title": self.title,
            "author": self.author,
            "created": self.created,
            "supersedes": self.supersedes,
            "changes": [list(c) for c in self.changes],
            "requested": _event_json(self.requested),
            "decided": _event_json(self.decided),
            "exists": self.exists,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Verdict:
        return cls(
            id=_str(data["id"]),
            ok=_bool(data["ok"]),
            auto_applicable=_bool(data["auto_applicable"]),
            status=_one_of(data["status"], events_mod.STATUSES),
            drift=None if data["drift"] is None else _one_of(data["drift"], WORST_FIRST),
            findings=tuple(_finding(f) for f in data["findings"]),
            title=_str_or_none(data["title"]),
            author=_str_or_none(data["author"]),
            created=_str_or_none(data["created"]),
            supersedes=_str_or_none(data["supersedes"]),
            changes=tuple((_str(op), _str(path)) for op, path in data["changes"]),
            requested=_event(data["requested"]),
            decided=_event(data["decided"]),
            exists=_bool(data["exists"]),
            kept=True,
        )


def of_report(report: ProposalReport) -> Verdict:
    """The verdict a validator report gives."""
    subject = report.subject
    m = subject.manifest if subject is not None else None
    trusted = subject.committed_events if subject is not None and not subject.committed_event_problems else []
    decided = [e for e in subject.events if e.event == report.status] if subject is not None else []
    return Verdict(
        id=report.id,
        ok=report.ok,
        auto_applicable=report.auto_applicable,
        status=report.status,
        drift=report.drift,
        findings=tuple(report.findings),
        title=m.title if m else None,
        author=str(m.author) if m else None,
        created=m.created if m else None,
        supersedes=m.supersedes if m else None,
        changes=tuple((v.change.op, v.change.path) for v in subject.changes) if subject is not None else (),
        requested=events_mod.changes_requested(trusted),
        decided=decided[0] if decided else None,
        exists=subject is not None and subject.proposal.exists,
        report=report,
    )


def verdict(state: RepoState, proposal: ProposalDir, folder: str | None) -> Verdict:
    """The validator's verdict on ``proposal`` in ``state``: kept in ``folder`` (the index folder's
    ``verdicts/``; None keeps nothing) and read back while nothing it depends on changed.

    The one function the CLI and the review UI call for a verdict to show; ``report`` on the
    result is the validator's full report when it was judged in this call (None when read back)."""
    key = key_of(state, proposal) if folder is not None else None
    if key is not None and folder is not None:
        kept = _read(folder, proposal.id, key)
        if kept is not None:
            return kept
    report = validate_proposal(state, proposal)
    found = of_report(report)
    if (
        key is not None
        and folder is not None
        and settled(state, proposal.id)
        and key_of(state, proposal, again=True) == key
    ):
        _write(folder, proposal.id, key, found)
    return found


def kept(state: RepoState, proposal: ProposalDir, folder: str | None) -> Verdict | None:
    """The verdict kept of ``proposal`` on the inputs it meets in ``state``, or None; nothing is
    judged (the review UI shows it at once and makes the report for the diff after)."""
    key = key_of(state, proposal) if folder is not None else None
    return _read(folder, proposal.id, key) if key is not None and folder is not None else None


def kept_staged(state: RepoState, report: ProposalReport, folder: str | None) -> None:
    """Keep the verdict of a proposal judged before it was staged (``operations.stage``), now that
    it is: ``curator proposals``, the review and ``apply`` then read it back instead of judging
    the proposal again (seconds for a 6,500-note adopt).

    Kept only when nothing it depends on differs from what was judged: the folder now holds the
    proposal judged (its bytes; no events yet), and the work tree outside it, HEAD and the config
    are as ``prime`` found them before judging (the same key, whichever side computes it). The
    judged state had nothing in front of the work tree (``keeps``: no restored edits, no blobs
    the object store lacked), so it is the state a later judge meets."""
    subject = report.subject
    if folder is None or subject is None or not keeps(state) or not walked(state):
        return
    judged = subject.proposal
    try:
        staged = store.load_within(state.vault.root, judged.id, state.settings.limits)
    except CuratorError:
        return
    if not staged.exists or staged.events is not None or staged.digest() != judged.digest():
        return
    key = key_of(state, staged)
    after = RepoState(state.vault, state.settings)
    if key is None or key_of(after, staged) != key or not settled(after, staged.id):
        return
    _write(folder, staged.id, key, of_report(report))


def report(state: RepoState, proposal: ProposalDir, folder: str | None) -> ProposalReport:
    """``validate_proposal`` with the proposal read whole (its ``Subject``, as ``apply`` needs it)
    and the rules' findings read back from the kept verdict when nothing it depends on changed
    since it was judged. The work tree is looked at after the proposal's files are read: a file
    changed before that read shows in its size or time, and the verdict is judged again."""
    subject = build(proposal, state)
    key = key_of(state, proposal, again=True) if folder is not None else None
    kept = _read(folder, proposal.id, key) if key is not None and folder is not None else None
    if (
        kept is not None
        and proposal.exists
        and kept.status == subject.status == events_mod.PENDING
        # What was read agrees with what was judged (a file rewritten to the same size and time
        # would not: it is judged again, never applied on an old word).
        and kept.drift == subject.drift
        and kept.changes == tuple((v.change.op, v.change.path) for v in subject.changes)
    ):
        return ProposalReport(proposal.id, list(kept.findings), kept.auto_applicable, kept.status, kept.drift, subject)
    return validate_proposal(state, proposal, subject)


def _path(folder: str, ulid: str) -> str:
    return os.path.join(folder, f"{ulid}.json")


def _read(folder: str, ulid: str, key: str) -> Verdict | None:
    raw = read_own(_path(folder, ulid), MAX_BYTES)
    if raw is None:
        return None
    try:
        data = json.loads(raw)
        if data.get("schema") != SCHEMA or data.get("key") != key:
            return None
        found = Verdict.from_json(data["verdict"])
    except (ValueError, TypeError, KeyError, AttributeError):
        return None  # not what Curator wrote: judge again
    return found if found.id == ulid else None


def _write(folder: str, ulid: str, key: str, found: Verdict) -> None:
    """Keep ``found``; a folder that cannot be made private or written keeps nothing."""
    data = json.dumps({"schema": SCHEMA, "key": key, "verdict": found.to_json()}, ensure_ascii=False)
    with contextlib.suppress(OSError, CuratorError):
        make_private(folder)
        write_atomic(_path(folder, ulid), data.encode("utf-8"), 0o600)


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError("not a boolean")
    return value


def _str_or_none(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError("not a string")
    return value


def _one_of(value: Any, allowed: tuple[T, ...]) -> T:
    """``value`` as the state it spells, of those ``allowed``."""
    for state in allowed:
        if value == state:
            return state
    raise TypeError("not a state Curator writes")


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("not a string")
    return value


def _finding(data: Any) -> Finding:
    line = data.get("line")
    if line is not None and (not isinstance(line, int) or isinstance(line, bool)):
        raise TypeError("not a line number")
    return Finding(
        _str(data["code"]), _str(data["path"]), _str(data["message"]), line, _bool(data.get("warning", False))
    )


def _event_json(event: events_mod.Event | None) -> dict[str, Any] | None:
    return None if event is None else json.loads(event.to_json())


def _event(data: Any) -> events_mod.Event | None:
    if data is None:
        return None
    return events_mod.Event(
        _str(data["at"]),
        _one_of(data["event"], events_mod.KNOWN),
        _str(data["by"]),
        _str_or_none(data.get("commit")),
        _str_or_none(data.get("reason")),
    )
