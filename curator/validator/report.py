"""Rendering validation results. Same input, same bytes: no times, no absolute paths."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from curator.output import dumps_json, escape
from curator.proposals.events import PENDING, Status
from curator.validator.finding import Finding
from curator.validator.notes import NoteReport

if TYPE_CHECKING:
    from curator.validator.history import CommitReport
    from curator.validator.subject import Drift


class Judged(Protocol):
    """A proposal's verdict as reported: the validator's report, or a kept verdict."""

    @property
    def id(self) -> str: ...
    @property
    def ok(self) -> bool: ...
    @property
    def auto_applicable(self) -> bool: ...
    @property
    def status(self) -> Status: ...
    @property
    def drift(self) -> Drift | None: ...
    @property
    def findings(self) -> Sequence[Finding]: ...


def proposal_json(p: Judged) -> dict[str, Any]:
    """One proposal in ``validation/v1``."""
    return {
        "id": p.id,
        "ok": p.ok,
        "auto_applicable": p.auto_applicable,
        "status": p.status,
        "drift": p.drift,
        "findings": [f.to_json() for f in p.findings],
    }


def to_json(proposals: Sequence[Judged], notes: Sequence[NoteReport]) -> str:
    data: dict[str, object] = {
        "schema": "validation/v1",
        "proposals": [proposal_json(p) for p in proposals],
    }
    if notes:
        data["notes"] = [n.to_json() for n in notes]
    return dumps_json(data) + "\n"


def finding_line(f: Finding) -> str:
    where = f"{f.path}:{f.line}" if f.line else f.path
    return f"  {f.code} {where}: {'warning: ' if f.warning else ''}{f.message}"


def _verdict(p: Judged) -> str:
    """The validator's word on a pending proposal; on a decided one, the decision (its record is
    what was checked: "valid (rejected)" read as a verdict on a change a reviewer refused)."""
    if p.status == PENDING:
        return "valid" if p.ok else "rejected"
    return f"decided, {p.status}" + ("" if p.ok else "; its record is rejected")


def _summary(proposals: Sequence[Judged], notes: Sequence[NoteReport], only_rejections: bool = False) -> str:
    """``checked 3 proposal(s): all valid``; with decided proposals or rejections, each kind counted
    (the hook, which lists only what is rejected, counts only that: ``checked 2 note(s): 1 rejected``)."""
    bad = sum(not p.ok for p in proposals) + sum(not n.ok for n in notes)
    parts = []
    if proposals:
        parts.append(f"{len(proposals)} proposal(s)")
    if notes:
        parts.append(f"{len(notes)} note(s)")
    checked = " and ".join(parts) or "nothing"
    decided = Counter(p.status for p in proposals if p.status != PENDING and p.ok)
    if not bad and not decided:
        return f"checked {checked}: all valid"
    counts = []
    valid = sum(p.ok and p.status == PENDING for p in proposals) + sum(n.ok for n in notes)
    if valid and not only_rejections:
        counts.append(f"{valid} valid")
    if bad:
        counts.append(f"{bad} rejected")
    if decided:
        kinds = ", ".join(f"{n} {status}" for status, n in sorted(decided.items()))
        counts.append(f"{sum(decided.values())} decided before ({kinds})")
    return f"checked {checked}: {', '.join(counts)}"


def to_text(proposals: Sequence[Judged], notes: Sequence[NoteReport], only_rejections: bool = False) -> str:
    """One line a proposal and a note (only the rejected ones, for the hook), their findings, a summary.

    Every line goes through ``output.escape``: ids, paths and messages quote the vault.
    """
    out: list[str] = []
    for p in proposals:
        if only_rejections and p.ok and not p.findings:
            continue
        verdict = _verdict(p)
        extras = []
        if p.ok and p.auto_applicable:
            extras.append("auto-applicable")
        if p.drift and p.drift != "clean":
            extras.append(f"drift: {p.drift}")
        suffix = f" ({', '.join(extras)})" if extras else ""
        out.append(f"{p.id}: {verdict}{suffix}")
        out.extend(finding_line(f) for f in p.findings)
    for n in notes:
        if only_rejections and n.ok and not n.findings:
            continue
        out.append(f"{n.path}: {'ok' if n.ok else 'rejected'}")
        out.extend(finding_line(f) for f in n.findings)
    out.append(_summary(proposals, notes, only_rejections))
    return "".join(escape(line) + "\n" for line in out)


def commits_to_json(commits: Sequence[CommitReport]) -> str:
    data = {"schema": "validation/v1", "commits": [c.to_json() for c in commits]}
    return dumps_json(data) + "\n"


def commits_to_text(commits: Sequence[CommitReport]) -> str:
    """Each rejected commit with its rejections, then one summary line."""
    out: list[str] = []
    for c in commits:
        if c.ok:
            continue
        out.append(escape(f"commit {c.commit[:12]} {c.summary}: rejected"))
        out.extend(escape(finding_line(f)) for f in c.config)
        body = to_text(c.proposals, c.notes, only_rejections=True).splitlines()[:-1]
        out.extend(f"  {line}" for line in body)
    bad = sum(not c.ok for c in commits)
    out.append(f"checked {len(commits)} commit(s): {'all valid' if not bad else f'{bad} rejected'}")
    return "".join(line + "\n" for line in out)
