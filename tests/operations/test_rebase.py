"""`curator rebase`: a 3-way merge into a new revision, reviewed like any other; never applied."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.operations.rebase import merge_text
from tests.builders import created, delete, make_proposal, modify
from tests.conftest import GitVault

LINES = "".join(f"line {i}\n" for i in range(1, 31))


def _long_vault(v: GitVault) -> None:
    v.write("notes/long.md", "---\nkp_id: kp:01J00000000000000000000LNG\ntitle: Long\n---\n" + LINES)
    v.commit("long note")


def _events(v: GitVault, pid: str) -> list[dict[str, str]]:
    path = v.root / ".kp" / "proposals" / pid / "events.jsonl"
    if not path.exists():
        return []
    return [json.loads(x) for x in path.read_text().splitlines()]


def _queue(v: GitVault) -> set[str]:
    return {p.name for p in (v.root / ".kp" / "proposals").iterdir()}


def test_a_conflicting_proposal_becomes_a_new_revision_that_waits_for_review(vault: GitVault, cli) -> None:
    _long_vault(vault)
    text = vault.read("notes/long.md")
    c, d = modify(vault, "notes/long.md", text.replace("line 20\n", "line twenty\n"))
    old = make_proposal(vault, [c], diff=d, title="Spell out twenty")
    # The person edits a line of the hunk's context: the diff no longer applies as it is.
    vault.write("notes/long.md", text.replace("line 17\n", "line seventeen\nand more\n"))
    vault.commit("edit nearby")
    assert json.loads(cli("--vault", vault.root, "--json", "validate", old).out)["proposals"][0]["drift"] == "conflicts"
    head = vault.git("rev-parse", "HEAD").stdout.strip()
    r = cli("--vault", vault.root, "--json", "rebase", old)
    assert r.code == 0, r
    out = json.loads(r.out)
    new = out["new"]
    assert out["staged"] and new and new != old and out["validation"]["ok"]
    # Nothing was applied: the one new commit is Curator's record of the old proposal's decision.
    assert vault.git("rev-parse", "HEAD~1").stdout.strip() == head
    touched = vault.git("diff", "--name-only", "HEAD~1", "HEAD").stdout.split()
    assert touched and all(t.startswith(f".kp/proposals/{old}/") for t in touched)
    assert f"Kp-Proposal: {old}\nKp-Event: superseded" in vault.git("log", "-1", "--format=%B").stdout
    assert "line twenty" not in vault.read("notes/long.md")
    manifest = (vault.root / ".kp" / "proposals" / new / "proposal.yaml").read_text()
    assert f"supersedes: {old}" in manifest and "title: Spell out twenty" in manifest
    assert [e["event"] for e in _events(vault, old)] == ["superseded"]
    assert new in _events(vault, old)[0]["reason"]
    queue = json.loads(cli("--vault", vault.root, "--json", "proposals").out)["proposals"]
    assert [p["id"] for p in queue] == [new] and queue[0]["verdict"] == "valid" and queue[0]["drift"] == "clean"
    # Applying the new revision gives both the person's edit and the proposal's.
    assert cli("--vault", vault.root, "apply", new, "--yes").code == 0
    result = vault.read("notes/long.md")
    assert "line seventeen\nand more\n" in result and "line twenty\n" in result


def test_a_merge_that_conflicts_names_the_lines_and_stages_nothing(vault: GitVault, cli) -> None:
    _long_vault(vault)
    text = vault.read("notes/long.md")
    c, d = modify(vault, "notes/long.md", text.replace("line 20\n", "line twenty\n"))
    old = make_proposal(vault, [c], diff=d)
    vault.write("notes/long.md", text.replace("line 20\n", "line XX (mine)\n"))
    before = _queue(vault)
    r = cli("--vault", vault.root, "rebase", old)
    assert r.code == 1, r
    assert "the 3-way merge conflicts; nothing was staged" in r.out
    assert "notes/long.md: line 24 of the current file was edited where the proposal changes line 24" in r.out
    assert _queue(vault) == before and _events(vault, old) == []
    assert not list((vault.root / ".kp" / "proposals").glob(".staging-*"))


def test_a_clean_proposal_has_nothing_to_rebase(vault: GitVault, cli) -> None:
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Second", "2nd"))
    old = make_proposal(vault, [c], diff=d)
    r = cli("--vault", vault.root, "rebase", old)
    assert r.code == 0 and "nothing to rebase" in r.out, r
    assert _events(vault, old) == []


def test_a_proposal_whose_base_is_gone_cannot_be_rebased(vault: GitVault, cli) -> None:
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Second", "2nd"))
    c["base_blob"] = "1" * 40
    old = make_proposal(vault, [c], diff=d, overrides={"base": "2" * 40})
    r = cli("--vault", vault.root, "rebase", old)
    assert r.code == 1 and "base blob 111111111111 is not in this repository" in r.err, r
    assert _events(vault, old) == []


def test_rebase_refuses_a_proposal_rejected_for_more_than_drift_and_decided_ones(vault: GitVault, cli) -> None:
    c, d = created(".kp/config2.md", "---\nkp_id: kp:01J00000000000000000000XYZ\n---\n")
    bad = make_proposal(vault, [c], files=d)
    r = cli("--vault", vault.root, "rebase", bad)
    assert r.code == 1 and "rejected for more than drift" in r.err, r
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Second", "2nd"))
    done = make_proposal(vault, [c], diff=d)
    assert cli("--vault", vault.root, "reject", done, "--reason", "no").code == 0
    r = cli("--vault", vault.root, "rebase", done)
    assert r.code == 1 and "already rejected" in r.err
    assert cli("--vault", vault.root, "rebase", "01J0000000000000000000NONE").code == 2


def test_a_delete_of_a_note_edited_since_is_a_conflict(vault: GitVault, cli) -> None:
    c, d = delete(vault, "notes/beta.md")
    old = make_proposal(vault, [c], diff=d)
    vault.write("notes/beta.md", vault.read("notes/beta.md") + "More of my words.\n")
    r = cli("--vault", vault.root, "--json", "rebase", old)
    assert r.code == 1
    out = json.loads(r.out)
    assert not out["staged"] and "deleting it would lose those edits" in out["conflicts"][0]["message"]


LINE = st.sampled_from(["a\n", "b\n", "c\n", "d\n", "e\n"])


@settings(max_examples=150, deadline=None)
@given(base=st.lists(LINE, max_size=12), post=st.lists(LINE, max_size=12))
def test_merging_onto_an_unchanged_file_gives_the_post_image(base: list[str], post: list[str]) -> None:
    b, p = "".join(base), "".join(post)
    assert merge_text("x.md", b, b, p) == (p, [])
    # and a change that is already in the file merges to the file itself
    assert merge_text("x.md", b, p, p) == (p, [])


def test_supersedes_must_name_a_ulid(vault: GitVault, cli) -> None:
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Second", "2nd"))
    pid = make_proposal(vault, [c], diff=d, overrides={"supersedes": "../other"})
    out = json.loads(cli("--vault", vault.root, "--json", "validate", pid).out)["proposals"][0]
    assert [f["code"] for f in out["findings"]] == ["KP001"] and "supersedes" in out["findings"][0]["message"]
