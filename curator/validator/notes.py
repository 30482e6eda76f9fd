"""The kp-note contract for notes changed outside proposals (what pre-commit passes in)."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from curator.validator.finding import Finding, blocking, ordered
from curator.validator.state import RepoState
from curator.vault import frontmatter, templates
from curator.vault import kp_id as kp_id_reader
from curator.vault.identity import canonical, is_valid_kp_id, why_invalid
from curator.vault.note import NotANote, decode
from curator.vault.repodocs import repository_document
from curator.vault.templates import TemplateFolder


@dataclass
class NoteReport:
    path: str
    findings: list[Finding]

    @property
    def ok(self) -> bool:
        return not blocking(self.findings)

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "ok": self.ok, "findings": [f.to_json() for f in self.findings]}


ALREADY_INVALID = (
    "the frontmatter was already invalid YAML in the committed version, so this change did not break it "
    "and is not blocked; fix the YAML between the --- lines when you can"
)


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


def _template(state: RepoState, path: str) -> TemplateFolder | None:
    """The template folder ``path`` is in, by the settings the checked tree holds, else the disk's."""
    found = templates.folders(state.worktree_bytes) or templates.on_disk(state.vault.root)
    return templates.holding(path, found)


def already_used(state: RepoState, kp_id: str, owner: str, path: str, *, in_place: bool = True) -> str:
    """KP006 for a kp_id another note holds, saying when that note is a template."""
    folder = _template(state, owner)
    if folder is None:
        return f"kp_id {kp_id} is already used by {owner}; mint a new one"
    fix = f"and from this note, then `curator mint {shlex.quote(path)}`" if in_place else "and mint a new one here"
    return (
        f"kp_id {kp_id} is already used by {owner}, a template ({folder.describe()}): notes made from it copy "
        f"its kp_id; remove the kp_id line from the template, {fix}"
    )


def check_note(state: RepoState, path: str) -> NoteReport:
    findings: list[Finding] = []
    raw = state.worktree_bytes(path)
    if raw is None:
        return NoteReport(path, [])  # deleted: nothing left to hold a contract
    meta, problem, _ = _meta(raw)
    if problem is not None:
        before = _meta(state.head_bytes(path))[1] if problem.code == "KP008" else None
        if before is not None and before.code == "KP008":
            # Not this change's doing: the person's edit of such a note goes through.
            findings.append(Finding("KP008", path, f"{problem.message} ({ALREADY_INVALID})", problem.line, True))
        else:
            findings.append(Finding(problem.code, path, problem.message, problem.line))
        return NoteReport(path, ordered(findings))
    assert meta is not None
    head_meta, _, _ = _meta(state.head_bytes(path))
    kp_id = kp_id_reader.of_meta(meta)
    before = kp_id_reader.of_meta(head_meta)
    in_head = state.head_blob_id(path) is not None
    if before is not None and kp_id is None and _template(state, path) is not None:
        pass  # a template may lose the kp_id it was given: notes made from it would copy it
    elif before is not None and kp_id != before:
        what = "was removed" if kp_id is None else f"changed to {kp_id!r}"
        findings.append(Finding("KP006", path, f"kp_id {before} {what}; a committed kp_id never changes (restore it)"))
    elif kp_id is None:
        # A new template or repository document needs none: notes made from a template would
        # copy its id, and a forge renders a README's frontmatter as a table.
        if not in_head and _template(state, path) is None and repository_document(path) is None:
            findings.append(
                Finding(
                    "KP006",
                    path,
                    f"a new note without kp_id; `curator mint {shlex.quote(path)}` adds one in place "
                    "(then git add it again), or add `kp_id: kp:<ULID>` yourself",
                )
            )
    elif not is_valid_kp_id(kp_id):
        findings.append(Finding("KP006", path, why_invalid(kp_id)))
    elif before is None:
        owners = state.kp_id_owners(canonical(kp_id), besides=path)
        if owners:
            findings.append(Finding("KP006", path, already_used(state, kp_id, owners[0], path)))
    # No property name is refused here: a person's own commit is theirs (a Dataview
    # `status:` included). Lifecycle keys are kept out of producers' notes by KP008 on
    # proposals (curator.vault.owners).
    return NoteReport(path, ordered(findings))
