"""Gathering a person's uncommitted edits into a proposal: what counts as a note, and the one
writer of a new identity."""

from __future__ import annotations

import json

import pytest

from curator.vault import frontmatter
from curator.vault import kp_id as kp_id_reader
from curator.vault.identity import is_fresh_kp_ulid
from tests.conftest import GitVault, note


def test_propose_skips_what_notes_exclude_keeps_out_as_the_index_does(vault: GitVault, cli) -> None:
    vault.write(".github/x.md", "# Workflow notes\n")
    vault.commit("a folder notes.exclude keeps out")
    vault.write(".github/x.md", "# Workflow notes, edited\n")
    vault.write("notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "Second line, better."))
    r = cli("--vault", vault.root, "--json", "propose", "--title", "Tidy")
    assert r.code == 0, r
    data = json.loads(r.out)
    assert data["ok"] and data["restored"] == ["notes/alpha.md"], data
    # the excluded file is neither proposed nor restored: the person's edit stays where it was
    assert vault.read(".github/x.md") == "# Workflow notes, edited\n"
    manifest = (vault.root / ".kp" / "proposals" / data["id"] / "proposal.yaml").read_text()
    assert ".github" not in manifest


EMPTY = ["kp_id:\n", 'kp_id: ""\n', "kp_id: '  '\n"]


@pytest.mark.parametrize("line", EMPTY, ids=["null", "empty", "blank"])
def test_an_empty_kp_id_is_filled_alike_by_propose_and_mint(vault: GitVault, cli, line: str) -> None:
    body = f"---\n{line}title: Fresh\n---\n# Fresh\n"
    vault.write("notes/fresh.md", body)
    minted = cli("--vault", vault.root, "mint", "notes/fresh.md")
    assert minted.code == 0, minted
    by_mint = kp_id_reader.of_text(vault.read("notes/fresh.md"))
    assert is_fresh_kp_ulid(by_mint)

    vault.write("notes/other.md", body)
    r = cli("--vault", vault.root, "--json", "propose", "--include-new", "--title", "New")
    assert r.code == 0, r
    data = json.loads(r.out)
    created = (vault.root / ".kp" / "proposals" / data["id"] / "files" / "notes" / "other.md").read_text()
    by_propose = kp_id_reader.of_text(created)
    assert is_fresh_kp_ulid(by_propose) and by_propose != by_mint
    # one line holds it, where the empty one was: no second kp_id key
    assert created.count("kp_id") == 1 and frontmatter.read(created)[0]["title"] == "Fresh"


def test_a_kp_id_with_a_value_is_kept_by_propose_and_refused_by_mint(vault: GitVault, cli) -> None:
    vault.write("notes/fresh.md", note("kp:01J00000000000000000FRESH", "Fresh"))
    minted = cli("--vault", vault.root, "mint", "notes/fresh.md")
    assert "has a kp_id already" in minted.out + minted.err
    r = cli("--vault", vault.root, "--json", "propose", "--include-new", "--title", "New")
    assert r.code == 0, r
    assert json.loads(r.out)["minted"] == []
