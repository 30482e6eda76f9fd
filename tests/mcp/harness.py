"""Talking to a real `curator mcp` process with the official SDK client, over stdio or HTTP."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx2
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

PASS_ENV = (
    "XDG_CACHE_HOME",
    "XDG_RUNTIME_DIR",
    "XDG_STATE_HOME",
    "HOME",
    "PATH",
    "CURATOR_EMBEDDER",
    "CURATOR_EMBED_BASE_URL",
    "CURATOR_EMBED_MODEL",
    "CURATOR_EMBED_DIMS",
    "CURATOR_EMBED_API_KEY",
    "HF_HUB_OFFLINE",
    "GIT_AUTHOR_NAME",
    "GIT_AUTHOR_EMAIL",
    "GIT_COMMITTER_NAME",
    "GIT_COMMITTER_EMAIL",
)


def env() -> dict[str, str]:
    return {k: os.environ[k] for k in PASS_ENV if k in os.environ}


def http_token(vault: Path) -> str:
    """The vault's HTTP bearer token, as its owner gets it: `curator mcp --http --print-token`."""
    got = subprocess.run(
        [sys.executable, "-m", "curator", "--vault", str(vault), "mcp", "--http", "--print-token"],
        env={**os.environ, **env()},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert got.returncode == 0, got.stderr
    return got.stdout.strip()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def connect(vault: Path, *, http: bool = False, author: str = "test-agent") -> AsyncIterator[Client]:
    args = ["-m", "curator", "--vault", str(vault), "mcp", "--author", author]
    if not http:
        async with Client(StdioServerParameters(command=sys.executable, args=args, env=env())) as client:
            yield client
        return
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, *args, "--http", "--port", str(port)],
        env={**os.environ, **env()},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:  # wait for the port to accept connections
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the HTTP server did not start"
            time.sleep(0.05)
        headers = {"Authorization": f"Bearer {http_token(vault)}"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as http_client,
            Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http_client)) as client,
        ):
            yield client
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def ok(result: Any) -> dict[str, Any]:
    """The structured content of a successful call."""
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert isinstance(data, dict)
    return data


def text(result: Any) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def vault_bytes(root: Path) -> dict[str, bytes]:
    """Every file of the work tree outside .git/, by path."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(".git/") or rel == ".git" or not path.is_file() or path.is_symlink():
            continue
        out[rel] = path.read_bytes()
    return out


def framed_lines(data: dict[str, Any]) -> list[tuple[int, str]]:
    """The numbered lines of a kp_read answer's structured ``content``: (number, text), read out
    of the one ``<vault-data>`` frame it holds."""
    content = data["content"]
    assert content.startswith("<vault-data ") and content.rstrip().endswith(">"), content[:200]
    body = content.split("\n")[1:-1]
    assert content.split("\n")[-1].startswith("</vault-data id=")
    out = []
    for line in body:
        n, _, rest = line.partition(" | ")
        out.append((int(n), rest))
    return out
