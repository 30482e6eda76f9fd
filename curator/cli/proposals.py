"""The write path: validate, propose, proposals, apply, reject, rebase, review."""

from __future__ import annotations

import click

from curator.cli.options import app_of, json_option
from curator.commands import proposals as proposals_cmd
from curator.commands import rebase as rebase_cmd
from curator.commands import reject as reject_cmd
from curator.commands import review as review_cmd
from curator.commands import validate as validate_cmd


@click.command()
@click.argument("targets", nargs=-1, metavar="[PROPOSAL_DIR|ULID|FILE]...")
@click.option(
    "--all", "all_", is_flag=True, help="Check every proposal, decided ones included (default: the pending queue)."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Output format; json is validation/v1.",
)
@click.option(
    "--against",
    default="HEAD",
    show_default=True,
    metavar="REV",
    help="The commit notes are compared with (CI passes the commit before the push).",
)
@click.option(
    "--staged",
    is_flag=True,
    help="Check what the next commit holds (the git index against HEAD), never the work tree: the hooks' mode.",
)
@click.option(
    "--commits",
    metavar="BASE..TIP",
    help="Check each commit of a range as the pre-commit hook checks a commit (CI's mode).",
)
@json_option
@click.pass_context
def validate(
    ctx: click.Context,
    targets: tuple[str, ...],
    all_: bool,
    fmt: str,
    against: str,
    staged: bool,
    commits: str | None,
    json_: bool,
) -> int:
    """Check proposals (and changed notes) with the deterministic validator. Exit 0 valid, 1 rejected."""
    return validate_cmd.run(app_of(ctx, json_), targets, all_, fmt, against, staged, commits)


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--patch",
    "patch",
    type=click.Path(dir_okay=False),
    help="Stage the changes in a unified diff file (git diff or diff -u).",
)
@click.option(
    "--create",
    "creates",
    multiple=True,
    metavar="PATH=FILE",
    help="Stage a new note at PATH with FILE's content (repeatable).",
)
@click.option(
    "--include-new",
    is_flag=True,
    help="Also propose new notes git does not track yet (default: edits to tracked notes only).",
)
@click.option("--title", help="One line saying what the proposal does.")
@click.option("--rationale", default="", help="Why; shown to the reviewer and written into the commit.")
@click.option(
    "--author", "author", metavar="KIND:NAME", help="agent:NAME, human:NAME or librarian:NAME (default: you)."
)
@json_option
@click.pass_context
def propose(
    ctx: click.Context,
    paths: tuple[str, ...],
    patch: str | None,
    creates: tuple[str, ...],
    include_new: bool,
    title: str | None,
    rationale: str,
    author: str | None,
    json_: bool,
) -> int:
    """Stage a proposal from uncommitted note edits (then restore them), a diff, or new files."""
    from curator.commands import propose as cmd  # heavy: pygit2, through the changes it gathers

    return cmd.run(app_of(ctx, json_), paths, patch, creates, title, rationale, author, include_new)


@click.command()
@click.option("--all", "all_", is_flag=True, help="Include applied, rejected and superseded proposals.")
@json_option
@click.pass_context
def proposals(ctx: click.Context, all_: bool, json_: bool) -> int:
    """List the proposal queue with verdicts and drift."""
    return proposals_cmd.run(app_of(ctx, json_), all_)


@click.command()
@click.argument("ulid")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@click.option("--no-commit", is_flag=True, help="Apply to the work tree only; commit it yourself.")
@click.option(
    "--only",
    "only",
    multiple=True,
    metavar="PATH",
    help="Keep only this file of the proposal, whole (repeatable): a new revision with what is kept is applied.",
)
@click.option(
    "--hunks",
    "hunks",
    multiple=True,
    metavar="PATH:N[,N...]",
    help="Keep only these hunks of PATH, numbered as the diff shows them (1,3 or 2-4; repeatable).",
)
@json_option
@click.pass_context
def apply(
    ctx: click.Context,
    ulid: str,
    yes: bool,
    no_commit: bool,
    only: tuple[str, ...],
    hunks: tuple[str, ...],
    json_: bool,
) -> int:
    """Apply a valid proposal (or the files and hunks kept of it) and commit exactly the paths it touches."""
    from curator.commands import apply as cmd  # heavy: pygit2 and rich, for the diff it shows

    return cmd.run(app_of(ctx, json_), ulid, yes, no_commit, only, hunks)


@click.command()
@click.argument("ulid")
@click.option("--reason", required=True, help="Why it is rejected (recorded in events.jsonl).")
@json_option
@click.pass_context
def reject(ctx: click.Context, ulid: str, reason: str, json_: bool) -> int:
    """Reject a proposal; the vault is untouched."""
    return reject_cmd.run(app_of(ctx, json_), ulid, reason)


@click.command("request-changes")
@click.argument("ulid")
@click.option("--reason", required=True, help="What to change, for the proposal's author (recorded in events.jsonl).")
@json_option
@click.pass_context
def request_changes(ctx: click.Context, ulid: str, reason: str, json_: bool) -> int:
    """Ask the proposal's author for a new revision, with a reason; it stays pending. The vault is untouched."""
    return reject_cmd.run_request(app_of(ctx, json_), ulid, reason)


@click.command()
@click.argument("ulid")
@json_option
@click.pass_context
def rebase(ctx: click.Context, ulid: str, json_: bool) -> int:
    """3-way merge a drifted proposal into a new revision (the old one is superseded). Applies nothing."""
    return rebase_cmd.run(app_of(ctx, json_), ulid)


@click.command()
@click.pass_context
def review(ctx: click.Context) -> int:
    """The review UI: read each proposal's diff and findings, then apply, reject or rebase it."""
    return review_cmd.run(app_of(ctx))
