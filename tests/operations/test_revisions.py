"""Revisions from the command line: `curator apply --only/--hunks` and `curator request-changes`."""

from __future__ import annotations

import json
import subprocess

import pytest
from ruamel.yaml import YAML

from tests.builders import make_proposal, modify
from tests.conftest import GitVault, note, run_process

LONG = "\n".join(f"Line {n}." for n in range(1, 21)) + "\n"


def _two_hunks(v: GitVault) -> str:
    """A proposal changing notes/long.md in two places far apart (two hunks) and notes/beta.md."""
    v.write("notes/long.md", note("kp:01J0000000000000000000LONG", "Long", LONG))
    v.commit("long")
    text = v.read("notes/long.md")
    c1, d1 = modify(v, "notes/long.md", text.replace("Line 2.", "Line two.").replace("Line 19.", "Line nineteen."))
    c2, d2 = modify(v, "notes/beta.md", v.read("notes/beta.md").replace("Beta text.", "Beta words."))
    return make_proposal(v, [c1, c2], diff=d1 + d2, title="Spell out two numbers")


def _events(v: GitVault, pid: str) -> list[dict[str, str]]:
    path = v.root / ".kp" / "proposals" / pid / "events.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def _manifest(v: GitVault, pid: str) -> dict[str, object]:
    data = YAML(typ="safe").load((v.root / ".kp" / "proposals" / pid / "proposal.yaml").read_text())
    assert isinstance(data, dict)
    return data


def _ids(v: GitVault) -> set[str]:
    return {p.name for p in (v.root / ".kp" / "proposals").iterdir()}


def _commit(v: GitVault) -> None:
    v.git("add", "-A")
    v.git("commit", "-qm", "stage the proposal")


def test_hunks_keeps_one_hunk_of_two_as_a_revision_that_supersedes_the_old(vault: GitVault) -> None:
    old = _two_hunks(vault)
    _commit(vault)
    before = vault.git("rev-parse", "HEAD").stdout.strip()

    done = run_process("--vault", vault.root, "--json", "apply", old, "--hunks", "notes/long.md:2", "--yes")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    new = out["id"]
    assert new != old and out["revision_of"] == old and out["paths"] == ["notes/long.md"]

    # The commit holds the chosen hunk only: line 19 changed, line 2 and beta as they were.
    text = vault.read("notes/long.md")
    assert "Line nineteen." in text and "Line 2.\n" in text and "Line two." not in text
    assert vault.read("notes/beta.md").count("Beta text.") == 1
    changed = vault.git("diff", "--name-only", "HEAD~1", "HEAD").stdout.split()
    assert "notes/long.md" in changed and "notes/beta.md" not in changed
    shown = vault.git("show", "HEAD", "--", "notes/long.md").stdout
    assert "+Line nineteen." in shown and "Line two." not in shown
    assert f"Kp-Proposal: {new}" in vault.git("log", "-1", "--format=%B").stdout

    # The new revision supersedes the old; the author stays, the reviewer is recorded.
    m = _manifest(vault, new)
    assert m["supersedes"] == old
    assert m["author"] == {"kind": "agent", "name": "tester"}
    assert isinstance(m["revised_by"], dict) and m["revised_by"]["kind"] == "human"
    assert [c["path"] for c in m["changes"]] == ["notes/long.md"]  # type: ignore[union-attr, index]
    old_events = _events(vault, old)
    assert [e["event"] for e in old_events] == ["superseded"]
    assert old_events[0]["reason"] == f"partly accepted into {new}"
    assert [e["event"] for e in _events(vault, new)] == ["applied"]
    # Two decision commits (the old one superseded, the revision applied), and CI holds both.
    assert vault.git("rev-list", "--count", f"{before}..HEAD").stdout.strip() == "2"
    ci = run_process("--vault", vault.root, "validate", "--commits", f"{before}..HEAD")
    assert ci.returncode == 0, ci.stdout + ci.stderr
    assert vault.git("status", "--porcelain").stdout == ""


