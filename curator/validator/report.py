"""Rendering validation results. Same input, same bytes: no times, no absolute paths."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from curator.output import dumps_json, escape
from curator.validator.finding import Finding
from curator.validator.notes import NoteReport
from curator.validator.verdict import ProposalReport

if TYPE_CHECKING:
    from curator.validator.history import CommitReport


def to_json(proposals: Sequence[ProposalReport], notes: Sequence[NoteReport]) -> str:
    data: dict[str, object] = {
        "schema": "validation/v1",
        "proposals": [p.to_json() for p in proposals],
    }
    if notes:
        data["notes"] = [n.to_json() for n in notes]
    return dumps_json(data) + "\n"


def finding_line(f: Finding) -> str:
    where = f"{f.path}:{f.line}" if f.line else f.path
    return f"  {f.code} {where}: {'warning: ' if f.warning else ''}{f.message}"


def to_text(proposals: Sequence[ProposalReport], notes: Sequence[NoteReport], only_rejections: bool = False) -> str:
    """One line a proposal and a note (only the rejected ones, for the hook), their findings, a summary.

    Every line goes through ``output.escape``: ids, paths and messages quote the vault.
    """
    out: list[str] = []
    for p in proposals:
        if only_rejections and p.ok and not p.findings:
            continue
        verdict = "valid" if p.ok else "rejected"
        extras = []
        if p.status != "pending":
            extras.append(p.status)
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
    bad = sum(not p.ok for p in proposals) + sum(not n.ok for n in notes)
    parts = []
    if proposals:
        parts.append(f"{len(proposals)} proposal(s)")
    if notes:
        parts.append(f"{len(notes)} note(s)")
    checked = " and ".join(parts) or "nothing"
    out.append(f"checked {checked}: {'all valid' if not bad else f'{bad} rejected'}")
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
        body = to_text(c.proposals, c.notes, only_rejections=True).splitlines()[:-1]
        out.extend(f"  {line}" for line in body)
    bad = sum(not c.ok for c in commits)
    out.append(f"checked {len(commits)} commit(s): {'all valid' if not bad else f'{bad} rejected'}")
    return "".join(line + "\n" for line in out)
