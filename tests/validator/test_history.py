"""CI's view: every commit of a range checked as the hook checks a commit, trailers and all."""

from __future__ import annotations

import json

from tests.builders import make_proposal, modify
from tests.conftest import GitVault


def _proposal(v: GitVault, old: str, new: str) -> str:
    c, d = modify(v, "notes/alpha.md", v.read("notes/alpha.md").replace(old, new))
    pid = make_proposal(v, [c], diff=d, title=f"Say {new}")
    v.commit(f"propose {new}")
    return pid


def _forge(v: GitVault, pid: str, message: str) -> None:
    line = {"at": "2026-11-29T10:00:00Z", "event": "rejected", "by": "human:me", "reason": "gone"}
    v.write(f".kp/proposals/{pid}/events.jsonl", json.dumps(line) + "\n")
    v.git("add", "-A")
    v.git("commit", "-q", "--no-verify", "-m", message)


def test_each_commit_is_judged_and_only_curators_decisions_pass(vault: GitVault, cli) -> None:
    base = vault.git("rev-parse", "HEAD").stdout.strip()
    rejected = _proposal(vault, "Second line.", "Second line, two.")
    applied = _proposal(vault, "Third line.", "Third line, three.")
    by_hand = _proposal(vault, "[[Beta]]", "[[Beta]] again")
    forged = _proposal(vault, "Alpha links", "Alpha links twice")
    stolen = _proposal(vault, "Alpha links", "Alpha really links")
    assert cli("--vault", vault.root, "reject", rejected, "--reason", "no").code == 0
    assert cli("--vault", vault.root, "apply", applied, "--yes").code == 0
    _forge(vault, forged, "tidy the queue")
    _forge(vault, stolen, f"tidy\n\nKp-Proposal: {rejected}\nKp-Event: rejected")
    vault.write("notes/beta.md", vault.read("notes/beta.md").replace("kp:01J0000000000000000000BETA", "kp:forged"))
    vault.git("commit", "-q", "--no-verify", "-am", "a forged kp_id")
    r = cli("--vault", vault.root, "validate", "--commits", f"{base}..HEAD", "--format", "json")
    assert r.code == 1, r
    commits = json.loads(r.out)["commits"]
    subjects = [vault.git("log", "-1", "--format=%s", c["commit"]).stdout.strip() for c in commits]
    verdicts = dict(zip(subjects, [c["ok"] for c in commits], strict=True))
    assert verdicts == {
        "propose Second line, two.": True,
        "propose Third line, three.": True,
        "propose [[Beta]] again": True,
        "propose Alpha links twice": True,
        "propose Alpha really links": True,
        f"Rejected proposal {rejected}": True,
        "Say Third line, three.": True,
        "tidy the queue": False,
        "tidy": False,
        "a forged kp_id": False,
    }
    bad = {s: c for s, c in zip(subjects, commits, strict=True) if not c["ok"]}
    forged_findings = [f for p in bad["tidy the queue"]["proposals"] for f in p["findings"]]
    assert any(f["code"] == "KP001" and "forged status" in f["message"] for f in forged_findings)
    assert [f["code"] for n in bad["a forged kp_id"]["notes"] for f in n["findings"]] == ["KP006"]
    text = cli("--vault", vault.root, "validate", "--commits", f"{base}..HEAD")
    assert text.out.splitlines()[-1] == "checked 10 commit(s): 3 rejected"
    assert by_hand and sum(line.startswith("commit ") for line in text.out.splitlines()) == 3


def test_apply_no_commit_committed_by_hand_passes_in_ci(vault: GitVault, cli) -> None:
    base = vault.git("rev-parse", "HEAD").stdout.strip()
    pid = _proposal(vault, "Second line.", "Second line, two.")
    assert cli("--vault", vault.root, "apply", pid, "--yes", "--no-commit").code == 0
    vault.git("add", "notes/alpha.md", f".kp/proposals/{pid}/events.jsonl")
    vault.git("commit", "-q", "--no-verify", "-m", "a signed commit of mine")
    r = cli("--vault", vault.root, "validate", "--commits", f"{base}..HEAD")
    assert r.code == 0 and r.out == "checked 2 commit(s): all valid\n", r


def test_a_bad_range_is_a_usage_error(vault: GitVault, cli) -> None:
    assert cli("--vault", vault.root, "validate", "--commits", "HEAD").code == 2
    assert cli("--vault", vault.root, "validate", "--commits", "nope..HEAD").code == 2
    assert cli("--vault", vault.root, "validate", "--commits", "HEAD..HEAD", "--staged").code == 2


def test_a_conflict_names_the_tree_it_was_found_in(vault: GitVault, cli) -> None:
    """KP005 speaks of the tree checked: the work tree, the staged tree, or the commit."""
    base = vault.git("rev-parse", "HEAD").stdout.strip()
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "Second line, two."))
    pid = make_proposal(vault, [c], diff=d)
    committed = vault.read("notes/alpha.md")
    vault.write("notes/alpha.md", committed.replace("Second line.", "Second line, mine."))
    vault.git("add", "-A")
    vault.write("notes/alpha.md", committed)  # the work tree would take the change; the index would not
    staged = cli("--vault", vault.root, "validate", "--staged")
    assert staged.code == 1 and "KP005 notes/alpha.md:" in staged.err + staged.out, staged
    assert "conflicts with the staged tree: " in staged.err + staged.out and "work tree" not in staged.err + staged.out
    vault.git("commit", "-q", "--no-verify", "-m", "a proposal and an edit that conflicts with it")
    head = vault.git("rev-parse", "--short=12", "HEAD").stdout.strip()
    r = cli("--vault", vault.root, "validate", "--commits", f"{base}..HEAD", "--format", "json")
    found = [f["message"] for c in json.loads(r.out)["commits"] for p in c["proposals"] for f in p["findings"]]
    assert len(found) == 1 and found[0].startswith(
        f"conflicts with commit {head}: hunk 1 (its lines from line 5) does not match"
    ), found
    vault.git("rm", "-q", "--cached", "notes/alpha.md")
    gone = cli("--vault", vault.root, "validate", "--staged", pid)
    assert "KP005 notes/alpha.md: conflicts with the staged tree: the file no longer exists\n" in gone.out, gone
