"""``curator reject`` and ``curator request-changes``: record the decision in its own commit; notes are untouched."""

from __future__ import annotations

from curator import output
from curator.commands.app import App
from curator.errors import UsageError
from curator.operations import decisions


def run(app: App, ulid: str, reason: str) -> int:
    from curator.operations import stage

    if not reason.strip():
        raise UsageError("--reason must say why")
    vault = app.vault()
    commit = decisions.reject(vault, ulid, reason, by=f"human:{stage.default_author(vault).name}")
    reason = " ".join(reason.split())
    if app.json:
        output.emit_json({"id": ulid, "rejected": True, "reason": reason, "commit": commit})
    else:
        output.line(f"{ulid}: rejected ({output.escape(reason)}); recorded in commit {commit[:12]}")
    return 0


def run_request(app: App, ulid: str, reason: str) -> int:
    """``curator request-changes ULID --reason TEXT``: a changes-requested event in its own commit."""
    from curator.operations import stage

    if not reason.strip():
        raise UsageError("--reason must say what to change")
    vault = app.vault()
    commit = decisions.request_changes(vault, ulid, reason, by=f"human:{stage.default_author(vault).name}")
    reason = " ".join(reason.split())
    if app.json:
        output.emit_json({"id": ulid, "changes_requested": True, "reason": reason, "commit": commit})
    else:
        output.line(f"{ulid}: changes requested ({output.escape(reason)}); recorded in commit {commit[:12]}")
        output.line("it stays pending: its author answers with a revision (kp_propose with revises), or you decide it")
    return 0
