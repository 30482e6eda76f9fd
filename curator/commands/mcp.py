"""``curator mcp``: the MCP server, over stdio or streamable HTTP on 127.0.0.1.

Over HTTP every request needs the vault's bearer token (``curator.mcp.bearer``);
``--print-token`` prints it (minting it when the vault has none) without the SDK.
"""

from __future__ import annotations

import os

from curator import output
from curator.commands.app import App
from curator.errors import UsageError
from curator.mcp import bearer, clients, port_holder
from curator.mcp.transport import PortTaken


def print_config(app: App, client_name: str, author: str | None) -> int:
    """The configuration ``client_name`` reads, on stdout, and where it goes, on stderr."""
    client = clients.CLIENTS[client_name]
    vault, _settings, index_dir = app.place()
    # JSON either way: what is printed is the file itself, for `> .vscode/mcp.json` or a merge.
    output.emit_json(clients.config(client, vault.root, index_dir, author))
    if not app.json:
        output.note(f"{client.label} reads this from {client.where}; merge it with any servers already there")
    return 0


def run(app: App, http: bool, port: int, author: str, print_token: bool = False, new_token: bool = False) -> int:
    if print_token:
        token, path = bearer.load(app.vault().root, new=new_token)
        if app.json:
            output.emit_json({"token": token, "file": path})
        else:
            output.line(token)
        return 0
    if new_token and not http:
        raise UsageError("--new-token is for the HTTP server: curator mcp --http --new-token")
    try:
        from curator.mcp.server import serve
    except ImportError as e:
        if e.name and e.name.split(".")[0] == "mcp":
            raise UsageError(
                "the MCP SDK is not installed", hint="pip install 'curator[mcp]' (the mcp extra)"
            ) from None
        raise
    if not 1 <= port <= 65535:
        raise UsageError(f"--port must be between 1 and 65535, not {port}")
    # A missing vault, a bad config or a token that cannot be kept private is a one-line error
    # before the server starts.
    vault, settings, index_dir = app.place()
    if not http:
        return serve(vault, settings, index_dir, http=False, port=port, author=author)
    token, token_file = bearer.load(vault.root, new=new_token)
    try:
        return serve(
            vault, settings, index_dir, http=True, port=port, author=author, token=token, token_file=token_file
        )
    except PortTaken as e:
        raise _squatted(vault.root, e) from None


def _squatted(vault_root: str, e: PortTaken) -> UsageError:
    """The one-line error for a port another program holds. A client configured for the port
    (as the README says) sends the vault's token to whoever holds it: unless the holder is this
    user's own (another server of this vault, started twice), the token is replaced at once, so
    what it may have received, or receives later, opens nothing."""
    uids = port_holder.holders(e.port)
    if uids and uids <= {os.geteuid()}:
        return UsageError(f"{e.message}; a program of yours holds it, another curator mcp perhaps", hint=e.hint)
    bearer.load(vault_root, new=True)
    who = f"another user (uid {', '.join(map(str, sorted(uids)))})" if uids else "a program Curator cannot name"
    return UsageError(
        f"{e.message}; {who} holds it and receives what clients send there, so this vault's token was "
        "replaced and the one they may have sent opens nothing",
        hint="give your clients the new token (curator mcp --http --print-token) and serve on a free --port",
    )
