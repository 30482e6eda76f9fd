"""Revisions in the review UI, driven by Pilot on real git vaults: keep one hunk of two, edit
before applying, ask for changes and read an agent's answer (over the MCP SDK client)."""

from __future__ import annotations

import asyncio
import json
import stat
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from textual.pilot import Pilot
from textual.widgets._footer import FooterKey

from curator.review.confirm import ConfirmScreen
from curator.review.editor import EditScreen
from tests.builders import make_proposal, modify
from tests.conftest import GitVault, note
from tests.mcp.harness import connect, ok, text
from tests.review.pilot import review_app, screen, settle, until

Scenario = Callable[[Pilot[None]], Awaitable[None]]
LONG = "\n".join(f"Line {n}." for n in range(1, 21)) + "\n"


def drive(root: Path, scenario: Scenario, size: tuple[int, int] = (110, 32)) -> None:
    async def main() -> None:
        async with review_app(root).run_test(size=size) as pilot:
            await settle(pilot)
            await scenario(pilot)

    asyncio.run(main())


def _events(v: GitVault, pid: str) -> list[dict[str, str]]:
    path = v.root / ".kp" / "proposals" / pid / "events.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def _manifest(v: GitVault, pid: str) -> dict[str, object]:
    data = YAML(typ="safe").load((v.root / ".kp" / "proposals" / pid / "proposal.yaml").read_text())
    assert isinstance(data, dict)
    return data


def _ids(v: GitVault) -> set[str]:
    return {p.name for p in (v.root / ".kp" / "proposals").iterdir()}


def _two_hunks(v: GitVault) -> str:
    v.write("notes/long.md", note("kp:01J0000000000000000000LONG", "Long", LONG))
    v.commit("long")
    text = v.read("notes/long.md")
    c, d = modify(v, "notes/long.md", text.replace("Line 2.", "Line two.").replace("Line 19.", "Line nineteen."))
    return make_proposal(v, [c], diff=d, title="Spell out two numbers")


def _status(pilot: Pilot[None]) -> str:
    return str(screen(pilot).query_one("#status").render())


def test_space_keeps_one_hunk_of_two_and_a_applies_only_it_as_a_revision(vault: GitVault) -> None:
    old = _two_hunks(vault)
    head = vault.git("rev-parse", "HEAD").stdout.strip()

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(
            pilot, lambda: s.queue.entries[old].verdict == "valid" and not s.preflight.checking, "the pre-flight"
        )
        headers = [r.text for r in s.diff.model.rows if r.kind == "hunk"]
        assert len(headers) == 2 and headers[1].endswith("hunk 2 of 2")
        await pilot.press("n", "n")  # hunk 1, then hunk 2 (the diff is shorter than the pane)
        await pilot.press("space")
        assert "1 of 2 hunks marked" in _status(pilot)
        await settle(pilot)
        assert "Keep 1/2" in [k.description for k in s.query(FooterKey)]  # the count in the footer
        assert s.diff.marks == frozenset({s.diff.model.stops[2]})
        await pilot.press("a")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the confirmation")
        dialog = pilot.app.screen
        assert isinstance(dialog, ConfirmScreen) and "1 of 2 hunks" in dialog.title_text
        assert vault.git("rev-parse", "HEAD").stdout.strip() == head  # nothing before confirming
        await pilot.press("y")
        await until(pilot, lambda: s.queue.entries.get(old) is not None and len(_ids(vault)) == 2, "the revision")
        new = next(i for i in _ids(vault) if i != old)
        await until(
            pilot,
            lambda: new in s.queue.entries and s.queue.entries[new].status == "applied",
            "the revision applied, in view",
        )

    drive(vault.root, scenario)
    new = next(i for i in _ids(vault) if i != old)
    # The commit holds that hunk only.
    text = vault.read("notes/long.md")
    assert "Line nineteen." in text and "Line two." not in text and "Line 2.\n" in text
    shown = vault.git("show", "HEAD", "--", "notes/long.md").stdout
    assert "+Line nineteen." in shown and "-Line 19." in shown and "Line two" not in shown
    assert f"Kp-Proposal: {new}" in vault.git("log", "-1", "--format=%B").stdout
    # The new revision supersedes the old one; the author is kept, the reviewer recorded.
    m = _manifest(vault, new)
    assert m["supersedes"] == old and m["author"] == {"kind": "agent", "name": "tester"}
    assert isinstance(m["revised_by"], dict) and m["revised_by"]["kind"] == "human"
    assert [(e["event"], e.get("reason")) for e in _events(vault, old)] == [
        ("superseded", f"partly accepted into {new}")
    ]
    assert [e["event"] for e in _events(vault, new)] == ["applied"]
    assert vault.git("status", "--porcelain").stdout == ""


