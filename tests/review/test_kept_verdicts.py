"""The review UI and the verdicts ``curator proposals`` keeps: a verdict kept of the same proposal,
HEAD, config and work tree is the pre-flight's result at once (no rule runs again), and one kept
of anything else is never shown.

The validator is counted where ``validator.verdicts`` calls it; the pre-flight's report (for the
diff) is held at a gate, so what the reviewer sees from the kept verdict alone can be looked at.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from curator.review import entries
from curator.review.confirm import ConfirmScreen
from curator.validator import verdicts
from curator.validator.verdict import ProposalReport, validate_proposal
from tests.conftest import GitVault, Result, note
from tests.review.pilot import screen
from tests.review.test_preflight import Gate, _reword, _run, _status, _until
from tests.validator.test_verdicts import _settle

Cli = Callable[..., Result]


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the proposals the validator judged through ``validator.verdicts`` (not read back)."""
    seen: list[str] = []

    def counted(state: Any, proposal: Any, *rest: Any) -> ProposalReport:
        seen.append(proposal.id)
        return validate_proposal(state, proposal, *rest)

    monkeypatch.setattr(verdicts, "validate_proposal", counted)
    return seen


@pytest.fixture
def shown_kept(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the proposals whose row took a kept verdict."""
    seen: list[str] = []
    fill_kept = entries.fill_kept

    def counted(entry: entries.Entry, kept: verdicts.Verdict, digest: str | None) -> entries.Entry:
        seen.append(kept.id)
        return fill_kept(entry, kept, digest)

    monkeypatch.setattr(entries, "fill_kept", counted)
    return seen


def _kept_by_proposals(vault: GitVault, cli: Cli, judged: list[str]) -> str:
    pid = _reword(vault, "Second line.", "Second row.", "Reword the second line", 1)
    _settle(vault)  # nothing changed within git's racy window: a verdict may be kept
    assert cli("--vault", vault.root, "proposals").code == 0
    assert judged == [pid]  # judged once, and kept
    judged.clear()
    return pid


def test_the_verdict_curator_proposals_kept_is_shown_at_once_and_a_applies_that_folder(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch, cli: Cli, judged: list[str], shown_kept: list[str]
) -> None:
    pid = _kept_by_proposals(vault, cli, judged)
    gate = Gate(monkeypatch, queue_too=True)  # no report for the diff: only the kept verdict

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await _until(
            pilot,
            lambda: (
                (e := s.queue.entries.get(pid)) is not None and e.kept is not None and pid not in s.preflight.checking
            ),
            "kept",
        )
        entry = s.queue.entries[pid]
        assert entry.report is None and entry.verdict == "valid" and entry.drift == "clean"
        assert "Valid · clean" in _status(pilot) and s.check_action("apply", ()) is True
        assert "kept from before" in str(s.query_one("#detail-text").render())
        assert judged == [] and shown_kept == [pid]  # no rule ran in the UI
        # The diff from the proposal's own files, while the report for it is made.
        await _until(pilot, lambda: s.diff.model is not None and s.diff.of == pid, "the stored diff")
        texts = [r.text for r in s.diff.model.rows]
        assert "Second line." in texts and "Second row." in texts
        # Hunks are marked on the report's diff, which is not in yet.
        assert s.check_action("toggle_hunk", ()) is None
        await pilot.press("a")
        await _until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the confirmation")
        assert "notes/alpha.md" in str(pilot.app.screen.query_one("#confirm-body").render())
        await pilot.press("y")
        await _until(pilot, lambda: (e := s.queue.entries.get(pid)) is not None and e.status == "applied", "applied")
        assert s.queue.entries[pid].report is not None  # judged again after the decision

    _run(vault.root, scenario, gate, keep_verdicts=True)
    assert "Second row." in vault.read("notes/alpha.md")


def _edit_work_tree(vault: GitVault) -> None:
    vault.write("notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "Second LINE."))


def _new_head(vault: GitVault) -> None:
    vault.write("notes/gamma.md", note("kp:01J0000000000000000000GAMM", "Gamma", "Gamma text.\n"))
    vault.commit("gamma")


def _producer_owns_notes(vault: GitVault) -> None:
    config = vault.read(".kp/config.yaml")
    vault.write(".kp/config.yaml", config.replace('paths: [".curio/**"]', 'paths: [".curio/**", "notes/**"]'))


def _rewritten_proposal(vault: GitVault) -> None:
    manifest = vault.root / ".kp" / "proposals" / f"01M8PN{1:020d}" / "proposal.yaml"
    manifest.write_text(manifest.read_text().replace("rationale: because", "rationale: because, again"))


@pytest.mark.parametrize(
    ("change", "verdict", "drift"),
    [
        (_edit_work_tree, "rejected", "conflicts"),
        (_new_head, "valid", "clean"),
        (_producer_owns_notes, "rejected", "clean"),
        (_rewritten_proposal, "valid", "clean"),
    ],
    ids=["work tree", "HEAD", "config", "proposal"],
)
def test_a_verdict_kept_before_a_change_is_never_shown(
    vault: GitVault,
    monkeypatch: pytest.MonkeyPatch,
    cli: Cli,
    judged: list[str],
    shown_kept: list[str],
    change: Callable[[GitVault], None],
    verdict: str,
    drift: str,
) -> None:
    pid = _kept_by_proposals(vault, cli, judged)
    change(vault)
    _settle(vault)  # past the racy window too: only the key tells the change
    gate = Gate(monkeypatch, queue_too=True)
    gate.open.set()

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await _until(
            pilot,
            lambda: (
                (e := s.queue.entries.get(pid)) is not None and e.report is not None and pid not in s.preflight.checking
            ),
            "its report",
        )
        entry = s.queue.entries[pid]
        assert (entry.verdict, entry.drift) == (verdict, drift)
        assert judged == [pid] and shown_kept == []

    _run(vault.root, scenario, gate, keep_verdicts=True)


def test_a_folder_rewritten_after_its_kept_verdict_is_shown_is_not_applied(
    vault: GitVault, monkeypatch: pytest.MonkeyPatch, cli: Cli, judged: list[str]
) -> None:
    pid = _kept_by_proposals(vault, cli, judged)
    folder = Path(vault.root) / ".kp" / "proposals" / pid
    gate = Gate(monkeypatch, queue_too=True)

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await _until(
            pilot,
            lambda: (
                (e := s.queue.entries.get(pid)) is not None and e.kept is not None and pid not in s.preflight.checking
            ),
            "kept",
        )
        # An agent rewrites the change while the reviewer reads the verdict kept of the old one.
        diff = folder / "changes.diff"
        diff.write_text(diff.read_text().replace("+Second row.", "+Second rewritten."))
        await pilot.press("a")
        await _until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the confirmation")
        await pilot.press("y")
        await _until(pilot, lambda: bool(pilot.app._notifications), "a notification")
        said = " ".join(str(n.message) for n in pilot.app._notifications)
        assert "changed since it was shown" in said, said
        assert s.queue.entries[pid].status == "pending"

    _run(vault.root, scenario, gate, keep_verdicts=True)
    assert "Second line." in vault.read("notes/alpha.md") and "Second r" not in vault.read("notes/alpha.md")
