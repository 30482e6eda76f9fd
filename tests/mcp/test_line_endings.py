"""kp_propose on a note whose working copy has CRLF under Curator's ``eol=lf``: the proposal
diffs the note as git stores it (LF), as `curator propose` does, and applies as one LF line."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from tests.conftest import GitVault, make_git_vault, run_process
from tests.mcp.harness import connect, ok

BODY = "---\nkp_id: kp:01J0000000000000000000ALPH\ntitle: A\n---\n# A\n\n" + "".join(f"line {i}\n" for i in range(12))


@pytest.fixture
def crlf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitVault:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    v = make_git_vault(tmp_path / "v")
    v.write(".gitattributes", "*.md text eol=lf\n.kp/proposals/** -text\n")
    v.write("notes/a.md", BODY)
    v.write("notes/b.md", BODY.replace("ALPH", "BETA").replace("title: A", "title: B"))
    v.commit("init")
    for name in ("a", "b"):  # an editor saved both with CRLF
        (v.root / "notes" / f"{name}.md").write_bytes(
            (v.root / "notes" / f"{name}.md").read_bytes().replace(b"\n", b"\r\n")
        )
    return v


def test_a_crlf_working_copy_gets_a_one_line_lf_proposal_by_content_and_by_diff(crlf: GitVault) -> None:
    made: dict[str, dict[str, object]] = {}

    async def scenario() -> None:
        async with connect(crlf.root) as c:
            blob_a = ok(await c.call_tool("kp_read", {"ref": "notes/a.md"}))["blob"]
            blob_b = ok(await c.call_tool("kp_read", {"ref": "notes/b.md"}))["blob"]
            new_a = BODY.replace("line 5\n", "line five\n")
            made["content"] = ok(
                await c.call_tool(
                    "kp_propose",
                    {
                        "title": "Spell out five",
                        "rationale": "by content",
                        "changes": [{"op": "modify", "path": "notes/a.md", "blob": blob_a, "content": new_a}],
                    },
                )
            )
            hunk = "@@ -10,3 +10,3 @@\n line 3\n-line 4\n+line four\n line 5\n"
            made["diff"] = ok(
                await c.call_tool(
                    "kp_propose",
                    {
                        "title": "Spell out four",
                        "rationale": "by diff",
                        "changes": [{"op": "modify", "path": "notes/b.md", "blob": blob_b, "diff": hunk}],
                    },
                )
            )

    anyio.run(scenario)
    assert made["content"]["verdict"] == "valid", made["content"]
    assert made["diff"]["verdict"] == "valid", made["diff"]
    for kind, path, line in (("content", "notes/a.md", "line five"), ("diff", "notes/b.md", "line four")):
        pid = str(made[kind]["id"])
        diff = (crlf.root / ".kp" / "proposals" / pid / "changes.diff").read_bytes()
        lines = diff.decode().splitlines()
        removed = [x for x in lines if x.startswith("-") and not x.startswith("---")]
        added = [x for x in lines if x.startswith("+") and not x.startswith("+++")]
        assert b"\r" not in diff and len(removed) == len(added) == 1 and added[0] == f"+{line}", diff
        r = run_process("--vault", crlf.root, "apply", pid, "--yes")
        assert r.returncode == 0, r.stdout + r.stderr
        committed = crlf.git("show", f"HEAD:{path}").stdout
        assert "\r" not in committed and f"{line}\n" in committed
        assert crlf.git("diff", "--numstat", "HEAD~1", "HEAD", "--", path).stdout.split()[:2] == ["1", "1"]
