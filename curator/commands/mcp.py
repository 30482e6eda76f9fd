"""``curator mcp``: the MCP server, over stdio or streamable HTTP on 127.0.0.1."""

from __future__ import annotations

from curator.commands.app import App
from curator.errors import UsageError


def run(app: App, http: bool, port: int, author: str) -> int:
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
    # A missing vault or a bad config is a one-line error before the server starts.
    return serve(*app.place(), http=http, port=port, author=author)
