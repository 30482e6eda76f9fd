"""Rendering validation results. Same input, same bytes: no times, no absolute paths."""

from __future__ import annotations

import json
from collections.abc import Sequence

from curator.validator import ProposalReport
from curator.validator.finding import Finding
from curator.validator.notes import NoteReport


def to_json(proposals: Sequence[ProposalReport], notes: Sequence[NoteReport]) -> str:
    data: dict[str, object] = {
        "schema": "validation/v1",
        "proposals": [p.to_json() for p in proposals],
    }
    if notes:
        data["notes"] = [n.to_json() for n in notes]
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _finding_line(f: Finding) -> str:
    where = f"{f.path}:{f.line}" if f.line else f.path
    return f"  {f.code} {where}: {f.message}"


def to_text(proposals: Sequence[ProposalReport], notes: Sequence[NoteReport]) -> str:
    out: list[str] = []
    for p in proposals:
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
        out.extend(_finding_line(f) for f in p.findings)
    for n in notes:
        out.append(f"{n.path}: {'ok' if n.ok else 'rejected'}")
        out.extend(_finding_line(f) for f in n.findings)
    bad = sum(not p.ok for p in proposals) + sum(not n.ok for n in notes)
    parts = []
    if proposals:
        parts.append(f"{len(proposals)} proposal(s)")
    if notes:
        parts.append(f"{len(notes)} note(s)")
    checked = " and ".join(parts) or "nothing"
    out.append(f"checked {checked}: {'all valid' if not bad else f'{bad} rejected'}")
    return "\n".join(out) + "\n"
