"""Kept verdicts: read back while the proposal, HEAD, the config, the work tree and Curator stay
as they were; judged again when any of them changes; kept only where no one else writes."""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from curator.validator import verdict_key, verdicts
from curator.validator.verdict import ProposalReport, validate_proposal
from tests.builders import make_proposal, modify
from tests.conftest import GitVault, Result, note

Cli = Callable[..., Result]


def _settle(vault: GitVault) -> None:
    """Every file of the vault (and its git files) last changed a minute ago: past the racy window."""
    past = time.time() - 60
    for folder, _dirs, files in os.walk(vault.root):
        for name in files:
            os.utime(os.path.join(folder, name), (past, past), follow_symlinks=False)


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the proposals the validator judged (not read back)."""
    seen: list[str] = []

    def counted(state: Any, proposal: Any) -> ProposalReport:
        seen.append(proposal.id)
        return validate_proposal(state, proposal)

    monkeypatch.setattr(verdicts, "validate_proposal", counted)
    return seen


def _proposal(vault: GitVault) -> str:
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "Second line, edited."))
    pid = make_proposal(vault, [c], diff=d)
    _settle(vault)
    return pid


def test_a_verdict_is_judged_once_and_read_back_the_same(vault: GitVault, cli: Cli, judged: list[str]) -> None:
    pid = _proposal(vault)
    first = [
        cli("--vault", vault.root, "validate", pid),
        cli("--vault", vault.root, "validate", pid, "--format", "json"),
    ]
    assert judged == [pid]
    queue = cli("--vault", vault.root, "--json", "proposals")
    again = [
        cli("--vault", vault.root, "validate", pid),
        cli("--vault", vault.root, "validate", pid, "--format", "json"),
    ]
    assert judged == [pid]  # the queue and the second validate read it back
    assert [(r.code, r.out) for r in again] == [(r.code, r.out) for r in first] and first[
        0
    ].out == f"{pid}: valid\n" + ("checked 1 proposal(s): all valid\n")
    assert json.loads(queue.out)["proposals"][0]["verdict"] == "valid"
    kept = list((Path(os.environ["XDG_CACHE_HOME"]) / "curator").glob("*/verdicts/*.json"))
    assert [p.name for p in kept] == [f"{pid}.json"]
    assert stat.S_IMODE(kept[0].stat().st_mode) == 0o600 and stat.S_IMODE(kept[0].parent.stat().st_mode) == 0o700
    assert not (vault.root / ".kp" / "verdicts").exists() and "verdicts" not in vault.status()


def _edit_proposal(vault: GitVault, pid: str) -> None:
    manifest = vault.root / ".kp" / "proposals" / pid / "proposal.yaml"
    manifest.write_text(manifest.read_text().replace("A proposal", "A proposal, retitled"))


def _add_event(vault: GitVault, pid: str) -> None:
    line = {"at": "2026-11-30T10:00:00Z", "event": "changes-requested", "by": "human:x", "reason": "split it"}
    (vault.root / ".kp" / "proposals" / pid / "events.jsonl").write_text(json.dumps(line) + "\n")


def _move_head(vault: GitVault, pid: str) -> None:
    vault.write("notes/gamma.md", "---\nkp_id: kp:01J0000000000000000000GAMM\n---\n# Gamma\n")
    vault.git("add", "notes/gamma.md")
    vault.git("commit", "-q", "--no-verify", "-m", "gamma")


def _edit_config(vault: GitVault, pid: str) -> None:
    config = vault.root / ".kp" / "config.yaml"
    config.write_text(config.read_text().replace("max_file_bytes: 1048576", "max_file_bytes: 20"))


def _edit_note(vault: GitVault, pid: str) -> None:
    vault.write("notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "Second line, mine."))


def _new_note(vault: GitVault, pid: str) -> None:
    vault.write("notes/other.md", "an untracked note, nothing to do with the proposal\n")


def _new_code(vault: GitVault, pid: str) -> None:
    verdict_key.code.cache_clear()
    verdict_key.code = lambda: "another release"  # type: ignore[assignment]  # undone by the fixture


@pytest.fixture(autouse=True)
def _keep_code() -> Any:
    code = verdict_key.code
    yield
    verdict_key.code = code  # type: ignore[assignment]


def test_an_edited_source_file_is_another_curator(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "paths.py").write_text("A = 1\n")
    before = verdict_key.sources(str(tmp_path))
    assert verdict_key.sources(str(tmp_path)) == before
    (tmp_path / "rules" / "paths.py").write_text("A = 2\n")
    os.utime(tmp_path / "rules" / "paths.py", ns=(1, 1))
    assert verdict_key.sources(str(tmp_path)) != before


@pytest.mark.parametrize(
    ("change", "verdict_after"),
    [
        (_edit_proposal, "valid"),
        (_add_event, "rejected"),  # by hand: a forged status
        (_move_head, "valid"),
        (_edit_config, "rejected"),
        (_edit_note, "rejected"),
        (_new_note, "valid"),
        (_new_code, "valid"),
    ],
    ids=["proposal folder", "events", "HEAD", "config", "a note it changes", "another file", "Curator itself"],
)
def test_a_change_of_any_key_judges_again(
    vault: GitVault, cli: Cli, judged: list[str], change: Callable[[GitVault, str], None], verdict_after: str
) -> None:
    pid = _proposal(vault)
    assert cli("--vault", vault.root, "validate", pid).code == 0
    assert cli("--vault", vault.root, "validate", pid).code == 0
    assert judged == [pid]
    change(vault, pid)
    r = cli("--vault", vault.root, "--json", "validate", pid)
    assert judged == [pid, pid], r
    assert ("valid" if json.loads(r.out)["proposals"][0]["ok"] else "rejected") == verdict_after, r.out


def test_a_file_changed_within_the_racy_window_is_not_kept(vault: GitVault, cli: Cli, judged: list[str]) -> None:
    pid = _proposal(vault)
    vault.write("notes/beta.md", vault.read("notes/beta.md") + "just now\n")  # its time is this second's
    cli("--vault", vault.root, "validate", pid)
    cli("--vault", vault.root, "validate", pid)
    assert judged == [pid, pid]


def test_a_work_tree_changed_while_judging_is_not_kept(
    vault: GitVault, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid = _proposal(vault)
    seen: list[str] = []

    def meanwhile(state: Any, proposal: Any) -> ProposalReport:
        seen.append(proposal.id)
        report = validate_proposal(state, proposal)
        if len(seen) == 1:  # someone saves a note while the proposal is judged
            vault.write("notes/beta.md", vault.read("notes/beta.md") + "saved meanwhile\n")
            past = time.time() - 30
            os.utime(vault.root / "notes" / "beta.md", (past, past))
        return report

    monkeypatch.setattr(verdicts, "validate_proposal", meanwhile)
    cli("--vault", vault.root, "validate", pid)
    cli("--vault", vault.root, "validate", pid)
    assert seen == [pid, pid]


def test_a_kept_verdict_that_does_not_read_or_is_not_ours_is_judged_again(
    vault: GitVault, cli: Cli, judged: list[str]
) -> None:
    pid = _proposal(vault)
    first = cli("--vault", vault.root, "validate", pid)
    (kept,) = (Path(os.environ["XDG_CACHE_HOME"]) / "curator").glob("*/verdicts/*.json")
    data = json.loads(kept.read_text())
    data["verdict"]["findings"] = [{"code": "KP001", "path": 1, "message": None}]  # not what Curator writes
    kept.write_text(json.dumps(data))
    assert cli("--vault", vault.root, "validate", pid).out == first.out and judged == [pid, pid]
    kept.write_text("{")
    assert cli("--vault", vault.root, "validate", pid).out == first.out and judged == [pid, pid, pid]
    kept.unlink()
    kept.symlink_to(vault.root / "notes" / "alpha.md")  # never followed
    assert cli("--vault", vault.root, "validate", pid).out == first.out and judged == [pid, pid, pid, pid]


@pytest.mark.parametrize(
    ("field", "spelled"),
    [("status", "approved"), ("status", "Pending"), ("drift", "drifting"), ("requested", "changes requested")],
)
def test_a_kept_verdict_spelling_a_state_curator_never_writes_is_judged_again(
    vault: GitVault, cli: Cli, judged: list[str], field: str, spelled: str
) -> None:
    pid = _proposal(vault)
    first = cli("--vault", vault.root, "validate", pid, "--format", "json")
    (kept,) = (Path(os.environ["XDG_CACHE_HOME"]) / "curator").glob("*/verdicts/*.json")
    data = json.loads(kept.read_text())
    if field == "requested":
        data["verdict"]["requested"] = {"at": "2026-11-30T10:00:00Z", "event": spelled, "by": "human:x", "reason": "r"}
    else:
        data["verdict"][field] = spelled
    kept.write_text(json.dumps(data))
    assert cli("--vault", vault.root, "validate", pid, "--format", "json").out == first.out
    assert judged == [pid, pid]


def test_an_index_folder_others_may_write_keeps_nothing(
    vault: GitVault, cli: Cli, judged: list[str], tmp_path: Path
) -> None:
    shared = tmp_path / "shared-index"
    shared.mkdir()
    shared.chmod(0o777)
    pid = _proposal(vault)
    for _ in range(2):
        assert cli("--vault", vault.root, "--index-dir", shared, "validate", pid).code == 0
    assert judged == [pid, pid] and not (shared / "verdicts").exists()


def test_the_staged_view_and_against_keep_nothing(vault: GitVault, cli: Cli, judged: list[str]) -> None:
    pid = _proposal(vault)
    head = vault.git("rev-parse", "HEAD").stdout.strip()
    for _ in range(2):
        cli("--vault", vault.root, "validate", pid, "--against", head)
    assert judged == [pid, pid]
    assert not list((Path(os.environ["XDG_CACHE_HOME"]) / "curator").glob("*/verdicts/*.json"))


@pytest.fixture
def rules_run(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The proposals every rule ran on (once each)."""
    from curator.validator import verdict as verdict_mod

    ran: list[str] = []
    first, *rest = verdict_mod.RULES

    def counted(subject: Any, state: Any) -> Any:
        ran.append(subject.proposal.id)
        return first(subject, state)

    monkeypatch.setattr(verdict_mod, "RULES", (counted, *rest))
    return ran


