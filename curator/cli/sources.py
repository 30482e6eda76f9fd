"""Click wiring for the read-only sources beside the vault: sources ls, sources sync."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click


def register(cli: click.Group, json_option: Callable[..., Any], app_of: Callable[..., Any]) -> None:
    @cli.group()
    def sources() -> None:
        """Zotero libraries, CSL-JSON exports and JSONL corpora indexed beside the notes, never written."""

    @sources.command("ls")
    @json_option
    @click.pass_context
    def sources_ls(ctx: click.Context, json_: bool) -> int:
        """Each configured source: its type, items indexed, last sync and problems."""
        from curator.commands import sources as cmd

        return cmd.run_ls(app_of(ctx, json_))

    @sources.command("sync")
    @click.argument("names", nargs=-1, metavar="[NAME]...")
    @json_option
    @click.pass_context
    def sources_sync(ctx: click.Context, names: tuple[str, ...], json_: bool) -> int:
        """Read the named sources (default: all) now, index what changed; exit 1 if one failed."""
        from curator.commands import sources as cmd

        return cmd.run_sync(app_of(ctx, json_), names)
