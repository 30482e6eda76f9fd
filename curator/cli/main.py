"""The command line: click wiring only. Each command's logic lives in
``curator.commands.<name>`` and returns an exit code; modules are imported when
their command runs, so ``curator validate`` never pays for torch or the index."""

from __future__ import annotations

import sys
from typing import Any

import click

from curator.commands.app import App

json_option = click.option("--json", "json_", is_flag=True, help="Print results as JSON.")


def _app(ctx: click.Context, json_: bool = False) -> App:
    app: App = ctx.ensure_object(App)
    if json_:
        app.json = True
    return app


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        # `curator search ... | head` closes the pipe early. That is not a failure, but
        # click would turn the broken pipe into exit 1 before Curator's handler saw it.
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            from curator.cli.error_handler import silence_stdout

            silence_stdout()
            return 0
        except KeyboardInterrupt:
            # Abort, not click's own handling, which writes an empty line to stderr first.
            raise click.exceptions.Abort() from None
        except Exception as e:
            # SQLite found the serving epoch damaged: never read it again, build a new one.
            from curator.index.damage import is_damage, rebuild_after_damage

            if not is_damage(e) or not isinstance(ctx.obj, App):
                raise
            raise rebuild_after_damage(*ctx.obj.place(), e) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option(
    "--vault",
    type=click.Path(file_okay=False),
    envvar="CURATOR_VAULT",
    help="The vault (a git work tree). Default: CURATOR_VAULT, else the work tree around the current directory.",
)
@click.option(
    "--index-dir",
    type=click.Path(file_okay=False),
    envvar="CURATOR_INDEX_DIR",
    help="Where the index lives. Default: index.dir in the config, else $XDG_CACHE_HOME/curator/<vault key>.",
)
@click.option("--json", "json_", is_flag=True, help="Print results as JSON (same as each command's --json).")
@click.version_option(package_name="curator", prog_name="curator")
@click.pass_context
def cli(ctx: click.Context, vault: str | None, index_dir: str | None, json_: bool) -> None:
    """Curator: search your markdown vault with citations; let agents propose, and you decide."""
    ctx.obj = App(vault_arg=vault, index_dir_arg=index_dir, json=json_)


# --- the vault ---------------------------------------------------------------------------


@cli.command()
@json_option
@click.pass_context
def init(ctx: click.Context, json_: bool) -> int:
    """Set up .kp/ (config, proposals folder) and .gitattributes in the vault. Idempotent."""
    from curator.commands import init as cmd

    return cmd.run(_app(ctx, json_))


@cli.command()
@click.argument("title")
@click.option("--dir", "folder", default="", help="Folder for the note, relative to the vault.")
@json_option
@click.pass_context
def new(ctx: click.Context, title: str, folder: str, json_: bool) -> int:
    """Create a note titled TITLE with a freshly minted kp: identity."""
    from curator.commands import new as cmd

    return cmd.run(_app(ctx, json_), title, folder)


@cli.command()
@click.option("--summary", is_flag=True, help="Counts by code first (the default when findings exceed a screenful).")
@click.option("--code", "codes", multiple=True, metavar="CODE", help="Only findings with this code (repeatable).")
@click.option("--all", "every", is_flag=True, help="List every finding, however many.")
@json_option
@click.pass_context
def doctor(ctx: click.Context, summary: bool, codes: tuple[str, ...], every: bool, json_: bool) -> int:
    """Check config, identities, links, notes and the index; exit 1 when something needs fixing."""
    from curator.commands import doctor as cmd

    return cmd.run(_app(ctx, json_), summary=summary, codes=codes, every=every)


@cli.command()
@click.option("--dry-run", is_flag=True, help="Say what would be adopted; stage nothing.")
@json_option
@click.pass_context
def adopt(ctx: click.Context, dry_run: bool, json_: bool) -> int:
    """Stage one proposal giving every note without a kp_id a minted one (frontmatter only)."""
    from curator.commands import adopt as cmd

    return cmd.run(_app(ctx, json_), dry_run)


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@json_option
@click.pass_context
def mint(ctx: click.Context, paths: tuple[str, ...], json_: bool) -> int:
    """Print a fresh kp_id; with PATHs, add one in place to each new, uncommitted note that has none."""
    from curator.commands import mint as cmd

    return cmd.run(_app(ctx, json_), paths)


@cli.group()
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
@json_option
@click.pass_context
def hooks_install(ctx: click.Context, force: bool, python: str | None, json_: bool) -> int:
    """Install pre-commit, post-merge and post-checkout hooks into the vault's repository."""
    from curator.commands import hooks_install as cmd

    return cmd.run(_app(ctx, json_), force, python)


@cli.command()
@click.option("--http", is_flag=True, help="Serve streamable HTTP on 127.0.0.1 instead of stdio.")
@click.option("--port", type=int, default=8765, show_default=True, help="The HTTP port (with --http).")
@click.option("--author", default="mcp", show_default=True, help="The agent name proposals are recorded under.")
@click.pass_context
def mcp(ctx: click.Context, http: bool, port: int, author: str) -> int:
    """Serve the vault to agents over MCP: search, read, relate, index card, propose."""
    from curator.commands import mcp as cmd

    return cmd.run(_app(ctx), http, port, author)


from curator.cli.index import register as _register_index  # noqa: E402
from curator.cli.librarian import register as _register_librarian  # noqa: E402
from curator.cli.proposals import register as _register_proposals  # noqa: E402
from curator.cli.sources import register as _register_sources  # noqa: E402

_register_proposals(cli, json_option, _app)
_register_index(cli, json_option, _app)
_register_librarian(cli, json_option, _app)
_register_sources(cli, json_option, _app)


def main(argv: list[str] | None = None) -> int:
    from curator.cli.error_handler import Exit, error_handler, silence_stdout

    try:
        with error_handler(passthrough=(click.ClickException, click.exceptions.Exit, click.exceptions.Abort)):
            rv: Any = cli.main(args=argv, prog_name="curator", standalone_mode=False)
            try:
                sys.stdout.flush()  # here, not at exit, where a closed pipe is not ours to catch
            except BrokenPipeError:
                silence_stdout()
    except Exit as e:
        return e.code
    except click.exceptions.Exit as e:
        return int(e.exit_code)
    except click.exceptions.Abort:
        # At a terminal the line holds the echoed ^C (or a prompt): write over it, not below it.
        start = "\r\x1b[K" if sys.stderr.isatty() else ""
        print(f"{start}curator: aborted", file=sys.stderr)
        return 130
    except click.ClickException as e:
        if type(e).__name__ == "NoArgsIsHelpError":  # `curator` or a group alone: its help
            e.show()
            return 2
        # One line, as every other error: what was wrong and where the command's help is.
        from curator.output import one_line

        where = f" (see `{e.ctx.command_path} --help`)" if isinstance(e, click.UsageError) and e.ctx else ""
        print(f"curator: {one_line(e.format_message() + where)}", file=sys.stderr)  # it quotes what was typed
        return 2
    return rv if isinstance(rv, int) else 0
