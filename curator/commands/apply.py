"""``curator apply ULID``: apply a valid proposal and commit exactly what it touches."""

from __future__ import annotations

import io
import shlex
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from curator import output
from curator.commands import pager
from curator.commands.app import App
from curator.errors import CheckFailed, UsageError
from curator.operations import apply as applier
from curator.proposals import revision, store
from curator.proposals.events import PENDING
from curator.validator.state import RepoState
from curator.validator.subject import manifest_of
from curator.validator.verdict import ProposalReport, validate_proposal

if TYPE_CHECKING:
    from curator.settings import Settings
    from curator.vault.discover import Vault


SHOWN = 10
"""Paths named in the one-line summary; ``--json`` lists them all (an adopt changes thousands)."""


def run(
    app: App, ulid: str, yes: bool, no_commit: bool, only: tuple[str, ...] = (), hunks: tuple[str, ...] = ()
) -> int:
    from curator.operations import stage

    if only or hunks:
        return run_partial(app, ulid, yes, no_commit, only, hunks)
    vault = app.vault()
    settings = app.settings()
    by = f"human:{stage.default_author(vault).name}"
    shown = None
    if not yes:
        proposal = store.load_within(vault.root, ulid, settings.limits)
        shown = proposal.digest() if proposal.exists else None  # what is applied is what was shown
        report = validate_proposal(RepoState(vault, settings), proposal)
        if proposal.exists and report.status != PENDING:
            # Said first, at a terminal or not: --yes would not apply it either.
            raise CheckFailed(f"proposal {ulid} is already {report.status}")
        if not sys.stdin.isatty():
            raise UsageError("apply needs confirmation", hint="pass --yes when not at a terminal")
        show(vault, report, settings.producers.names)
        for text in drift_lines(report):
            output.line(text)
        if not click.confirm("apply it?", default=False):
            output.line("not applied")
            return 1
    with progress_line() as progress:
        done = applier.apply(
            vault, settings, ulid, by=by, commit=not no_commit, shown=shown, progress=progress, kept=app.verdicts()
        )
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
            raise UsageError("apply needs confirmation", hint="pass --yes when not at a terminal")
        output.line(f"keeping of {ulid}: only what follows, as a new revision that supersedes it")
        show(vault, preview, settings.producers.names)
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


def show(vault: Vault, report: ProposalReport, producers: tuple[str, ...] | list[str]) -> None:
    """The proposal's diff, in the same rows and colours as the review UI's diff pane, through the
    pager git would use (a 6,500-note proposal is a diff of tens of thousands of lines)."""
    from rich.console import Console

    from curator.diffview.console import print_proposal

    buffer = io.StringIO()
    width = shutil.get_terminal_size().columns
    print_proposal(report, producers, Console(file=buffer, force_terminal=sys.stdout.isatty(), width=width, highlight=False))
    sys.stdout.flush()
    pager.page(buffer.getvalue(), pager.git_pager(vault.repo) if sys.stdout.isatty() else None)


@contextmanager
def progress_line() -> Iterator[applier.Progress]:
    """What an apply is doing, on one line of stderr at a terminal, gone when it is done; nothing
    when stderr is not a terminal (a script reads the result, not the steps)."""
    if not sys.stderr.isatty():
        yield lambda _step, _done, _total: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TaskID, TextColumn

    bar = Progress(
        SpinnerColumn(),
        TextColumn("apply: {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    tasks: dict[str, TaskID] = {}
    drawn = [0.0]

    def update(step: str, done: int, total: int) -> None:
        new = step not in tasks
        for other, task in tasks.items():
            if other != step:
                bar.update(task, visible=False)
        if new:
            tasks[step] = bar.add_task(step, total=total or None)
        bar.update(tasks[step], completed=done, visible=True)
        if new or time.monotonic() - drawn[0] >= 0.1:
            bar.refresh()  # each step drawn at least once, however quick, besides the spinner's own
            drawn[0] = time.monotonic()

    with bar:
        yield update


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
