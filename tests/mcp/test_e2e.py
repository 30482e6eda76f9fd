"""End to end: the official SDK client launches `curator mcp` on a copy of the example vault."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from tests.conftest import GitVault, git, run_process
from tests.mcp.harness import connect, framed_lines, ok, text, vault_bytes

TOOLS = {"kp_search", "kp_read", "kp_relate", "kp_index_card", "kp_propose", "kp_proposal"}
NEW_NOTE = "---\ntitle: Locking summary\ntags: [sqlite]\n---\n# Locking summary\n\nSee [[WAL mode]] and [[busy_timeout and locked databases]].\n"


def _smoke(vault: GitVault, http: bool) -> None:
    before = vault_bytes(vault.root)

    async def scenario() -> tuple[str, str, str]:
        async with connect(vault.root, http=http) as c:
            tools = (await c.list_tools()).tools
            assert {t.name for t in tools} == TOOLS
            described = {t.name: t.description or "" for t in tools}
            assert "ONLY way to change the vault" in described["kp_propose"]
            assert "blob" in described["kp_propose"] and "rationale" in described["kp_propose"]
            assert "kp_propose needs it" in described["kp_read"]

            found = ok(await c.call_tool("kp_search", {"query": "why is the database locked", "k": 3}))
            hit = found["hits"][0]
            path, span = hit["cite"].rsplit(":", 1)
            first, last = map(int, span.split("-"))
            cited = " ".join((vault.root / path).read_text(encoding="utf-8").split("\n")[first - 1 : last])
            words = re.findall(r"\w+", hit["snippet"].replace("…", " "))
            assert words and all(w in cited for w in words), (hit, cited)
            assert "<vault-data" in text(await c.call_tool("kp_search", {"query": "busy timeout"}))

            page = ok(await c.call_tool("kp_read", {"ref": hit["kp_id"]}))
            assert page["path"] == path and framed_lines(page)[0][0] == 1
            blob = git(vault.root, "hash-object", path).stdout.strip()
            assert page["blob"] == blob

            rel = ok(await c.call_tool("kp_relate", {"ref": path}))
            assert rel["links"] or rel["backlinks"]

            card = [text(await c.call_tool("kp_index_card", {})) for _ in range(2)]
            assert card[0] == card[1] and len(card[0].encode()) <= 4096

            original = (vault.root / path).read_text(encoding="utf-8")
            edited = original + "\nA busy timeout of 5 s is enough for the CLI.\n"
            made = ok(
                await c.call_tool(
                    "kp_propose",
                    {
                        "title": "Say how long the busy timeout should be",
                        "rationale": f"The CLI's commands finish within seconds ({path}:{first}-{last}).",
                        "changes": [
                            {"op": "modify", "path": path, "blob": page["blob"], "content": edited},
                            {"op": "create", "path": "sqlite/locking-summary.md", "content": NEW_NOTE},
                        ],
                    },
                )
            )
            assert made["verdict"] == "valid" and made["findings"] == [], made
            assert made["minted"] and "sqlite/locking-summary.md" in made["minted"][0]
            status = ok(await c.call_tool("kp_proposal", {"id": made["id"]}))
            assert status["status"] == "pending" and status["verdict"] == "valid" and status["events"] == []
            return made["id"], path, edited

    pid, path, edited = anyio.run(scenario)
    after = vault_bytes(vault.root)
    assert {p: after[p] for p in before} == before  # every file of the vault byte-identical
    assert {p for p in after if p not in before} == {
        f".kp/proposals/{pid}/proposal.yaml",
        f".kp/proposals/{pid}/changes.diff",
        f".kp/proposals/{pid}/files/sqlite/locking-summary.md",
    }
    assert run_process("--vault", vault.root, "validate", pid).returncode == 0
    applied = run_process("--vault", vault.root, "apply", pid, "--yes")
    assert applied.returncode == 0, applied.stderr
    assert (vault.root / path).read_text(encoding="utf-8") == edited
    assert "kp_id: kp:" in (vault.root / "sqlite/locking-summary.md").read_text(encoding="utf-8")
    changed = git(vault.root, "status", "--porcelain").stdout
    assert path not in changed and "locking-summary" not in changed and pid not in changed, changed


# The hashing embedder keeps these runs to seconds; the real model's query path has its own tests,
# and benchmarks/mcp_latency.py runs this server with it.
def test_stdio_smoke(example_vault: GitVault, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    _smoke(example_vault, http=False)


def test_http_smoke(example_vault: GitVault, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    _smoke(example_vault, http=True)


@pytest.mark.skipif(shutil.which("npx") is None, reason="npx is not installed: the MCP Inspector runs on node")
def test_the_mcp_inspector_lists_the_tools(example_vault: GitVault) -> None:
    script = Path(__file__).resolve().parents[2] / "scripts" / "inspect-mcp"
    # The interpreter running the tests, wherever it lives (not only a checkout's .venv).
    env = {**os.environ, "PYTHON": sys.executable}
    r = subprocess.run([str(script), str(example_vault.root)], capture_output=True, text=True, timeout=300, env=env)
    if r.returncode != 0 and "ENOTFOUND" in r.stderr + r.stdout:
        pytest.skip("the npm registry is out of reach: the Inspector cannot be fetched")
    assert r.returncode == 0, r.stderr
    names = set(re.findall(r'"name": "(kp_\w+)"', r.stdout))
    assert names == TOOLS
