"""`curator mcp --print-config CLIENT`: each common client's file, with absolute paths, starts
the server as the client would (the official SDK client over stdio, from a PATH without
Curator on it); the server says its version as `curator --version` does."""

from __future__ import annotations

import json
import os
from pathlib import Path

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from tests.conftest import GitVault, make_git_vault, note, run_process
from tests.mcp.harness import ok

SHAPES = {
    "claude-desktop": ("mcpServers", None),
    "claude-code": ("mcpServers", "stdio"),
    "cursor": ("mcpServers", None),
    "vscode": ("servers", "stdio"),
    "windsurf": ("mcpServers", None),
}


@pytest.fixture
def small(tmp_path: Path) -> GitVault:
    v = make_git_vault(tmp_path / "my notes")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    v.write("wal.md", note("kp:01J00000000000000000000WAL", "WAL mode", "Readers and one writer."))
    v.commit()
    return v


def _version() -> str:
    r = run_process("--version")
    assert r.returncode == 0, r.stderr
    return r.stdout.split()[-1]


def _printed(v: GitVault, client: str, cwd: Path) -> dict:
    r = run_process("--vault", v.root, "mcp", "--print-config", client, cwd=cwd)
    assert r.returncode == 0, r.stderr
    assert "reads this from" in r.stderr
    return json.loads(r.stdout)


def test_each_clients_config_starts_the_server_without_curator_on_path(small: GitVault, tmp_path: Path) -> None:
    assert run_process("--vault", small.root, "index").returncode == 0
    version = _version()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # A desktop client's environment: no virtualenv on PATH, no XDG cache of the shell's.
    client_env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "other")}
    for client, (key, transport) in SHAPES.items():
        data = _printed(small, client, elsewhere)
        assert list(data) == [key] and list(data[key]) == ["curator"]
        entry = data[key]["curator"]
        assert entry.get("type") == transport
        assert os.path.isabs(entry["command"]) and os.access(entry["command"], os.X_OK)
        args = entry["args"]
        assert args[args.index("--vault") + 1] == str(small.root)
        assert os.path.isabs(args[args.index("--index-dir") + 1])
        params = StdioServerParameters(command=entry["command"], args=args, env=client_env, cwd=str(elsewhere))

        async def session(params: StdioServerParameters = params) -> tuple[str | None, list[dict]]:
            async with Client(params) as c:
                info = c.server_info
                found = ok(await c.call_tool("kp_search", {"query": "writer", "k": 3}))
                return (info.version if info else None), found["hits"]

        served_version, hits = anyio.run(session)
        assert served_version == version, client
        assert [h["path"] for h in hits] == ["wal.md"], client


def test_the_server_says_the_package_version(small: GitVault) -> None:
    from tests.mcp.harness import connect

    async def session() -> str | None:
        async with connect(small.root) as c:
            return c.server_info.version if c.server_info else None

    assert anyio.run(session) == _version() != ""


def test_print_config_is_stdio_only_and_knows_its_clients(small: GitVault) -> None:
    r = run_process("--vault", small.root, "mcp", "--http", "--print-config", "vscode")
    assert r.returncode == 2 and "stdio" in r.stderr and r.stdout == ""
    r = run_process("--vault", small.root, "mcp", "--print-config", "emacs")
    assert r.returncode == 2 and "claude-desktop" in r.stderr
    r = run_process("--vault", small.root, "mcp", "--print-config", "cursor", "--author", "research-bot")
    assert r.returncode == 0
    assert json.loads(r.stdout)["mcpServers"]["curator"]["args"][-2:] == ["--author", "research-bot"]
