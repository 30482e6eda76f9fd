"""The review UI driven by Textual's Pilot on real git vaults: select, read, decide, rebase."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from curator.review.confirm import ConfirmScreen
from curator.review.help import HelpScreen
from curator.review.preview import PreviewScreen
from tests.builders import created, make_proposal, modify
from tests.conftest import GitVault
from tests.review.pilot import review_app, screen, settle, until

Scenario = Callable[[Pilot[None]], Awaitable[None]]


def drive(root: Path, scenario: Scenario, size: tuple[int, int] = (110, 32)) -> None:
    async def main() -> None:
        async with review_app(root).run_test(size=size) as pilot:
            await settle(pilot)
            await scenario(pilot)

    asyncio.run(main())


def _events(v: GitVault, pid: str) -> list[dict[str, str]]:
    path = v.root / ".kp" / "proposals" / pid / "events.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def _reword(v: GitVault, old: str, new: str, title: str = "Reword") -> str:
    c, d = modify(v, "notes/alpha.md", v.read("notes/alpha.md").replace(old, new))
    # Ids in the order made: ULIDs minted within one millisecond need not sort in order.
    taken = len(list((v.root / ".kp" / "proposals").glob("*"))) if (v.root / ".kp" / "proposals").exists() else 0
    return make_proposal(v, [c], diff=d, title=title, ulid=f"01M8PN{taken:020d}")


def _status(pilot: Pilot[None]) -> str:
    return str(screen(pilot).query_one("#status").render())


def test_select_read_the_diff_and_apply_with_confirmation(vault: GitVault) -> None:
    first = _reword(vault, "Second line.", "Second row.", "Reword the second line")
    second = _reword(vault, "Third line.", "Third row.", "Reword the third line")
    head = vault.git("rev-parse", "HEAD").stdout.strip()

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        assert [e.id for e in s.queue.visible_entries()] == [first, second]
        assert s.queue.chosen == first
        texts = [r.text for r in s.diff.model.rows]
        assert "Second line." in texts and "Second row." in texts
        assert "Valid · clean" in _status(pilot)
        await pilot.press("a")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the confirmation dialog")
        assert vault.git("rev-parse", "HEAD").stdout.strip() == head  # nothing before confirming
        await pilot.press("y")
        await until(pilot, lambda: s.queue.chosen == second, "the queue moved to the next proposal")
        await until(pilot, lambda: s.queue.entries[first].status == "applied", "the decided one shows its event")
        assert s.queue.entries[first].event is not None
        assert first in [e.id for e in s.queue.visible_entries()]

    drive(vault.root, scenario)
    assert "Second row." in vault.read("notes/alpha.md")
    message = vault.git("log", "-1", "--format=%B").stdout
    assert f"Kp-Proposal: {first}" in message and message.startswith("Reword the second line")
    assert [e["event"] for e in _events(vault, first)] == ["applied"]
    assert _events(vault, second) == []


def test_cancelling_the_dialog_changes_nothing(vault: GitVault) -> None:
    pid = _reword(vault, "Second line.", "Second row.")
    head = vault.git("rev-parse", "HEAD").stdout.strip()

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("a")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the dialog")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(pilot.app.screen, ConfirmScreen), "the dialog closed")

    drive(vault.root, scenario)
    assert vault.git("rev-parse", "HEAD").stdout.strip() == head and _events(vault, pid) == []


def test_reject_asks_for_a_reason_and_leaves_the_vault_alone(vault: GitVault) -> None:
    pid = _reword(vault, "Second line.", "Second row.")
    before = vault.read("notes/alpha.md")
    head = vault.git("rev-parse", "HEAD").stdout.strip()

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the reason dialog")
        await pilot.press("enter")  # no reason yet: refused
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press(*"not our style, and n or y are just letters here")
        await pilot.press("enter")
        await until(pilot, lambda: s.queue.entries[pid].status == "rejected", "the rejection")

    drive(vault.root, scenario)
    events = _events(vault, pid)
    assert [e["event"] for e in events] == ["rejected"]
    assert events[0]["reason"] == "not our style, and n or y are just letters here"
    # The vault's notes are untouched; the one new commit is Curator's record of the decision.
    assert vault.read("notes/alpha.md") == before and vault.git("rev-parse", "HEAD~1").stdout.strip() == head
    assert vault.git("diff", "--name-only", "HEAD~1", "HEAD", "--", "notes").stdout == ""


def test_apply_is_disabled_on_an_invalid_proposal_and_the_footer_says_why(vault: GitVault) -> None:
    c, f = created(".kp/sneaky.md", "---\nkp_id: kp:01J00000000000000000000SNK\n---\n")
    pid = make_proposal(vault, [c], files=f, title="Touch the config")

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        assert s.queue.entries[pid].verdict == "rejected"
        assert s.check_action("apply", ()) is None
        assert "Apply disabled: the validator rejects it: KP007 .kp/sneaky.md" in _status(pilot)
        detail = str(s.query_one("#detail-text").render())
        assert "KP007" in detail
        await pilot.press("a")
        await settle(pilot)
        assert not isinstance(pilot.app.screen, ConfirmScreen)

    drive(vault.root, scenario)
    assert _events(vault, pid) == [] and not (vault.root / ".kp" / "sneaky.md").exists()


def test_a_proposal_adding_a_secret_shows_a_warning_naming_its_kind_and_may_be_applied(vault: GitVault) -> None:
    key = "AKIA9H2J3K4L5M6N7P8Q"
    c, f = created("notes/deploy.md", f"---\nkp_id: kp:01J00000000000000000000DPL\n---\n# Deploy\n\nKey {key}.\n")
    pid = make_proposal(vault, [c], files=f, title="Write down the deploy key")

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(pilot, lambda: s.queue.entries[pid].verdict == "valid", "the check")
        detail = str(s.query_one("#detail-text").render())
        assert "Warnings" in detail and "KP011" in detail and "AWS Access Key" in detail, detail
        assert "warning: line 6 adds a secret" in detail and "Valid · with warnings" in detail, detail
        assert key not in detail  # the finding never spells the key out
        assert s.check_action("apply", ()) is True  # a warning does not block: the person decides

    drive(vault.root, scenario)


def test_a_conflicting_proposal_is_rebased_into_a_new_revision(vault: GitVault) -> None:
    text = "---\nkp_id: kp:01J00000000000000000000LNG\ntitle: Long\n---\n" + "".join(
        f"line {i}\n" for i in range(1, 31)
    )
    vault.write("notes/long.md", text)
    vault.commit("long")
    c, d = modify(vault, "notes/long.md", text.replace("line 20\n", "line twenty\n"))
    old = make_proposal(vault, [c], diff=d, title="Spell out twenty")
    vault.write("notes/long.md", text.replace("line 17\n", "line seventeen\n"))
    vault.commit("my edit")

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        assert s.queue.entries[old].drift == "conflicts"
        assert s.check_action("apply", ()) is None and "conflicts" in _status(pilot)
        await pilot.press("b")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the rebase dialog")
        await pilot.press("y")
        await until(pilot, lambda: s.queue.chosen not in (None, old), "the new revision is selected")
        new = s.queue.chosen
        assert new is not None
        await until(pilot, lambda: s.queue.entries[new].verdict == "valid", "the new revision checked")
        assert s.queue.entries[new].drift == "clean"
        assert s.queue.entries[old].status == "superseded"
        assert s.check_action("apply", ()) is True

    drive(vault.root, scenario)
    assert [e["event"] for e in _events(vault, old)] == ["superseded"]
    assert "line twenty" not in vault.read("notes/long.md")  # waits for review: nothing applied


def test_a_rebase_whose_merge_conflicts_stages_nothing_and_says_where(vault: GitVault) -> None:
    pid = _reword(vault, "Second line.", "Second row.")
    vault.write("notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "My second line."))

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        assert s.queue.entries[pid].drift == "conflicts"
        await pilot.press("b", "y")
        await until(pilot, lambda: bool(pilot.app._notifications), "a notification")
        said = " ".join(str(n.message) for n in pilot.app._notifications)
        assert "The 3-way merge conflicts; nothing was staged" in said and "notes/alpha.md: line 8" in said

    drive(vault.root, scenario)
    assert [p.name for p in (vault.root / ".kp" / "proposals").iterdir()] == [pid]
    assert _events(vault, pid) == []


def test_keys_filter_split_jump_preview_and_help(vault: GitVault) -> None:
    a = _reword(vault, "Second line.", "Second row.", "Alpha tweak")
    c, f = created("notes/gamma.md", "---\nkp_id: kp:01J0000000000000000000GAMA\ntitle: Gamma\n---\n# Gamma\n")
    b = make_proposal(
        vault, [c], files=f, title="New gamma note", overrides={"author": {"kind": "human", "name": "zed"}}
    )

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await pilot.press("slash", *"zed")
        await settle(pilot)
        assert [e.id for e in s.queue.visible_entries()] == [b]
        await pilot.press("escape")
        await settle(pilot)
        assert len(s.queue.visible_entries()) == 2
        await pilot.press("j")
        await until(pilot, lambda: s.queue.chosen == b and s.diff.model is not None, "the second proposal")
        assert [r.text for r in s.diff.model.rows if r.kind == "new"][-1] == "# Gamma"
        await pilot.press("k")
        await until(pilot, lambda: s.queue.chosen == a and s.diff.model is not None, "back to the first")
        rows = s.diff.row_count
        await pilot.press("s")
        assert s.diff.split and s.diff.row_count == rows - 1  # the replaced line sits beside its replacement
        await pilot.press("v")
        await until(pilot, lambda: isinstance(pilot.app.screen, PreviewScreen), "the preview")
        await pilot.press("escape", "question_mark")
        await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), "the help")
        await pilot.press("escape")
        await pilot.press("o")
        assert s.queue.sort_column == "title"

    drive(vault.root, scenario)


def test_a_long_diff_is_drawn_lazily_and_n_p_jump_between_hunks(vault: GitVault) -> None:
    body = "".join(f"line {i}\n" for i in range(1, 5001))
    text = "---\nkp_id: kp:01J00000000000000000000LNG\ntitle: Long\n---\n" + body
    vault.write("notes/long.md", text)
    vault.commit("long")
    new = text.replace("line 10\n", "line ten\n").replace("line 4000\n", "line four thousand\n")
    new = new.replace("line ", "row ", 2500)  # a large change: thousands of rows
    c, d = modify(vault, "notes/long.md", new)
    make_proposal(vault, [c], diff=d)

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(pilot, lambda: s.diff.model is not None, "the diff")
        assert s.diff.row_count > 5000
        # Only the rows on screen were turned into text.
        assert 0 < len(s.diff._cache) <= pilot.app.size.height
        stops = s.diff.model.stops
        assert len(stops) >= 3
        await pilot.press("n")
        assert s.diff.scroll_y == stops[1]
        await pilot.press("n")
        assert s.diff.scroll_y == min(stops[2], s.diff.max_scroll_y)
        await pilot.press("p")
        assert s.diff.scroll_y == stops[1]
        await pilot.press("s", "n")
        assert s.diff.split and s.diff.scroll_y > 0
        assert len(s.diff._cache) <= 3 * pilot.app.size.height

    drive(vault.root, scenario)
