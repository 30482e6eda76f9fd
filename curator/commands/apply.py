"""``curator apply ULID``: apply a valid proposal and commit exactly what it touches."""

from __future__ import annotations

import sys

import click

from curator import output
from curator.app import App
from curator.errors import CheckFailed
from curator.proposals.lock import vault_lock


def run(app: App, ulid: str, yes: bool, no_commit: bool) -> int:
    from curator.proposals import apply as applier
    from curator.proposals import stage, store
    from curator.validator import validate_proposal
    from curator.validator.state import RepoState

    vault = app.vault()
    settings = app.settings()
    by = f"human:{stage.default_author(vault).name}"
    if not yes:
        if not sys.stdin.isatty():
            raise CheckFailed("apply needs confirmation", hint="pass --yes when not at a terminal")
        report = validate_proposal(RepoState(vault, settings), store.load(vault.root, ulid))
        m = report.subject.manifest if report.subject else None
        title = m.title if m else "(no readable manifest)"
        output.line(f"{ulid}: {title}")
        for v in report.subject.changes if report.subject else []:
            output.line(f"  {v.change.op:6} {v.change.path}  [{v.drift or 'new'}]")
        if not click.confirm("apply it?", default=False):
            output.line("not applied")
            return 1
    with vault_lock(vault, f"apply {ulid}"):
        done = applier.apply(vault, settings, ulid, by=by, commit=not no_commit)
    if app.json:
        output.emit_json({"id": ulid, "applied": True, "commit": done.commit, "paths": done.paths})
    else:
        where = f"committed {done.commit[:12]}" if done.commit else "applied to the work tree (not committed)"
        output.line(f"{ulid}: {where}: {', '.join(done.paths)}")
    return 0
