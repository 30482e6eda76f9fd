"""The system refusing a write reaches the agent as a one-line error with its reason."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from tests.conftest import GitVault, run_process
from tests.mcp.harness import env, ok, text

needs_root = pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="needs root and unshare(1): a private mount namespace for a read-only bind mount",
)


@needs_root
def test_a_proposal_on_a_read_only_vault_is_a_one_line_error_naming_the_reason(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    assert run_process("--vault", vault.root, "index").returncode == 0  # the index lives in the (writable) cache
    root = shlex.quote(str(vault.root))
    serve = shlex.join([sys.executable, "-m", "curator", "--vault", str(vault.root), "mcp", "--author", "test-agent"])
    # The server runs in a mount namespace of its own, where the vault is mounted read-only.
    script = f"mount --bind {root} {root}\nmount -o remount,ro,bind {root}\nexec {serve}"
    server = StdioServerParameters(
        command="unshare", args=["--mount", "--propagation", "private", "sh", "-euc", script], env=env()
    )

    async def scenario() -> Any:
        async with Client(server) as c:
            blob = ok(await c.call_tool("kp_read", {"ref": "notes/alpha.md"}))["blob"]
            return await c.call_tool(
                "kp_propose",
                {
                    "title": "Reword alpha",
                    "rationale": "a clearer second line",
                    "changes": [
                        {
                            "op": "modify",
                            "path": "notes/alpha.md",
                            "blob": blob,
                            "content": vault.read("notes/alpha.md").replace("Second line.", "Line two."),
                        }
                    ],
                },
            )

    result = anyio.run(scenario)
    said = text(result)
    assert result.is_error, said
    assert "\n" not in said.strip() and "read-only" in said, said
    assert not (vault.root / ".kp" / "proposals").exists() or not any((vault.root / ".kp" / "proposals").iterdir())
