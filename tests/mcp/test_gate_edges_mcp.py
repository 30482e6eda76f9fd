"""kp_propose through the official SDK client, on gate holes: each test asserts what the fixed
product must do and is marked ``xfail(strict=True)`` until the hole is closed."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from tests.gate_kit import REGION_LINES, hash_object, new_vault, region_note
from tests.mcp.harness import connect, ok


def test_a_hunk_whose_header_lies_is_judged_where_it_applies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    v = new_vault(tmp_path / "v", {"notes/region.md": region_note("kp:01J00000000000000000000RGN")})
    before = v.read("notes/region.md")
    # The header says line 24 (outside the region); the lines match only at 17-19, inside it.
    diff = "@@ -24,3 +24,3 @@\n - two\n-- three\n+- THREE\n - four\n"
    assert before.splitlines()[16:19] == ["- two", "- three", "- four"]
    assert before.splitlines()[23:26] != ["- two", "- three", "- four"]
    change = {"op": "modify", "path": "notes/region.md", "blob": hash_object(v, "notes/region.md"), "diff": diff}

    async def scenario() -> dict:
        async with connect(v.root) as c:
            return ok(await c.call_tool("kp_propose", {"title": "t", "rationale": "r", "changes": [change]}))

    made = anyio.run(scenario)
    assert made["verdict"] == "rejected" and not made["staged"], made
    kp004 = [f for f in made["findings"] if f["code"] == "KP004"]
    assert kp004, made["findings"]
    # Named where the hunk applies: inside the region (its begin marker is line 15, its end 21).
    assert all(REGION_LINES <= f.get("line", 0) <= REGION_LINES + 6 for f in kp004), kp004
    assert not (v.root / ".kp" / "proposals" / made["id"]).exists()
