"""kp_propose, through the official SDK client, refuses what applying would crash on or write where
no note belongs: a path that is a file and a folder at once, a name git reads as .git on macOS or
Windows, an excluded folder, a kp_id that differs only in case. Each is a finding; nothing is left."""

from __future__ import annotations

import anyio
import pytest

from tests.conftest import GitVault, note
from tests.mcp.harness import connect, ok


def _leftovers(v: GitVault) -> list[str]:
    proposals = v.root / ".kp" / "proposals"
    left = [p.name for p in proposals.iterdir()] if proposals.exists() else []
    return left + [p.name for p in (v.root / ".git").iterdir() if p.name.startswith(("curator-", ".curator-"))]


def test_kp_propose_refuses_shapes_that_would_crash_or_escape(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    vault.write("notes/gamma.md", note("kp:01JABCDEFGHJKMNPQRSTVWXYZ0", "Gamma"))
    vault.commit("gamma")
    cases: list[tuple[list[dict[str, str]], str]] = [
        (
            [
                {"op": "create", "path": "z/y.md", "content": "# y\n"},
                {"op": "create", "path": "z/y.md/w.md", "content": "# w\n"},
            ],
            "KP002",
        ),
        ([{"op": "create", "path": "notes/alpha.md/x.md", "content": "# x\n"}], "KP002"),
        ([{"op": "create", "path": ".git\u200c/x.md", "content": "# x\n"}], "KP002"),
        ([{"op": "create", "path": ".git /x.md", "content": "# x\n"}], "KP002"),
        ([{"op": "create", "path": ".github/x.md", "content": "# x\n"}], "KP010"),
        (
            [
                {
                    "op": "create",
                    "path": "notes/dup.md",
                    "content": note("kp:01jabcdefghjkmnpqrstvwxyz0", "Dup"),
                }
            ],
            "KP006",
        ),
    ]

    async def scenario() -> None:
        async with connect(vault.root) as c:
            for changes, code in cases:
                made = ok(await c.call_tool("kp_propose", {"title": "t", "rationale": "r", "changes": changes}))
                assert made["verdict"] == "rejected" and not made["staged"], (changes, made)
                assert code in {f["code"] for f in made["findings"]}, (changes, made)

    anyio.run(scenario)
    assert _leftovers(vault) == [] and vault.status() == ""