def test_e_edits_the_proposed_file_in_the_app_and_stages_the_persons_revision(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    c, d = modify(vault, "notes/beta.md", vault.read("notes/beta.md").replace("Beta text.", "Beta words."))
    old = make_proposal(vault, [c], diff=d, title="Reword beta")

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(
            pilot, lambda: s.queue.entries[old].verdict == "valid" and not s.preflight.checking, "the pre-flight"
        )
        await pilot.press("e")
        await until(pilot, lambda: isinstance(pilot.app.screen, EditScreen), "the editor")
        await pilot.press("x", "escape")  # with an edit made, the first Esc only warns
        await settle(pilot)
        assert isinstance(pilot.app.screen, EditScreen)
        await pilot.press("escape")  # the second leaves without staging anything
        await until(pilot, lambda: not isinstance(pilot.app.screen, EditScreen), "the editor closed")
        assert _ids(vault) == {old}
        await pilot.press("e")
        await until(pilot, lambda: isinstance(pilot.app.screen, EditScreen), "the editor again")
        area = pilot.app.screen.query_one("#edit-text")
        assert "Beta words." in area.text  # type: ignore[attr-defined]
        area.text = area.text.replace("Beta words.", "Beta, in my words.")  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: len(_ids(vault)) == 2, "the person's revision")
        new = next(i for i in _ids(vault) if i != old)
        await until(pilot, lambda: s.queue.chosen == new and s.queue.entries[new].verdict == "valid", "selected")
        entry = s.queue.entries[new]
        assert entry.chain == [old, new] and entry.version == 2
        assert str(s.queue.get_cell(new, "title")).startswith("v2 ")
        # Shown with its diff against the agent's: only the person's own change.
        await until(pilot, lambda: s.diff.of == f"{new} against", "the diff against the agent's revision")
        changed = [(r.kind, r.text) for r in s.diff.model.rows if r.kind in ("add", "del")]
        assert changed == [("del", "Beta words."), ("add", "Beta, in my words.")]
        await pilot.press("i")
        await until(pilot, lambda: s.diff.of == new, "its own diff again")
        await pilot.press("a")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the confirmation")
        await pilot.press("y")
        await until(pilot, lambda: s.queue.entries[new].status == "applied", "applied")

    drive(vault.root, scenario)
    new = next(i for i in _ids(vault) if i != old)
    assert "Beta, in my words." in vault.read("notes/beta.md")
    m = _manifest(vault, new)
    assert m["supersedes"] == old and isinstance(m["author"], dict) and m["author"]["kind"] == "human"
    assert [(e["event"], e.get("reason")) for e in _events(vault, old)] == [("superseded", f"edited into {new}")]
    assert "Kp-Author: human:" in vault.git("log", "-1", "--format=%B").stdout


