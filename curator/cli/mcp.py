"""The MCP server: mcp."""

from __future__ import annotations

import click

from curator.cli.options import app_of
from curator.commands import mcp as mcp_cmd
from curator.errors import UsageError
from curator.mcp.clients import CLIENTS


@click.command()
@click.option("--http", is_flag=True, help="Serve streamable HTTP on 127.0.0.1 instead of stdio.")
@click.option("--port", type=int, default=8765, show_default=True, help="The HTTP port (with --http).")
@click.option(
    "--print-token",
    is_flag=True,
    help="Print the bearer token HTTP clients must send (minting it if the vault has none) and exit.",
)
@click.option("--new-token", is_flag=True, help="Mint a fresh HTTP token; the old one stops working.")
@click.option("--author", default="mcp", show_default=True, help="The agent name proposals are recorded under.")
@click.option(
    "--print-config",
    type=click.Choice(sorted(CLIENTS)),
    default=None,
    help="Print a ready stdio configuration for this MCP client (absolute paths) and exit.",
)
@click.pass_context
def mcp(
    ctx: click.Context, http: bool, port: int, print_token: bool, new_token: bool, author: str, print_config: str | None
) -> int:
    """Serve the vault to agents over MCP: search, read, relate, index card, propose."""
    if not http and ctx.get_parameter_source("port") is not click.core.ParameterSource.DEFAULT:
        raise UsageError("--port is the HTTP port: pass --http with it (stdio has no port)")
    if print_config is not None:
        if http or print_token or new_token:
            raise UsageError(
                "--print-config prints a configuration that starts the server over stdio; "
                "for HTTP, see --print-token (docs/mcp.md)"
            )
        custom = ctx.get_parameter_source("author") is not click.core.ParameterSource.DEFAULT
        return mcp_cmd.print_config(app_of(ctx), print_config, author if custom else None)
    return mcp_cmd.run(app_of(ctx), http, port, author, print_token, new_token)
