"""``curator propose``: stage a proposal from work-tree edits, a diff file, or new files."""

from __future__ import annotations

from curator import output
from curator.commands.app import App
from curator.errors import EXIT_FAILED, UsageError
from curator.operations import gather as sources
from curator.operations import recovery, stage
from curator.validator.report import finding_line


def run(
    app: App,
    paths: tuple[str, ...],
    patch: str | None,
    creates: tuple[str, ...],
    title: str | None,
    rationale: str,
    author_text: str | None,
    include_new: bool = False,
) -> int:
    vault = app.vault()
    settings = app.settings()
    author = stage.parse_author(author_text) if author_text else stage.default_author(vault)
    if paths and (patch or creates):
        raise UsageError("PATHs pick work-tree edits; do not combine them with --patch or --create")
    if include_new and (patch or creates):
        raise UsageError("--include-new picks new work-tree notes; do not combine it with --patch or --create")
    minted: list[str] = []
    with recovery.locked(vault, "propose"):
        base = stage.head_commit(vault)
        collected = sources.Collected()
        if patch:
            try:
                with open(patch, encoding="utf-8", newline="") as f:
                    patch_text = f.read()
            except (OSError, UnicodeDecodeError) as e:
                raise UsageError(f"cannot read the patch {patch}: {getattr(e, 'strerror', None) or e}") from None
            got = sources.from_patch(vault, patch_text, minted)
            collected.drafts += got.drafts
            collected.blobs.update(got.blobs)
        if creates:
            collected.drafts += sources.from_files(vault, creates, minted).drafts
        if not patch and not creates:
            rel = [vault.user_path(p) for p in paths]
            collected = sources.from_worktree(vault, settings, rel, minted, include_new=include_new)
        if not collected.drafts:
            hint = "edit a note, or pass --patch/--create"
            if collected.skipped_new:
                hint = f"new notes are proposed only with --include-new or by name ({', '.join(collected.skipped_new)})"
            raise UsageError("nothing to propose: no uncommitted edits to tracked notes", hint=hint)
        staged = stage.stage(
            vault,
            settings,
            collected.drafts,
            title=title or _default_title(collected.drafts),
            rationale=rationale,
            author=author,
            base=base,
            restores=collected.restores,
            blobs=collected.blobs,
            kept_in=app.verdicts(),
        )
    report = staged.report
    if app.json:
        data = report.to_json()
        data["staged"] = staged.ok
        data["minted"] = minted
        data["restored"] = [r.path for r in staged.restored if r.restore is not None]
        data["removed"] = [r.path for r in staged.restored if r.restore is None]
        data["left_untracked"] = collected.skipped_new
        output.emit_json(data)
        return 0 if staged.ok else EXIT_FAILED
    if staged.ok:
        # A kp_id minted for a proposal that is not staged names nothing: said only when staged.
        for m in minted:
            output.line(f"minted kp_id: {m}")
        verdict = "valid, auto-applicable" if report.auto_applicable else "valid"
        output.line(f"{staged.id}: {verdict} — staged in .kp/proposals/{staged.id}/")
        for finding in report.findings:  # warnings only: a person sees them again in review
            output.line(finding_line(finding))
        for r in staged.restored:
            if r.restore is None:
                output.line(f"  removed {output.safe_path(r.path)} (new note; it is in the proposal until applied)")
            else:
                output.line(f"  restored {output.safe_path(r.path)} (your edit is in the proposal until applied)")
        output.line(f"next: curator proposals to see the queue, curator apply {staged.id} to apply it")
    else:
        output.line(f"{staged.id}: rejected — not staged; nothing was written and your files are unchanged")
        for finding in report.findings:
            where = f"{finding.path}:{finding.line}" if finding.line else finding.path
            output.line(f"  {finding.code} {output.safe_path(where)}: {finding.message}")
    for path in collected.skipped_new:
        output.line(f"  left {output.safe_path(path)} alone: not tracked by git (propose it with --include-new)")
    return 0 if staged.ok else EXIT_FAILED


def _default_title(drafts: list[stage.Draft]) -> str:
    if len(drafts) == 1:
        d = drafts[0]
        return f"{d.op.capitalize()} {d.path}"
    return f"Change {len(drafts)} notes"