def test_e_uses_the_editor_in_the_environment(vault: GitVault, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    script = tmp_path / "fake-editor"
    script.write_text(
        f"#!{sys.executable}\nimport sys\np = sys.argv[-1]\nt = open(p).read()\n"
        "open(p, 'w').write(t.replace('Beta words.', 'Beta, edited outside.'))\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(script))
    c, d = modify(vault, "notes/beta.md", vault.read("notes/beta.md").replace("Beta text.", "Beta words."))
    old = make_proposal(vault, [c], diff=d, title="Reword beta")

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(
            pilot, lambda: s.queue.entries[old].verdict == "valid" and not s.preflight.checking, "the pre-flight"
        )
        await pilot.press("e")
        await until(pilot, lambda: len(_ids(vault)) == 2, "the revision")

    drive(vault.root, scenario)
    new = next(i for i in _ids(vault) if i != old)
    staged = (vault.root / ".kp" / "proposals" / new / "changes.diff").read_text()
    assert "+Beta, edited outside." in staged
    assert _manifest(vault, new)["supersedes"] == old


def test_c_asks_for_changes_and_the_agent_answers_with_a_revision_over_mcp(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch, cli
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CURATOR_EMBEDDER", "none")
    assert cli("--vault", vault.root, "index").code == 0
    c, d = modify(vault, "notes/beta.md", vault.read("notes/beta.md").replace("Beta text.", "Beta words."))
    old = make_proposal(vault, [c], diff=d, title="Reword beta")
    reason = "Cite where the wording comes from, and keep the word text."

    async def ask(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(
            pilot, lambda: s.queue.entries[old].verdict == "valid" and not s.preflight.checking, "the pre-flight"
        )
        await pilot.press("c")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the reason dialog")
        await pilot.press(*reason, "enter")
        await until(pilot, lambda: s.queue.entries[old].requested is not None, "the request recorded")
        assert s.queue.entries[old].status == "pending"
        assert str(s.queue.get_cell(old, "title")).startswith("↩ ")

    drive(vault.root, ask)
    assert [(e["event"], e["reason"]) for e in _events(vault, old)] == [("changes-requested", reason)]
    assert "Kp-Event: changes-requested" in vault.git("log", "-1", "--format=%B").stdout

    async def agent() -> str:
        async with connect(vault.root, author="mallory") as other:
            # Another agent may not answer for this one: a revision supersedes what it revises.
            blob = ok(await other.call_tool("kp_read", {"ref": "notes/beta.md"}))["blob"]
            taken = await other.call_tool(
                "kp_propose",
                {
                    "title": "Mine now",
                    "rationale": "r",
                    "changes": [{"op": "modify", "path": "notes/beta.md", "blob": blob, "content": "# Taken\n"}],
                    "revises": old,
                },
            )
            assert taken.is_error and "revises only its own proposals" in text(taken), text(taken)
            assert ok(await other.call_tool("kp_proposal", {"id": old}))["status"] == "pending"
        async with connect(vault.root, author="tester") as client:  # the author make_proposal names
            status = await client.call_tool("kp_proposal", {"id": old})
            said = text(status)
            data = ok(status)
            assert data["status"] == "pending"
            assert data["changes_requested"]["reason"] == reason
            # The reason is the reviewer's words, framed as such, not as vault data.
            assert f">\n{reason}\n</reviewer-request" in said and "<vault-data" not in said.split(reason)[0]
            assert f"revises='{old}'" in said
            blob = ok(await client.call_tool("kp_read", {"ref": "notes/beta.md"}))["blob"]
            new_text = vault.read("notes/beta.md").replace("Beta text.", "Beta text, in words from alpha.md:6.")
            answer = ok(
                await client.call_tool(
                    "kp_propose",
                    {
                        "title": "Reword beta, citing alpha",
                        "rationale": "As asked: the wording comes from notes/alpha.md:6-6.",
                        "changes": [{"op": "modify", "path": "notes/beta.md", "blob": blob, "content": new_text}],
                        "revises": old,
                    },
                )
            )
            assert answer["verdict"] == "valid" and answer["revises"] == old
            after = ok(await client.call_tool("kp_proposal", {"id": old}))
            assert after["status"] == "superseded" and after["superseded_by"] == answer["id"]
            again = await client.call_tool(
                "kp_propose",
                {
                    "title": "Again",
                    "rationale": "a second answer",
                    "changes": [{"op": "modify", "path": "notes/beta.md", "blob": blob, "content": new_text}],
                    "revises": old,
                },
            )
            assert again.is_error and "already superseded" in text(again) and answer["id"] in text(again)
            missing = await client.call_tool(
                "kp_propose",
                {
                    "title": "Nothing",
                    "rationale": "no such proposal",
                    "changes": [{"op": "modify", "path": "notes/beta.md", "blob": blob, "content": new_text}],
                    "revises": "01J00000000000000000000000",
                },
            )
            assert missing.is_error and "no proposal 01J00000000000000000000000" in text(missing)
            assert len(text(missing).strip().splitlines()) == 1
            return str(answer["id"])

    new = asyncio.run(agent())
    assert _manifest(vault, new)["supersedes"] == old
    assert [e["event"] for e in _events(vault, old)] == ["changes-requested", "superseded"]
    assert _ids(vault) == {old, new}

    async def chain(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(pilot, lambda: new in s.queue.entries and s.queue.entries[new].verdict == "valid", "the answer")
        assert [e.id for e in s.queue.visible_entries()] == [new]
        entry = s.queue.entries[new]
        assert entry.chain == [old, new] and entry.version == 2
        detail = str(s.query_one("#detail-text").render())
        assert f"v1 {old[-6:]} → v2 {new[-6:]}" in detail
        await pilot.press("i")
        await until(pilot, lambda: s.diff.of == f"{new} against", "the diff between the revisions")
        changed = [(r.kind, r.text) for r in s.diff.model.rows if r.kind in ("add", "del")]
        assert changed == [("del", "Beta words."), ("add", "Beta text, in words from alpha.md:6.")]

    drive(vault.root, chain)


def test_an_applied_proposal_cannot_be_revised(vault: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    from curator.commands.app import App
    from curator.errors import CheckFailed
    from curator.mcp import propose as prop
    from curator.proposals.manifest import Author

    c, d = modify(vault, "notes/beta.md", vault.read("notes/beta.md").replace("Beta text.", "Beta words."))
    old = make_proposal(vault, [c], diff=d, title="Reword beta")
    assert cli("--vault", vault.root, "apply", old, "--yes").code == 0
    v, settings = App(vault_arg=str(vault.root)).place()[:2]
    change = prop.ChangeIn("create", "notes/gamma.md", content="# Gamma\n")
    with pytest.raises(CheckFailed, match=f"proposal {old} is already applied"):
        prop.propose(v, settings, "T", "why", [change], Author(kind="agent", name="a"), revises=old)
    assert _ids(vault) == {old}


def test_a_applies_the_hunk_kept_of_a_conflicting_proposal(vault: GitVault) -> None:
    old = _two_hunks(vault)
    vault.write("notes/long.md", vault.read("notes/long.md").replace("Line 2.", "Line 2, edited by hand."))
    vault.commit("an edit where hunk 1 changes the note")

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(
            pilot, lambda: s.queue.entries[old].drift == "conflicts" and not s.preflight.checking, "the pre-flight"
        )
        assert s.check_action("apply", ()) is None  # the whole proposal does not apply
        await pilot.press("n", "n", "space")
        assert s.check_action("apply", ()) is True
        await pilot.press("a")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the confirmation")
        await pilot.press("y")
        await until(pilot, lambda: len(_ids(vault)) == 2 and s.queue.entries[old].status == "superseded", "done")

    drive(vault.root, scenario)
    text = vault.read("notes/long.md")
    assert "Line nineteen." in text and "Line 2, edited by hand." in text
