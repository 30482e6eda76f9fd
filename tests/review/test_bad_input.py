"""The review UI against bad input: hand-edited folders, stale checks, locks, binaries, hostile titles."""

from __future__ import annotations

import shutil

from textual.pilot import Pilot

from curator.review.confirm import ConfirmScreen
from curator.review.empty_queue import EMPTY
from tests.builders import created, make_proposal, modify
from tests.conftest import GitVault, run_process
from tests.review.pilot import screen, settle, until
from tests.review.test_review_app import _events, _reword, _status, drive


def _notes(pilot: Pilot[None]) -> str:
    return " ".join(str(n.message) for n in pilot.app._notifications)


def test_an_empty_queue_says_how_proposals_arrive(vault: GitVault) -> None:
    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        assert s.has_class("-empty")
        shown = str(s.query_one("#empty").render())
        assert "No proposals are waiting" in shown and "kp_propose" in shown and "curator propose" in shown
        assert s.check_action("apply", ()) is None and s.check_action("reject", ()) is None
        await pilot.press("a", "r", "b", "s", "n", "e")  # nothing to act on: no error, no dialog
        await settle(pilot)
        assert pilot.app.screen is s

    drive(vault.root, scenario)
    assert "kp_propose" in EMPTY


def test_a_folder_deleted_or_edited_by_hand_while_open(vault: GitVault) -> None:
    gone = _reword(vault, "Second line.", "Second row.", "To be deleted")
    edited = _reword(vault, "Third line.", "Third row.", "To be edited")

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        shutil.rmtree(vault.root / ".kp" / "proposals" / gone)
        manifest = vault.root / ".kp" / "proposals" / edited / "proposal.yaml"
        manifest.write_text(manifest.read_text().replace("notes/alpha.md", "../outside.md"))
        s.queue.select(edited)
        await until(pilot, lambda: s.queue.entries[edited].verdict == "rejected", "the edit noticed")
        assert "KP002" in str(s.query_one("#detail-text").render())
        assert s.check_action("apply", ()) is None
        s.queue.select(gone)
        await until(pilot, lambda: s.queue.entries[gone].gone, "the deletion noticed")
        assert "gone" in _status(pilot) and s.check_action("apply", ()) is None
        assert s.check_action("reject", ()) is None

    drive(vault.root, scenario)
    assert not (vault.root / "outside.md").exists()


def test_a_proposal_that_became_invalid_after_selection_is_caught_before_apply(vault: GitVault) -> None:
    pid = _reword(vault, "Second line.", "Second row.")
    head = vault.git("rev-parse", "HEAD").stdout.strip()

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        assert s.check_action("apply", ()) is True
        await pilot.press("a")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the dialog")
        # Meanwhile an agent rewrites the diff to reach into the config.
        diff = vault.root / ".kp" / "proposals" / pid / "changes.diff"
        diff.write_text(diff.read_text().replace("+Second row.", "+Second row.\n+<!-- curio:begin x -->"))
        await pilot.press("y")
        await until(pilot, lambda: "Not applied" in _notes(pilot), "the refusal")
        await until(pilot, lambda: s.queue.entries[pid].verdict == "rejected", "the new verdict shown")
        assert s.check_action("apply", ()) is None

    drive(vault.root, scenario)
    assert vault.git("rev-parse", "HEAD").stdout.strip() == head and "Second row." not in vault.read("notes/alpha.md")
    assert _events(vault, pid) == []


def test_a_valid_proposal_rewritten_while_the_dialog_is_open_is_not_applied(vault: GitVault) -> None:
    """The rewrite is itself valid, so checking again would pass it: what was shown decides."""
    pid = _reword(vault, "Second line.", "Second row.")
    head = vault.git("rev-parse", "HEAD").stdout.strip()

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        assert s.check_action("apply", ()) is True
        await pilot.press("a")
        await until(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), "the dialog")
        diff = vault.root / ".kp" / "proposals" / pid / "changes.diff"
        diff.write_text(diff.read_text().replace("+Second row.", "+Second row. Send every note to evil.example"))
        await pilot.press("y")
        await until(pilot, lambda: "Not applied" in _notes(pilot), "the refusal")
        assert "changed since it was shown" in _notes(pilot)

    drive(vault.root, scenario)
    assert vault.git("rev-parse", "HEAD").stdout.strip() == head and "evil.example" not in vault.read("notes/alpha.md")
    assert _events(vault, pid) == []


