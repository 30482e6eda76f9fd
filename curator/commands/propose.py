"""``curator propose``: stage a proposal from work-tree edits, a diff file, or new files."""

from __future__ import annotations

from curator import output
from curator.app import App
from curator.errors import EXIT_FAILED, UsageError
from curator.fsutil import remove_file, write_atomic
from curator.proposals import sources, stage
from curator.proposals.lock import vault_lock


def run(
    app: App,
    paths: tuple[str, ...],
    patch: str | None,
    creates: tuple[str, ...],
    title: str | None,
    rationale: str,
    author_text: str | None,
) -> int:
    from curator.validator import validate_proposal
    from curator.validator.state import RepoState

    vault = app.vault()
    settings = app.settings()
    author = stage.parse_author(author_text) if author_text else stage.default_author(vault)
    minted: list[str] = []
    with vault_lock(vault, "propose"):
        base = stage.head_commit(vault)
        edits: list[sources.WorktreeEdit] = []
        drafts: list[stage.Draft] = []
        if patch:
            try:
                with open(patch, encoding="utf-8", newline="") as f:
                    patch_text = f.read()
            except (OSError, UnicodeDecodeError) as e:
                raise UsageError(f"cannot read the patch {patch}: {getattr(e, 'strerror', None) or e}") from None
            drafts += sources.from_patch(vault, patch_text, minted)
        if creates:
            drafts += sources.from_files(vault, creates, minted)
        if paths and (patch or creates):
            raise UsageError("PATHs pick work-tree edits; do not combine them with --patch or --create")
        if not patch and not creates:
            rel = [vault.relpath(p) for p in paths]
            edits = sources.from_worktree(vault, settings, rel, minted)
            drafts = [e.draft for e in edits]
        if not drafts:
            raise UsageError(
                "nothing to propose: no uncommitted note edits", hint="edit a note, or pass --patch/--create"
            )
        title = title or _default_title(drafts)
        ulid, staging = stage.write(vault, drafts, title=title, rationale=rationale, author=author, base=base)
        overlay = {e.draft.path: e.restore for e in edits}
        report = validate_proposal(RepoState(vault, settings, overlay), stage.load_staging(vault, staging, ulid))
        if not report.ok:
            stage.discard(staging)
        else:
            stage.publish(vault, ulid, staging)
            for edit in edits:
                full = vault.abspath(edit.draft.path)
                if edit.restore is None:
                    remove_file(full)
                else:
                    write_atomic(full, edit.restore)
    if app.json:
        data = report.to_json()
        data["staged"] = report.ok
        data["minted"] = minted
        output.emit_json(data)
    else:
        for m in minted:
            output.line(f"minted kp_id: {m}")
        if report.ok:
            verdict = "valid, auto-applicable" if report.auto_applicable else "valid"
            output.line(f"{ulid}: {verdict} — staged in .kp/proposals/{ulid}/")
            if edits:
                output.line(f"restored {len(edits)} file(s); the edits live in the proposal until applied")
            output.line(f"next: curator proposals to see the queue, curator apply {ulid} to apply it")
        else:
            output.line(f"{ulid}: rejected — not staged; your files are unchanged")
            for finding in report.findings:
                where = f"{finding.path}:{finding.line}" if finding.line else finding.path
                output.line(f"  {finding.code} {where}: {finding.message}")
    return 0 if report.ok else EXIT_FAILED


def _default_title(drafts: list[stage.Draft]) -> str:
    if len(drafts) == 1:
        d = drafts[0]
        return f"{d.op.capitalize()} {d.path}"
    return f"Change {len(drafts)} notes"
