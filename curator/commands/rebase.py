"""``curator rebase ULID``: 3-way merge a drifted proposal into a new revision for review."""

from __future__ import annotations

from curator import output
from curator.commands.app import App
from curator.errors import EXIT_FAILED


def run(app: App, ulid: str) -> int:
    from curator.operations import rebase as rebaser
    from curator.operations import stage

    vault = app.vault()
    settings = app.settings()
    by = f"human:{stage.default_author(vault).name}"
    done = rebaser.rebase(vault, settings, ulid, by=by)
    staged = done.new is not None and done.report is not None and done.report.ok
    if app.json:
        output.emit_json(
            {
                "id": ulid,
                "new": done.new if staged else None,
                "staged": staged,
                "nothing_to_do": done.nothing_to_do,
                "conflicts": [
                    {"path": c.path, "current_lines": list(c.current), "base_lines": list(c.base), "message": c.message}
                    for c in done.conflicts
                ],
                "validation": done.report.to_json() if done.report else None,
            }
        )
    elif done.nothing_to_do:
        output.line(f"{ulid}: nothing to rebase: {done.nothing_to_do}")
    elif done.conflicts:
        output.line(f"{ulid}: the 3-way merge conflicts; nothing was staged")
        for c in done.conflicts:
            output.line(f"  {output.safe_path(c.path)}: {c.message}")
        output.line("resolve by hand: edit the note so the change fits, or reject the proposal")
    elif done.report is not None and not staged:
        output.line(f"{ulid}: the merged revision is rejected by the validator; nothing was staged")
        for f in done.report.findings:
            where = f"{f.path}:{f.line}" if f.line else f.path
            output.line(f"  {f.code} {output.safe_path(where)}: {f.message}")
    else:
        verdict = "valid, auto-applicable" if done.report and done.report.auto_applicable else "valid"
        output.line(f"{done.new}: {verdict} — a new revision of {ulid}, staged in .kp/proposals/{done.new}/")
        output.line(f"{ulid}: superseded by {done.new}")
        output.line(f"next: curator review, or curator apply {done.new}")
    if done.nothing_to_do:
        return 0
    return 0 if staged else EXIT_FAILED