def test_apply_takes_the_kept_verdict_and_still_reads_the_proposal_whole(
    vault: GitVault, cli: Cli, rules_run: list[str]
) -> None:
    pid = _proposal(vault)
    assert cli("--vault", vault.root, "validate", pid).code == 0 and rules_run == [pid]
    done = cli("--vault", vault.root, "apply", pid, "--yes")
    assert done.code == 0, done
    assert rules_run == [pid]  # the rules were not run again
    assert "Second line, edited." in vault.read("notes/alpha.md")
    assert f"Kp-Proposal: {pid}" in vault.git("log", "-1", "--format=%B").stdout


@pytest.mark.parametrize("same_size_and_time", [False, True])
def test_apply_judges_again_a_proposal_whose_note_changed_since_its_verdict(
    vault: GitVault, cli: Cli, rules_run: list[str], same_size_and_time: bool
) -> None:
    pid = _proposal(vault)
    assert cli("--vault", vault.root, "validate", pid).code == 0
    path = vault.root / "notes" / "alpha.md"
    before = path.stat()
    # The line the proposal changes is changed by hand meanwhile: the proposal conflicts now.
    path.write_text(vault.read("notes/alpha.md").replace("Second line.", "Second lime."))
    if same_size_and_time:  # as an editor that keeps times, or a clock that did not move, would
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    done = cli("--vault", vault.root, "apply", pid, "--yes")
    assert done.code == 1 and "KP005" in done.err, done
    assert rules_run == [pid, pid]
    assert "Second lime." in vault.read("notes/alpha.md")