def test_only_keeps_whole_files_and_the_diff_numbers_the_hunks(vault: GitVault) -> None:
    old = _two_hunks(vault)
    shown = run_process("--vault", vault.root, "validate", old)
    assert shown.returncode == 0, shown.stdout
    done = run_process("--vault", vault.root, "apply", old, "--only", "notes/beta.md", "--yes")
    assert done.returncode == 0, done.stderr
    assert "a new revision of" in done.stdout and "superseded" in done.stdout
    assert "Beta words." in vault.read("notes/beta.md")
    assert "Line two." not in vault.read("notes/long.md")
    assert [e["event"] for e in _events(vault, old)] == ["superseded"]
    # What was left out is said, with where it is kept and the command that brings it back.
    left = [line for line in done.stdout.splitlines() if "left out: notes/long.md (modify)" in line]
    assert len(left) == 1, done.stdout
    back = left[0].split("to have it in your work tree: ", 1)[1]
    restored = subprocess.run(back, shell=True, cwd=vault.root, capture_output=True, text=True)
    assert restored.returncode == 0, restored.stderr
    assert "Line two." in vault.read("notes/long.md") and vault.git("status", "--porcelain").stdout.split() == [
        "M",
        "notes/long.md",
    ]


def test_a_selection_of_every_hunk_applies_the_proposal_itself(vault: GitVault) -> None:
    old = _two_hunks(vault)
    done = run_process(
        "--vault", vault.root, "apply", old, "--hunks", "notes/long.md:1-2", "--only", "notes/beta.md", "--yes"
    )
    assert done.returncode == 0, done.stderr
    assert "the proposal itself was applied" in done.stdout
    assert [e["event"] for e in _events(vault, old)] == ["applied"]
    assert _ids(vault) == {old}


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--only", "../outside.md"], "is not a vault path"),
        (["--only", "notes/alpha.md"], "is not a file this proposal changes"),
        (["--only", "/etc/passwd"], "is not a vault path"),
        (["--hunks", "notes/../notes/long.md:1"], "is not a vault path"),
        (["--hunks", "notes/long.md:3"], "has 2 hunks; there is no hunk 3"),
        (["--hunks", "notes/long.md:0"], "numbered from 1"),
        (["--hunks", "notes/long.md:2-1"], "numbered from 1"),
        (["--hunks", "notes/long.md:one"], "is not a hunk number"),
        (["--hunks", "notes/long.md"], "expected PATH:N"),
        (["--hunks", "notes/long.md:1-99999999999"], "larger than any diff"),
        (["--hunks", "notes/gone.md:1"], "is not a file this proposal changes"),
    ],
)
def test_hostile_selections_are_one_line_errors_and_change_nothing(
    vault: GitVault, args: list[str], says: str
) -> None:
    old = _two_hunks(vault)
    head = vault.git("rev-parse", "HEAD").stdout.strip()
    done = run_process("--vault", vault.root, "apply", old, *args, "--yes")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert says in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert vault.git("rev-parse", "HEAD").stdout.strip() == head
    assert _ids(vault) == {old} and _events(vault, old) == []


def test_a_selection_of_a_decided_or_missing_proposal_is_refused(vault: GitVault) -> None:
    old = _two_hunks(vault)
    assert run_process("--vault", vault.root, "reject", old, "--reason", "no").returncode == 0
    done = run_process("--vault", vault.root, "apply", old, "--only", "notes/beta.md", "--yes")
    assert done.returncode == 1 and "already rejected" in done.stderr
    missing = run_process("--vault", vault.root, "apply", "01J00000000000000000000000", "--only", "x.md", "--yes")
    assert missing.returncode != 0 and "no proposal" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1


