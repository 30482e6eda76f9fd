"""``curator reject`` and ``curator request-changes``: record the decision in its own commit; notes are untouched."""

from __future__ import annotations

from collections.abc import Callable

from curator import output
from curator.commands.app import App
from curator.operations import decisions


def _record(app: App, ulid: str, reason: str, record: Callable[..., str]) -> tuple[str, str]:
    """Record a reviewer's decision with its reason (``record`` refuses a blank one): (the commit,
    the reason on one line)."""
    from curator.operations import stage  # heavy: git's index writer, pygit2

    vault = app.vault()
    commit = record(vault, ulid, reason, by=f"human:{stage.default_author(vault).name}")
    return commit, " ".join(reason.split())


def run(app: App, ulid: str, reason: str) -> int:
    commit, reason = _record(app, ulid, reason, decisions.reject)
    if app.json:
        output.emit_json({"id": ulid, "rejected": True, "reason": reason, "commit": commit})
    else:
        output.line(f"{ulid}: rejected ({output.escape(reason)}); recorded in commit {commit[:12]}")
    return 0


def run_request(app: App, ulid: str, reason: str) -> int:
    """``curator request-changes ULID --reason TEXT``: a changes-requested event in its own commit."""
    commit, reason = _record(app, ulid, reason, decisions.request_changes)
    if app.json:
        output.emit_json({"id": ulid, "changes_requested": True, "reason": reason, "commit": commit})
    else:
        output.line(f"{ulid}: changes requested ({output.escape(reason)}); recorded in commit {commit[:12]}")
        output.line("it stays pending: its author answers with a revision (kp_propose with revises), or you decide it")
    return 0
