"""``curator apply ULID``: apply a valid proposal and commit exactly what it touches."""

from __future__ import annotations

import shlex
import sys
from typing import TYPE_CHECKING

import click

from curator import output
from curator.commands.app import App
from curator.errors import CheckFailed
from curator.operations import apply as applier
from curator.proposals import revision, store
from curator.validator.state import RepoState

if TYPE_CHECKING:
    from curator.settings import Settings
    from curator.validator.verdict import ProposalReport
    from curator.vault.discover import Vault


SHOWN = 10
"""Paths named in the one-line summary; ``--json`` lists them all (an adopt changes thousands)."""


def run(
    app: App, ulid: str, yes: bool, no_commit: bool, only: tuple[str, ...] = (), hunks: tuple[str, ...] = ()
) -> int:
    from curator.operations import stage
    from curator.validator.verdict import validate_proposal

    if only or hunks:
        return run_partial(app, ulid, yes, no_commit, only, hunks)
    vault = app.vault()
    settings = app.settings()
    by = f"human:{stage.default_author(vault).name}"
    shown = None
    if not yes:
        if not sys.stdin.isatty():
            raise CheckFailed("apply needs confirmation", hint="pass --yes when not at a terminal")
        from curator.diffview.console import print_proposal

        proposal = store.load_within(vault.root, ulid, settings.limits)
        shown = proposal.digest() if proposal.exists else None  # what is applied is what was shown
        report = validate_proposal(RepoState(vault, settings), proposal)
        if proposal.exists and report.status != "pending":
            raise CheckFailed(f"proposal {ulid} is already {report.status}")  # nothing to ask about
        # The same rows and colours as the review UI's diff pane.
        print_proposal(report, settings.producers.names)
        for text in drift_lines(report):
            output.line(text)
        if not click.confirm("apply it?", default=False):
            output.line("not applied")
            return 1
    done = applier.apply(vault, settings, ulid, by=by, commit=not no_commit, shown=shown)
    drifted = drifted_paths(done.report)
    if app.json:
        output.emit_json({"id": ulid, "applied": True, "commit": done.commit, "paths": done.paths, "drifted": drifted})
    else:
        if yes:
            for text in drift_lines(done.report):
                output.line(text)
        where = f"committed {done.commit[:12]}" if done.commit else "applied to the work tree (not committed)"
        shown = ", ".join(output.safe_path(p) for p in done.paths[:SHOWN])
        more = f" and {len(done.paths) - SHOWN} more" if len(done.paths) > SHOWN else ""
        output.line(f"{ulid}: {where}: {shown}{more}")
    return 0


def run_partial(app: App, ulid: str, yes: bool, no_commit: bool, only: tuple[str, ...], hunks: tuple[str, ...]) -> int:
    """``--only`` / ``--hunks``: the files and hunks kept become a revision, which is applied."""
    from curator.operations import revise, stage

    sel = revision.selection_of(only, hunks)
    vault = app.vault()
    settings = app.settings()
    by = f"human:{stage.default_author(vault).name}"
    # The selection is checked against the proposal before anything is asked or written.
    preview = revise.preview_partial(vault, settings, ulid, sel, by=by)
    if not yes:
        if not sys.stdin.isatty():
            raise CheckFailed("apply needs confirmation", hint="pass --yes when not at a terminal")
        from curator.diffview.console import print_proposal

        output.line(f"keeping of {ulid}: only what follows, as a new revision that supersedes it")
        print_proposal(preview, settings.producers.names)
        if not click.confirm("stage this revision and apply it?", default=False):
            output.line("not applied; nothing was staged")
            return 1
    done = revise.apply_partial(vault, settings, ulid, sel, by=by, commit=not no_commit)
    applied = done.applied
    new = done.revision.new if done.revision else None
    if app.json:
        output.emit_json(
            {
                "id": applied.report.id,
                "applied": True,
                "revision_of": ulid if new else None,
                "commit": applied.commit,
                "paths": applied.paths,
                "drifted": drifted_paths(applied.report),
            }
        )
        return 0
    if new:
        output.line(f"{new}: a new revision of {ulid} with what you kept ({ulid} is superseded)")
        for line in left_out_lines(vault, settings, ulid, applied.paths):
            output.line(line)
    else:
        output.line(f"{ulid}: the selection keeps every hunk; the proposal itself was applied")
    where = f"committed {applied.commit[:12]}" if applied.commit else "applied to the work tree (not committed)"
    shown = ", ".join(output.safe_path(p) for p in applied.paths[:SHOWN])
    more = f" and {len(applied.paths) - SHOWN} more" if len(applied.paths) > SHOWN else ""
    output.line(f"{applied.report.id}: {where}: {shown}{more}")
    return 0


def drifted_paths(report: ProposalReport) -> list[dict[str, object]]:
    views = report.subject.changes if report.subject else []
    return [{"path": v.change.path, "offset": v.largest_offset} for v in views if v.drift == "drifted"]


def drift_lines(report: ProposalReport) -> list[str]:
    """What drift means, said before (or, with --yes, as) a drifted proposal is applied."""
    lines = []
    for d in drifted_paths(report):
        moved = f", {d['offset']} line(s) from where the proposal put it" if d["offset"] else ""
        lines.append(
            f"  drifted: {output.safe_path(str(d['path']))} changed since the proposal was made; "
            f"its hunks still match exactly and apply where their context now is{moved}"
        )
    return lines


def left_out_lines(vault: Vault, settings: Settings, ulid: str, kept: list[str]) -> list[str]:
    """What a partial apply left out, and where it is still: the superseded proposal's folder (a
    person's own edits, which `curator propose` took out of the work tree, are in no pending
    proposal once it is superseded, and must not look lost)."""
    from curator.validator.subject import manifest_of

    manifest = manifest_of(store.load_within(vault.root, ulid, settings.limits))
    if manifest is None:
        return []
    folder = f".kp/proposals/{ulid}"
    lines = []
    for c in manifest.changes:
        if c.path in kept:
            continue
        path = output.safe_path(c.path)
        quoted = shlex.quote(path)
        if c.op == "create":
            back = f"cp {shlex.quote(f'{folder}/files/{path}')} {quoted}"
        else:
            back = f"git apply --include={quoted} {folder}/changes.diff"
        lines.append(f"  left out: {path} ({c.op}); its change is kept in {folder}/; to have it in your work tree: {back}")
    return lines