def test_request_changes_records_the_reason_and_the_proposal_stays_pending(vault: GitVault) -> None:
    c, d = modify(vault, "notes/beta.md", vault.read("notes/beta.md").replace("Beta text.", "Beta words."))
    pid = make_proposal(vault, [c], diff=d, title="Reword beta")
    head = vault.git("rev-parse", "HEAD").stdout.strip()
    done = run_process("--vault", vault.root, "request-changes", pid, "--reason", "say  why,\nand cite it")
    assert done.returncode == 0, done.stderr
    assert "changes requested" in done.stdout
    events = _events(vault, pid)
    assert [(e["event"], e["reason"]) for e in events] == [("changes-requested", "say why, and cite it")]
    message = vault.git("log", "-1", "--format=%B").stdout
    assert f"Kp-Proposal: {pid}" in message and "Kp-Event: changes-requested" in message
    changed = vault.git("diff", "--name-only", head, "HEAD").stdout.split()
    assert f".kp/proposals/{pid}/events.jsonl" in changed
    assert all(p.startswith(f".kp/proposals/{pid}/") for p in changed)  # the notes are untouched
    listed = json.loads(run_process("--vault", vault.root, "--json", "proposals").stdout)
    assert [p["id"] for p in listed["proposals"]] == [pid]
    valid = run_process("--vault", vault.root, "validate", pid)
    assert valid.returncode == 0, valid.stdout
    assert run_process("--vault", vault.root, "validate", "--commits", f"{head}..HEAD").returncode == 0
    # Still pending: it can be decided after all.
    assert run_process("--vault", vault.root, "apply", pid, "--yes").returncode == 0
    assert [e["event"] for e in _events(vault, pid)] == ["changes-requested", "applied"]
    empty = run_process("--vault", vault.root, "request-changes", pid, "--reason", " ")
    assert empty.returncode == 2 and len(empty.stderr.strip().splitlines()) == 1


PARTIAL_POINTS = [
    "propose:after-journal",
    "propose:mid-staging",
    "propose:after-publish",
    "decide:after-journal",
    "decide:after-commit",
    "decide:after-event",
    "decide:after-index",
    "apply:after-journal",
    "apply:mid-write",
    "apply:after-write",
    "apply:after-event",
    "apply:after-commit",
    "apply:after-index",
]


@pytest.mark.parametrize("point", PARTIAL_POINTS)
def test_a_partial_apply_killed_at_each_step_leaves_one_pending_or_the_kept_hunk_applied(
    vault: GitVault, point: str
) -> None:
    old = _two_hunks(vault)
    _commit(vault)
    original = vault.read("notes/long.md")
    killed = run_process(
        "--vault", vault.root, "apply", old, "--hunks", "notes/long.md:2", "--yes", env={"CURATOR_FAULT": point}
    )
    assert killed.returncode == 137, killed.stderr
    nxt = run_process("--vault", vault.root, "--json", "proposals", "--all")  # finishes or undoes it
    assert nxt.returncode == 0, nxt.stderr
    status = {p["id"]: p["status"] for p in json.loads(nxt.stdout)["proposals"]}
    revisions = [pid for pid in status if pid != old]
    assert len(revisions) <= 1, status
    text = vault.read("notes/long.md")
    assert "Line two." not in text  # the hunk left out is never applied
    if not revisions:
        assert status == {old: "pending"} and text == original
        return
    new = revisions[0]
    assert status[old] == "superseded" and f"partly accepted into {new}" in str(_events(vault, old))
    if status[new] == "applied":
        assert "Line nineteen." in text
        assert vault.git("status", "--porcelain").stdout == ""
    else:  # staged and superseding the old one, waiting to be applied: nothing of it is in the notes
        assert status[new] == "pending" and text == original
        assert run_process("--vault", vault.root, "apply", new, "--yes").returncode == 0
        assert "Line nineteen." in vault.read("notes/long.md")


def test_the_hunks_kept_of_a_conflicting_proposal_apply_when_they_do(vault: GitVault) -> None:
    old = _two_hunks(vault)
    vault.write("notes/long.md", vault.read("notes/long.md").replace("Line 2.", "Line 2, edited by hand."))
    vault.commit("an edit where hunk 1 changes the note")
    listed = json.loads(run_process("--vault", vault.root, "--json", "proposals").stdout)["proposals"]
    assert [(p["id"], p["drift"]) for p in listed] == [(old, "conflicts")]
    refused = run_process("--vault", vault.root, "apply", old, "--hunks", "notes/long.md:1", "--yes")
    assert refused.returncode == 1 and "KP005" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    assert _ids(vault) == {old}  # the rejected selection is not staged
    done = run_process("--vault", vault.root, "apply", old, "--hunks", "notes/long.md:2", "--yes")
    assert done.returncode == 0, done.stderr
    text = vault.read("notes/long.md")
    assert "Line nineteen." in text and "Line 2, edited by hand." in text