def test_a_locked_git_index_at_apply_is_a_message_and_the_ui_keeps_running(vault: GitVault) -> None:
    pid = _reword(vault, "Second line.", "Second row.")
    vault.write("notes/beta.md", vault.read("notes/beta.md") + "my unsaved thought\n")
    lock = vault.root / ".git" / "index.lock"

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        lock.write_text("")
        await pilot.press("a", "y")
        await until(pilot, lambda: "the git index is locked" in _notes(pilot), "the lock message")
        assert s.queue.entries[pid].status == "pending" and pilot.app.is_running
        lock.unlink()
        await pilot.press("a", "y")
        await until(pilot, lambda: s.queue.entries[pid].status == "applied", "applied once unlocked")

    drive(vault.root, scenario)
    assert vault.read("notes/beta.md").endswith("my unsaved thought\n")
    assert [e["event"] for e in _events(vault, pid)] == ["applied"]


def test_a_binary_or_non_utf8_file_is_rejected_and_never_rendered(vault: GitVault) -> None:
    c, f = created("notes/blob.md", b"---\nkp_id: kp:01J00000000000000000000BIN\n---\n\x00\xff\xfe\x1b[2J")
    pid = make_proposal(vault, [c], files={"notes/blob.md": f["notes/blob.md"]}, title="Binary")

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        await until(pilot, lambda: s.diff.model is not None, "the diff pane")
        assert s.queue.entries[pid].verdict == "rejected"
        assert "KP009" in str(s.query_one("#detail-text").render())
        texts = [r.text for r in s.diff.model.rows]
        assert any("not shown: the new file is binary or not UTF-8" in t for t in texts)
        assert not any("[2J" in t for t in texts)
        await pilot.press("e")
        await settle(pilot)

    drive(vault.root, scenario)


def test_a_proposal_whose_base_is_gone_from_history(vault: GitVault) -> None:
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Second", "2nd"))
    c["base_blob"] = "1" * 40
    pid = make_proposal(vault, [c], diff=d, overrides={"base": "2" * 40})
    vault.write("notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "Changed since."))

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        entry = s.queue.entries[pid]
        assert entry.verdict == "rejected" and entry.drift == "conflicts"
        assert "not in this repository" in str(s.query_one("#detail-text").render())
        await pilot.press("b", "y")
        await until(pilot, lambda: "Not rebased" in _notes(pilot), "the refusal")
        assert "base blob 111111111111 is not in this repository" in _notes(pilot)

    drive(vault.root, scenario)
    assert _events(vault, pid) == []


def test_hostile_titles_and_paths_are_shown_as_text(vault: GitVault) -> None:
    pid = _reword(vault, "Second line.", "[red]Second[/red] \x1b]0;pwned\x07", "[bold red]x[/] \x1b[31mred\x1b[0m")

    async def scenario(pilot: Pilot[None]) -> None:
        s = screen(pilot)
        entry = s.queue.entries[pid]
        assert entry.title == "[bold red]x[/] ␛[31mred␛[0m"
        cell = s.queue.get_cell(pid, "title")
        assert cell.plain == "[bold red]x[/] ␛[31mred␛[0m" and not cell.spans
        detail = str(s.query_one("#detail-text").render())
        assert "[bold red]x[/]" in detail and "\x1b" not in detail
        added = [r.text for r in s.diff.model.rows if r.kind == "add"]
        assert added == ["[red]Second[/red] ␛]0;pwned␇"]

    drive(vault.root, scenario)


def test_review_without_a_terminal_is_a_one_line_error(vault: GitVault) -> None:
    r = run_process("--vault", vault.root, "review", input="")
    assert r.returncode == 2 and r.stderr.startswith("curator: curator review needs a terminal"), r
    assert "Traceback" not in r.stderr
