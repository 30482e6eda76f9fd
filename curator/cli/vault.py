"""The vault: init, new, doctor, adopt, mint, hooks install."""

from __future__ import annotations

import click

from curator.cli.options import app_of, json_option
from curator.commands import adopt as adopt_cmd
from curator.commands import hooks_install as hooks_install_cmd
from curator.commands import hooks_precommit as hooks_precommit_cmd
from curator.commands import init as init_cmd
from curator.commands import new as new_cmd


@click.command()
@json_option
@click.pass_context
def init(ctx: click.Context, json_: bool) -> int:
    """Set up .kp/ (config, proposals folder) and .gitattributes in the vault. Idempotent."""
    return init_cmd.run(app_of(ctx, json_))


@click.command()
@click.argument("title")
@click.option("--dir", "folder", default="", help="Folder for the note, relative to the vault.")
@json_option
@click.pass_context
def new(ctx: click.Context, title: str, folder: str, json_: bool) -> int:
    """Create a note titled TITLE with a freshly minted kp: identity."""
    return new_cmd.run(app_of(ctx, json_), title, folder)


@click.command()
@click.option("--summary", is_flag=True, help="Counts by code first (the default when findings exceed a screenful).")
@click.option("--code", "codes", multiple=True, metavar="CODE", help="Only findings with this code (repeatable).")
@click.option("--all", "every", is_flag=True, help="List every finding, however many.")
@json_option
@click.pass_context
def doctor(ctx: click.Context, summary: bool, codes: tuple[str, ...], every: bool, json_: bool) -> int:
    """Check config, identities, links, notes and the index; exit 1 when something needs fixing."""
    from curator.commands import doctor as doctor_cmd  # heavy: the index, apsw

    return doctor_cmd.run(app_of(ctx, json_), summary=summary, codes=codes, every=every)


@click.command()
@click.option("--dry-run", is_flag=True, help="Say what would be adopted; stage nothing.")
@json_option
@click.pass_context
def adopt(ctx: click.Context, dry_run: bool, json_: bool) -> int:
    """Stage one proposal giving every note without a kp_id a minted one (frontmatter only)."""
    return adopt_cmd.run(app_of(ctx, json_), dry_run)


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--new", "new", is_flag=True, help="Every new note in the work tree (not committed yet) without a kp_id.")
@click.option(
    "--staged",
    is_flag=True,
    help="Every new staged note without a kp_id, in the file and the git index alike (what the hook runs).",
)
@json_option
@click.pass_context
def mint(ctx: click.Context, paths: tuple[str, ...], new: bool, staged: bool, json_: bool) -> int:
    """Print a fresh kp_id; with PATHs (or --new, --staged), add one in place to each new note that has none."""
    from curator.commands import mint as mint_cmd  # heavy: the index, apsw

    return mint_cmd.run(app_of(ctx, json_), paths, new=new, staged=staged)


@click.group()
def hooks() -> None:
    """Git hooks: validate before commit, reconcile after merge and checkout."""


@hooks.command("install")
@click.option("--force", is_flag=True, help="Replace hooks that Curator did not write.")
@click.option(
    "--python",
    "python",
    type=click.Path(dir_okay=False),
    help="The interpreter the hooks run Curator with. Default: the one running this command.",
)
@click.option(
    "--mint-new/--no-mint-new",
    "mint_new",
    default=None,
    help="Let the pre-commit hook mint a kp_id into each new note you commit without one. "
    "Default: as the installed hook says (off at first).",
)
@json_option
@click.pass_context
def hooks_install(ctx: click.Context, force: bool, python: str | None, mint_new: bool | None, json_: bool) -> int:
    """Install pre-commit, post-merge and post-checkout hooks into the vault's repository."""
    return hooks_install_cmd.run(app_of(ctx, json_), force, python, mint_new)


@hooks.command("pre-commit")
@json_option
@click.pass_context
def hooks_pre_commit(ctx: click.Context, json_: bool) -> int:
    """Print a .pre-commit-config.yaml that runs this installation's validator (the pre-commit framework)."""
    return hooks_precommit_cmd.run(app_of(ctx, json_))
