"""The read-only sources beside the vault: sources ls, sources sync."""

from __future__ import annotations

import click

from curator.cli.options import app_of, json_option


@click.group()
def sources() -> None:
    """Zotero libraries, CSL-JSON exports and JSONL corpora indexed beside the notes, never written."""


@sources.command("ls")
@json_option
@click.pass_context
def sources_ls(ctx: click.Context, json_: bool) -> int:
    """Each configured source: its type, items indexed, last sync and problems."""
    from curator.commands import sources as sources_cmd  # heavy: the index, apsw

    return sources_cmd.run_ls(app_of(ctx, json_))


@sources.command("sync")
@click.argument("names", nargs=-1, metavar="[NAME]...")
@json_option
@click.pass_context
def sources_sync(ctx: click.Context, names: tuple[str, ...], json_: bool) -> int:
    """Read the named sources (default: all) now, index what changed; exit 1 if one failed."""
    from curator.commands import sources as sources_cmd  # heavy: the index, apsw

    return sources_cmd.run_sync(app_of(ctx, json_), names)