def _kept_files() -> list[Path]:
    return sorted((Path(os.environ["XDG_CACHE_HOME"]) / "curator").glob("*/verdicts/*.json"))


def _adopted(vault: GitVault, cli: Cli) -> str:
    vault.write("notes/gamma.md", "# Gamma\n\nA note without a kp_id.\n")
    vault.commit("gamma")
    _settle(vault)
    pid = json.loads(cli("--vault", vault.root, "--json", "adopt").out)["staged"]
    assert pid
    return str(pid)


def test_a_proposal_s_verdict_is_kept_as_it_is_staged_and_read_back_as_judged(
    vault: GitVault, cli: Cli, judged: list[str]
) -> None:
    pid = _adopted(vault, cli)
    assert [p.stem for p in _kept_files()] == [pid]
    listed = cli("--vault", vault.root, "--json", "proposals")
    assert judged == [] and pid in listed.out
    for p in _kept_files():
        p.unlink()
    assert cli("--vault", vault.root, "--json", "proposals").out == listed.out and judged == [pid]


@pytest.mark.parametrize("then", ["a note edited", "the proposal edited", "another proposal staged", "HEAD moved"])
def test_a_verdict_kept_at_staging_is_judged_again_when_anything_changed_since(
    vault: GitVault, cli: Cli, judged: list[str], then: str
) -> None:
    pid = _adopted(vault, cli)
    if then == "a note edited":
        vault.write("notes/beta.md", vault.read("notes/beta.md") + "More.\n")
    elif then == "the proposal edited":
        manifest = vault.root / ".kp" / "proposals" / pid / "proposal.yaml"
        manifest.write_text(manifest.read_text().replace("Adopt 1 note", "Adopt 1 mote"))
    elif then == "another proposal staged":
        _proposal(vault)
    else:
        vault.write("notes/delta.md", note("kp:01J0000000000000000000DELT", "Delta"))
        vault.commit("delta")
    cli("--vault", vault.root, "--json", "proposals")
    assert pid in judged


def test_a_proposal_staged_over_restored_edits_keeps_no_verdict_from_staging(vault: GitVault, cli: Cli) -> None:
    """``curator propose`` moves the person's edits out of the work tree: the state it judged had
    them restored in front of it, not the work tree a later judge meets."""
    vault.write("notes/alpha.md", vault.read("notes/alpha.md").replace("Third line.", "Third line, edited."))
    _settle(vault)
    assert cli("--vault", vault.root, "propose", "--title", "edit").code == 0
    assert _kept_files() == []
