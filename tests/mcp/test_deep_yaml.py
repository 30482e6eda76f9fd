"""A server whose vault holds a note nested 40,000 deep, and an agent that proposes one: the
server starts, reconciles in the background, answers kp_propose with a finding, and keeps
serving (it used to die at start, exit 139, and kp_propose killed it)."""

from __future__ import annotations

import anyio
import pytest

from tests.conftest import GitVault, note
from tests.mcp.harness import connect, ok

DEEP = "x: " + "[" * 40_000 + "]" * 40_000
BLOCK = "x:\n" + "- " * 40_000 + "leaf"


def _deep_note(kp_id: str, title: str, yaml: str, words: str) -> str:
    return f"---\nkp_id: {kp_id}\ntitle: {title}\n{yaml}\n---\n# {title}\n\n{words}\n"


def test_a_deeply_nested_note_is_named_and_the_server_keeps_serving(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    vault.write("notes/deep.md", _deep_note("kp:01J0000000000000000000DEEP", "Deep", DEEP, "deepword"))
    vault.commit("a note past the gate")

    async def scenario() -> None:
        async with connect(vault.root) as c:
            # started, with the first index built around the deep note
            hits = ok(await c.call_tool("kp_search", {"query": "alpha"}))["hits"]
            assert any(h["path"] == "notes/alpha.md" for h in hits)
            answer = ok(
                await c.call_tool(
                    "kp_propose",
                    {
                        "title": "Deep",
                        "rationale": "nested",
                        "changes": [
                            {
                                "op": "create",
                                "path": "notes/new-deep.md",
                                "content": _deep_note("kp:01J000000000000000000NDEEP", "New", BLOCK, "x"),
                            }
                        ],
                    },
                )
            )
            assert answer["verdict"] == "rejected"
            assert any(f["code"] == "KP008" and "nests deeper" in f["message"] for f in answer["findings"]), answer
            # the background reconcile meets a second deep note beside a fresh plain one
            vault.write("notes/deeper.md", _deep_note("kp:01J000000000000000000DEEP2", "Deeper", BLOCK, "deepword"))
            vault.write("notes/fresh.md", note("kp:01J0000000000000000000FRSH", "Fresh", "freshword here\n"))
            for _ in range(600):
                hits = ok(await c.call_tool("kp_search", {"query": "freshword"}))["hits"]
                if hits:
                    break
                await anyio.sleep(0.1)
            assert [h["path"] for h in hits] == ["notes/fresh.md"]
            deep = await c.call_tool("kp_read", {"ref": "notes/deep.md"})
            assert deep.is_error and "nests deeper" in deep.content[0].text

    anyio.run(scenario)
