"""While the pre-flight runs: the rows and the diff come from the proposals' own files, `a` waits.

The validator is held at a gate the test opens, so what the reviewer sees before
its result is in can be looked at (the waits are on conditions, never on time).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from curator.operations import decisions
from curator.review import entries, stored
from curator.review.confirm import ConfirmScreen
from curator.review.entries import CHECKING
from curator.review.queue_screen import QueueScreen
from curator.vault.discover import find_vault
from tests.builders import created, make_proposal, modify
from tests.conftest import GitVault
from tests.review.pilot import review_app, screen, settle, until


class Gate:
    """Holds ``entries.check`` (the pre-flight) and, when asked, ``entries.check_all`` (the queue's)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, queue_too: bool) -> None:
        self.open = threading.Event()
        check, check_all = entries.check, entries.check_all

        def held_check(*args: Any) -> Any:
            self.open.wait(30)
            return check(*args)

        def held_all(*args: Any, **kwargs: Any) -> Iterator[Any]:
            self.open.wait(30)
            yield from check_all(*args, **kwargs)

        monkeypatch.setattr(entries, "check", held_check)
        if queue_too:
            monkeypatch.setattr(entries, "check_all", held_all)


async def _until(pilot: Pilot[None], condition: Callable[[], bool], what: str) -> None:
    """Like ``until``, for while a worker is held: handles messages instead of waiting for workers."""
    for _ in range(2000):
        if condition():
            return
        await pilot.pause()
    raise AssertionError(f"never happened: {what}")


def _run(root: Path, scenario: Callable[[Pilot[None]], Any], gate: Gate, *, keep_verdicts: bool = False) -> None:
    async def main() -> None:
        async with review_app(root, keep_verdicts=keep_verdicts).run_test(size=(110, 32)) as pilot:
            try:
                await _until(pilot, lambda: isinstance(pilot.app.screen, QueueScreen), "the queue screen")
                await scenario(pilot)
            finally:
                gate.open.set()
            await settle(pilot)

    asyncio.run(main())


def _status(pilot: Pilot[None]) -> str:
    return str(screen(pilot).query_one("#status").render())


def _reword(v: GitVault, old: str, new: str, title: str, n: int) -> str:
    c, d = modify(v, "notes/alpha.md", v.read("notes/alpha.md").replace(old, new))
    return make_proposal(v, [c], diff=d, title=title, ulid=f"01M8PN{n:020d}")


def test_rows_and_the_stored_diff_show_before_any_check_and_apply_waits(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid = _reword(vault, "Second line.", "Second row.", "Reword the second line", 1)
    gate = Gate(monkeypatch, queue_too=True)

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await _until(pilot, lambda: s.diff.model is not None and s.diff.of == pid, "the stored diff")
        entry = s.queue.entries[pid]
        # The row comes from the manifest; no verdict yet.
        assert (entry.title, entry.author, entry.files, entry.verdict) == (
            "Reword the second line",
            "agent:tester",
            1,
            CHECKING,
        )
        assert entry.report is None
        texts = [r.text for r in s.diff.model.rows]
        assert "Second line." in texts and "Second row." in texts
        assert s.check_action("apply", ()) is None
        assert "Pre-flight" in _status(pilot)
        await pilot.press("a")
        await pilot.pause()
        assert not isinstance(pilot.app.screen, ConfirmScreen)
        gate.open.set()
        await until(
            pilot, lambda: pid not in s.preflight.checking and s.queue.entries[pid].report is not None, "the check"
        )
        assert s.check_action("apply", ()) is True
        assert "Valid · clean" in _status(pilot)

    _run(vault.root, scenario, gate)


def test_a_checked_proposal_shows_its_diff_at_once_but_apply_waits_for_a_fresh_preflight(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _reword(vault, "Second line.", "Second row.", "First", 1)
    second = _reword(vault, "Third line.", "Third row.", "Second", 2)
    gate = Gate(monkeypatch, queue_too=False)
    gate.open.set()

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(pilot, lambda: all(e.report is not None for e in s.queue.entries.values()), "the queue check")
        # The queue's check may finish before the first row is highlighted: wait for both.
        await until(pilot, lambda: s.queue.chosen == first and s.check_action("apply", ()) is True, "the first row")
        gate.open.clear()  # the next pre-flight is held
        await pilot.press("j")
        await _until(pilot, lambda: s.queue.chosen == second and s.diff.of == second, "the second diff")
        assert "Third row." in [r.text for r in s.diff.model.rows]
        # Its verdict is in from the queue's check, but the vault may have changed since.
        assert s.queue.entries[second].apply_blocker is None
        assert s.check_action("apply", ()) is None and s.check_action("rebase", ()) is None
        await pilot.press("a")
        await pilot.pause()
        assert not isinstance(pilot.app.screen, ConfirmScreen)
        gate.open.set()
        await until(pilot, lambda: second not in s.preflight.checking, "the pre-flight")
        assert s.check_action("apply", ()) is True

    _run(vault.root, scenario, gate)


def test_a_proposal_decided_in_its_folder_stays_out_of_view_until_checked(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch
) -> None:
    decided = _reword(vault, "Second line.", "Second row.", "Decided", 1)
    decisions.reject(find_vault(str(vault.root)), decided, "no", by="human:tester")
    pending = _reword(vault, "Third line.", "Third row.", "Pending", 2)
    # A pending proposal with an uncommitted events.jsonl of its own: held back, then shown.
    forged = _reword(vault, "First line", "1st line", "Forged", 3)
    (vault.root / ".kp" / "proposals" / forged / "events.jsonl").write_text("{}\n")
    gate = Gate(monkeypatch, queue_too=True)

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await _until(pilot, lambda: s.queue.row_count > 0, "the first rows")
        assert [e.id for e in s.queue.visible_entries()] == [pending]
        gate.open.set()
        await until(pilot, lambda: all(e.checked for e in s.queue.entries.values()), "the queue check")
        assert [e.id for e in s.queue.visible_entries()] == [pending, forged]
        assert s.queue.entries[decided].status == "rejected"

    _run(vault.root, scenario, gate)


def test_the_stored_diff_never_reads_through_a_symlink(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    (outside / "notes").mkdir(parents=True)
    (outside / "notes" / "new.md").write_text("SECRET from outside the proposal\n")
    (outside / "proposal.yaml").write_text("title: SECRET title\n")
    c, f = created("notes/new.md", "---\nkp_id: kp:01J00000000000000000000NEW\n---\n# New\n")
    pid = make_proposal(vault, [c], files=f, title="Create a note", ulid="01M8PN00000000000000000001")
    folder = vault.root / ".kp" / "proposals" / pid
    # files/notes is a symlink to a folder outside the proposal.
    (folder / "files" / "notes" / "new.md").unlink()
    (folder / "files" / "notes").rmdir()
    (folder / "files" / "notes").symlink_to(outside / "notes")
    # A second proposal whose manifest is a symlink.
    other = make_proposal(vault, [c], files=f, title="Other", ulid="01M8PN00000000000000000002")
    (vault.root / ".kp" / "proposals" / other / "proposal.yaml").unlink()
    (vault.root / ".kp" / "proposals" / other / "proposal.yaml").symlink_to(outside / "proposal.yaml")
    gate = Gate(monkeypatch, queue_too=True)

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await _until(pilot, lambda: s.diff.model is not None and s.diff.of == pid, "the stored diff")
        texts = [r.text for r in s.diff.model.rows]
        assert any("not shown: the new file is missing from files/" in t for t in texts)
        assert not any("SECRET" in t for t in texts)
        assert s.queue.entries[other].title == ""  # shown by its id, not the linked file's title
        assert not any("SECRET" in (e.title or "") for e in s.queue.entries.values())

    _run(vault.root, scenario, gate)


def test_the_queue_leaves_a_proposal_to_its_running_preflight(vault: GitVault, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _reword(vault, "Second line.", "Second row.", "First", 1)
    second = _reword(vault, "Third line.", "Third row.", "Second", 2)
    from curator.validator import verdict as validator

    seen: list[str] = []
    validate = validator.validate_proposal

    def counted(state: Any, proposal: Any) -> Any:
        seen.append(proposal.id)
        return validate(state, proposal)

    monkeypatch.setattr(validator, "validate_proposal", counted)

    async def main() -> None:
        async with review_app(vault.root).run_test(size=(110, 32)) as pilot:
            await settle(pilot)
            s = screen(pilot)
            assert all(e.report is not None for e in s.queue.entries.values())
            assert s.queue.chosen == first and first not in s.preflight.checking

    asyncio.run(main())
    # The highlighted one is checked once (its pre-flight), not by the queue's worker too.
    assert sorted(seen) == [first, second]


def test_a_proposal_of_thousands_of_files_lists_the_first_ones_and_says_how_many(vault: GitVault) -> None:
    from curator.proposals.manifest import Change
    from curator.proposals.store import ProposalDir
    from curator.review.detail import SHOWN, describe
    from curator.review.entries import Entry, fill
    from curator.validator.finding import Finding
    from curator.validator.subject import ChangeView, Subject
    from curator.validator.verdict import ProposalReport

    views = [ChangeView(Change(op="modify", path=f"notes/n{i}.md", base_blob="0" * 40)) for i in range(3000)]
    subject = Subject(ProposalDir("01M8PN00000000000000000001", ".kp/proposals/x"), changes=views)
    findings = [Finding("KP005", f"notes/n{i}.md", "drifted", 1) for i in range(SHOWN + 5)]
    report = ProposalReport("01M8PN00000000000000000001", findings, False, "pending", "clean", subject)
    text = describe(fill(Entry(report.id), report)).plain
    assert "Files (3,000)" in text and f"… and {3000 - SHOWN:,} more" in text
    assert "notes/n0.md" in text and f"notes/n{SHOWN}.md" not in text
    assert "Findings (205)" in text and "… and 5 more" in text
    assert len(text.splitlines()) < 3 * SHOWN + 50


def test_a_stored_diff_of_many_files_is_read_a_screenful_first(vault: GitVault) -> None:
    from curator.diffview.model import build
    from curator.diffview.rows import NOTE
    from curator.settings import load

    changes, sections = [], []
    for name in ("alpha", "beta", "gamma"):
        path = f"notes/{name}.md"
        if not (vault.root / path).exists():
            continue
        c, d = modify(vault, path, vault.read(path) + "\nOne more line.\n")
        changes.append(c)
        sections.append(d)
    assert len(changes) >= 2
    pid = make_proposal(vault, changes, diff="".join(sections), title="Many")
    v = find_vault(str(vault.root))
    settings = load(v.root)
    first = stored.stored_changes(v, settings, pid, 1)
    assert first is not None
    views, more = first
    assert [x.change.path for x in views] == [changes[0]["path"]] and more == len(changes) - 1
    model = build(views, (), more=more)
    assert model.rows[len(model.rows) - 1].kind == NOTE and f"{more:,} more files" in model.rows[-1].text
    whole = stored.stored_changes(v, settings, pid)
    assert whole is not None and [x.change.path for x in whole[0]] == [c["path"] for c in changes] and whole[1] == 0
