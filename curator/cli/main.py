"""The root of the command line: the global options, the one place errors become exit codes.

Each command is a click command in one of this package's area modules (``vault``,
``index``, ``proposals``, ``librarian``, ``sources``, ``mcp``), and its logic is in
``curator.commands.<name>``, which returns an exit code. An area module is imported when
one of its commands runs, so ``curator validate`` never loads the index, the review UI or
the MCP SDK."""

from __future__ import annotations

import difflib
import importlib
import sys
from typing import Any

import click

from curator.cli.error_handler import Exit, error_handler, rebuilding_damage, silence_stdout
from curator.commands.app import App
from curator.output import one_line

AREAS: dict[str, str] = {
    "init": "vault",
    "new": "vault",
    "doctor": "vault",
    "adopt": "vault",
    "mint": "vault",
    "hooks": "vault",
    "index": "index",
    "status": "index",
    "ls": "index",
    "search": "index",
    "read": "index",
    "relate": "index",
    "bench": "index",
    "validate": "proposals",
    "propose": "proposals",
    "proposals": "proposals",
    "apply": "proposals",
    "reject": "proposals",
    "rebase": "proposals",
    "request-changes": "proposals",
    "review": "proposals",
    "digest": "librarian",
    "sources": "sources",
    "mcp": "mcp",
}
"""Each command and the module of this package that defines it (by the command's own name)."""


GLOBAL_OPTIONS = ("--vault", "--index-dir")
"""Options of ``curator`` itself, given before the command (``--json`` each command takes too)."""


class _Group(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(AREAS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        area = AREAS.get(cmd_name)
        if area is None:
            return None
        command = getattr(importlib.import_module(f"curator.cli.{area}"), cmd_name.replace("-", "_"))
        assert isinstance(command, click.Command)
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as e:
            # A mistyped command (`curator serach`) is told the one it is closest to.
            near = difflib.get_close_matches(args[0], list(AREAS), n=1) if args else []
            if near and e.message.startswith("No such command"):
                raise click.UsageError(f"{e.message} Did you mean {near[0]!r}?", e.ctx) from None
            raise

    def invoke(self, ctx: click.Context) -> Any:
        # `curator search ... | head` closes the pipe early. That is not a failure, but
        # click would turn the broken pipe into exit 1 before Curator's handler saw it.
        try:
            with rebuilding_damage(lambda: ctx.obj if isinstance(ctx.obj, App) else None):
                return super().invoke(ctx)
        except BrokenPipeError:
            silence_stdout()
            return 0
        except KeyboardInterrupt:
            # Abort, not click's own handling, which writes an empty line to stderr first.
            raise click.exceptions.Abort() from None


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


def main(argv: list[str] | None = None) -> int:
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
        where = f" (see `{e.ctx.command_path} --help`)" if isinstance(e, click.UsageError) and e.ctx else ""
        said = e.format_message()
        if isinstance(e, click.NoSuchOption) and e.option_name in GLOBAL_OPTIONS:
            # `curator search wal --vault X`: click offers a near option of the command instead.
            said = f"{e.option_name} is an option of curator itself: put it before the command (curator {e.option_name} ... COMMAND)"
            where = ""
        print(f"curator: {one_line(said + where)}", file=sys.stderr)  # it quotes what was typed
        return 2
    return rv if isinstance(rv, int) else 0
