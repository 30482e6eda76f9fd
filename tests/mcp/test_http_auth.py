"""`curator mcp --http` on loopback, as another local user or a web page would reach it.

Loopback is not a boundary between the users of one machine: every one of them can connect to
127.0.0.1. The holes are marked xfail (strict) while they are open, so that each test turns into a
failure the day the server authenticates its requests and the marker has to go. The DNS-rebinding
check holds today and must keep holding.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import GitVault, note
from tests.mcp.harness import env, free_port

PRIVATE = "The owner's private plan is PLAN-OCTOBER-7731."
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}
NOBODY = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")


@pytest.fixture
def private(vault: GitVault, monkeypatch: pytest.MonkeyPatch) -> GitVault:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    vault.write("notes/private.md", note("kp:01J0000000000000000000PRIV", "Private", PRIVATE + "\n"))
    vault.commit("a private note")
    return vault


@contextlib.contextmanager
def serving(vault: Path) -> Iterator[int]:
    """`curator mcp --http` started by the vault's owner; yields its port once it accepts connections."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "curator", "--vault", str(vault), "mcp", "--http", "--port", str(port)],
        env={**os.environ, **env()},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the HTTP server did not start"
            time.sleep(0.05)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def post(port: int, body: object, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """One plain HTTP POST to the MCP endpoint: no MCP client, no session."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        sent = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            **(headers or {}),
        }
        conn.request("POST", "/mcp", body=json.dumps(body), headers=sent)
        response = conn.getresponse()
        return response.status, response.read(4096).decode("utf-8", "replace")
    finally:
        conn.close()


@pytest.mark.xfail(strict=True, reason="the HTTP transport serves every request: there is no authentication")
def test_a_request_without_a_token_gets_401(private: GitVault) -> None:
    with serving(private.root) as port:
        status, body = post(port, INITIALIZE)
    assert status == 401, (status, body)


@pytest.mark.xfail(strict=True, reason="the HTTP transport serves every request: any bearer token is accepted")
def test_a_request_with_a_wrong_token_gets_401(private: GitVault) -> None:
    with serving(private.root) as port:
        status, body = post(port, INITIALIZE, {"Authorization": "Bearer not-the-token-0123456789abcdef"})
    assert status == 401, (status, body)


ATTACKER = r"""
import json, sys
import anyio
from mcp.client import Client

print("CLIENT-RAN", flush=True)

async def main(url):
    async with Client(url) as c:
        read = await c.call_tool("kp_read", {"ref": "notes/private.md"})
        print("READ", json.dumps([getattr(x, "text", "") for x in read.content]), flush=True)
        made = await c.call_tool("kp_propose", {
            "title": "Planted by another user",
            "rationale": "nobody asked for this",
            "changes": [{"op": "create", "path": "notes/planted.md", "content": "# Planted\n"}],
        })
        print("PROPOSE", json.dumps(made.structured_content), flush=True)

async def bounded(url):
    with anyio.fail_after(60):  # refused or not, the client ends on its own
        await main(url)

try:
    anyio.run(bounded, sys.argv[1])
except BaseException as e:
    print("REFUSED", type(e).__name__, str(e)[:300], flush=True)
"""


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root, to run a client as a second user (65534)"
)
@pytest.mark.skipif(shutil.which("setpriv") is None, reason="setpriv (util-linux) is not installed")
@pytest.mark.xfail(
    strict=True,
    reason="another local user who cannot read the vault reads its notes through kp_read and stages a "
    "proposal in it through kp_propose: loopback HTTP is open to every user of the machine",
)
def test_another_user_cannot_read_the_vault_through_the_http_server(private: GitVault) -> None:
    private.root.chmod(0o700)
    note_path = private.root / "notes" / "private.md"
    cat = subprocess.run([*NOBODY, "cat", str(note_path)], capture_output=True, text=True, timeout=30)
    assert cat.returncode != 0 and PRIVATE not in cat.stdout, "the second user can read the vault's files"
    with serving(private.root) as port:
        attacker = subprocess.run(
            [*NOBODY, sys.executable, "-c", ATTACKER, f"http://127.0.0.1:{port}/mcp"],
            capture_output=True,
            text=True,
            timeout=120,
            cwd="/",
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/nonexistent"},
        )
    out = attacker.stdout
    assert "CLIENT-RAN" in out, (out, attacker.stderr)  # the second user's client did run
    assert "PLAN-OCTOBER-7731" not in out, out
    proposals = private.root / ".kp" / "proposals"
    staged = sorted(p.name for p in proposals.iterdir()) if proposals.exists() else []
    assert staged == [], f"the second user staged {staged} in the owner's vault"


# Passes today: the SDK's DNS-rebinding protection (Host and Origin checked against loopback names).
# These requests carry no token; once the server asks for one, send the owner's token here, so that
# the Host and Origin checks are shown to refuse an authenticated request too.
def test_a_foreign_host_or_origin_is_refused(private: GitVault) -> None:
    with serving(private.root) as port:
        host = post(port, INITIALIZE, {"Host": f"attacker.example:{port}"})
        origin = post(port, INITIALIZE, {"Origin": "http://attacker.example"})
        local = post(port, INITIALIZE, {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"})
    assert host[0] == 421 and "Host" in host[1], host
    assert origin[0] == 403 and "Origin" in origin[1], origin
    assert local[0] != 421 and local[0] != 403, local
