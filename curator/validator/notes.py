"""The kp-note contract for notes changed outside proposals (what pre-commit passes in)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from curator.validator.finding import Finding, ordered
from curator.validator.state import RepoState
from curator.vault import frontmatter
from curator.vault.identity import canonical, is_valid_kp_id, why_invalid
from curator.vault.note import NotANote, decode


@dataclass
class NoteReport:
    path: str
    findings: list[Finding]

    @property
    def ok(self) -> bool:
        return not self.findings

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "ok": self.ok, "findings": [f.to_json() for f in self.findings]}


def _meta(raw: bytes | None) -> tuple[dict[str, Any] | None, Finding | None, str]:
    if raw is None:
        return None, None, ""
    try:
        text = decode(raw)
    except NotANote as e:
        return None, Finding("KP009", "", e.reason), ""
    try:
        meta, _ = frontmatter.read(text)
    except frontmatter.FrontmatterError as e:
        return None, Finding("KP008", "", f"{e}; the frontmatter must be a YAML mapping", e.line), text
    return meta, None, text


def check_note(state: RepoState, path: str) -> NoteReport:
    findings: list[Finding] = []
    raw = state.worktree_bytes(path)
    if raw is None:
        return NoteReport(path, [])  # deleted: nothing left to hold a contract
    meta, problem, _ = _meta(raw)
    if problem is not None:
        findings.append(Finding(problem.code, path, problem.message, problem.line))
        return NoteReport(path, ordered(findings))
    assert meta is not None
    head_meta, _, _ = _meta(state.head_bytes(path))
    kp_id = meta.get("kp_id")
    before = head_meta.get("kp_id") if head_meta else None
    in_head = state.head_blob_id(path) is not None
    if before is not None and kp_id != before:
        what = "was removed" if kp_id is None else f"changed to {kp_id!r}"
        findings.append(Finding("KP006", path, f"kp_id {before} {what}; a committed kp_id never changes (restore it)"))
    elif kp_id is None:
        if not in_head:
            findings.append(
                Finding("KP006", path, "a new note without kp_id; add `kp_id: kp:<ULID>` (`curator new` mints one)")
            )
    elif not is_valid_kp_id(kp_id):
        findings.append(Finding("KP006", path, why_invalid(kp_id)))
    elif before is None:
        owners = state.kp_id_owners(canonical(kp_id), besides=path)
        if owners:
            findings.append(Finding("KP006", path, f"kp_id {kp_id} is already used by {owners[0]}; mint a new one"))
    if "status" in meta and not (head_meta and "status" in head_meta):
        findings.append(Finding("KP008", path, "introduces a status: field; lifecycle lives in the index"))
    return NoteReport(path, ordered(findings))
