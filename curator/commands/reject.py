"""``curator reject ULID --reason TEXT``: record the decision in its own commit; notes are untouched."""

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
