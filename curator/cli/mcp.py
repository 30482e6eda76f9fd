"""The MCP server: mcp."""

from __future__ import annotations

import click

from curator.cli.options import app_of
from curator.commands import mcp as mcp_cmd
from curator.errors import UsageError


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
@click.pass_context
def mcp(ctx: click.Context, http: bool, port: int, print_token: bool, new_token: bool, author: str) -> int:
    """Serve the vault to agents over MCP: search, read, relate, index card, propose."""
    if not http and ctx.get_parameter_source("port") is not click.core.ParameterSource.DEFAULT:
        raise UsageError("--port is the HTTP port: pass --http with it (stdio has no port)")
    return mcp_cmd.run(app_of(ctx), http, port, author, print_token, new_token)
