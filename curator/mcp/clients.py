"""Ready configurations for the MCP clients people use: `curator mcp --print-config CLIENT`.

A client starts a stdio server with the command its configuration names, from an
environment of its own: a desktop app does not read the shell's profile, so after
``make`` (which installs into ``.venv/bin``) a bare ``"command": "curator"`` is not on its
PATH (``spawn curator ENOENT``). What is printed names everything by absolute path: the
``curator`` program of this very installation (else its interpreter with ``-m curator``),
the vault, and the index this installation uses for it, so the server a client starts
reads the same index the command line builds, whatever the client's environment.

Each client's file and shape, as its own documentation gives them:

- Claude Desktop: ``claude_desktop_config.json`` (macOS ``~/Library/Application
  Support/Claude/``, Windows ``%APPDATA%\\Claude\\``), ``{"mcpServers": {NAME: {command, args}}}``;
- Claude Code: ``.mcp.json`` at a project's root, ``{"mcpServers": {NAME: {"type": "stdio", …}}}``
  (or ``claude mcp add-json NAME 'JSON'`` for one server);
- Cursor: ``.cursor/mcp.json`` in a project or ``~/.cursor/mcp.json``, ``{"mcpServers": …}``;
- VS Code: ``.vscode/mcp.json``, ``{"servers": {NAME: {"type": "stdio", …}}}``;
- Windsurf: ``~/.codeium/windsurf/mcp_config.json``, ``{"mcpServers": …}``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from curator.locations import curator_command

SERVER_NAME = "curator"


@dataclass(frozen=True)
class Client:
    name: str
    """What --print-config takes."""
    label: str
    where: str
    """Where the client reads the configuration, in words."""
    servers_key: str
    typed: bool
    """Whether each server names its transport (``"type": "stdio"``)."""


CLIENTS: dict[str, Client] = {
    c.name: c
    for c in (
        Client(
            "claude-desktop",
            "Claude Desktop",
            "claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\; "
            "Settings › Developer › Edit Config opens it)",
            "mcpServers",
            False,
        ),
        Client("claude-code", "Claude Code", ".mcp.json at the root of a project", "mcpServers", True),
        Client("cursor", "Cursor", ".cursor/mcp.json in a project, or ~/.cursor/mcp.json", "mcpServers", False),
        Client("vscode", "VS Code", ".vscode/mcp.json in a workspace", "servers", True),
        Client("windsurf", "Windsurf", "~/.codeium/windsurf/mcp_config.json", "mcpServers", False),
    )
}


def server_entry(client: Client, vault_root: str, index_dir: str, author: str | None) -> dict[str, Any]:
    """One server's entry: the command and its arguments, every path absolute."""
    command, *first = curator_command()
    args = [*first, "--vault", os.path.abspath(vault_root), "--index-dir", os.path.abspath(index_dir), "mcp"]
    if author:
        args += ["--author", author]
    entry: dict[str, Any] = {"type": "stdio"} if client.typed else {}
    entry.update({"command": command, "args": args})
    return entry


def config(client: Client, vault_root: str, index_dir: str, author: str | None = None) -> dict[str, Any]:
    """The whole file as the client reads it, holding Curator's server alone."""
    return {client.servers_key: {SERVER_NAME: server_entry(client, vault_root, index_dir, author)}}
