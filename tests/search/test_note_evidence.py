"""A note is ranked by what it holds: its best passage, plus a share of its other sections that
match (a DisMax-style tie-breaker), the pieces of one section counted once."""

from __future__ import annotations

import json

import pytest

from curator.search import legs
from tests.conftest import GitVault, make_git_vault

RECOVERY = """# File recovery

Snapshots of your notes are kept while you edit.

## Restore a snapshot

Open the snapshots of a note and restore the one you want.

## Deleted notes

A deleted note keeps its snapshots for a while.

## Restore from the command palette

Restore opens the snapshots of the note in the command palette.

## Settings

Choose how long snapshots are kept.
"""


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> GitVault:
    v = make_git_vault(tmp_path_factory.mktemp("evidence") / "vault")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    v.write("recovery.md", RECOVERY)
    v.write("trash.md", "# Trash\n\nA deleted note goes to the trash; restore a deleted note from there.\n")
    v.write("tags.md", "# Tags\n\nTags group notes by topic.\n")
    v.commit()
    from curator.cli.main import main

    assert main(["--vault", str(v.root), "--index-dir", str(v.root.parent / "idx"), "index", "--quiet"]) == 0
    return v


def test_a_page_that_answers_in_several_sections_comes_before_one_line_that_repeats_the_words(
    vault: GitVault, cli
) -> None:  # type: ignore[no-untyped-def]
    """Ranked by its best passage alone, the trash note's one line (`deleted` twice) came first."""
    r = cli(
        "--vault", vault.root, "--index-dir", vault.root.parent / "idx", "--json",
        "search", "restore deleted note", "--mode", "lexical", "--explain",
    )  # fmt: skip
    assert r.code == 0, r
    hits = json.loads(r.out)["hits"]
    assert [h["path"] for h in hits[:2]] == ["recovery.md", "trash.md"], hits
    assert hits[0]["explain"]["lexical"]["rank"] == 1


def test_each_other_section_adds_a_decaying_share_of_its_score() -> None:
    sections = {1: (10, "A"), 2: (20, "B"), 3: (20, "C"), 4: (20, "D")}
    ranked = [(1, 1.0), (2, 0.9), (3, 0.8), (4, 0.4)]
    out = dict(legs.by_note(ranked, sections))
    assert out[2] == pytest.approx(0.9 + legs.TIE * (0.8 + legs.DECAY * 0.4))
    assert out[1] == 1.0 and out[3] == 0.8 and out[4] == 0.4  # only a note's best passage moves
    assert [pid for pid, _ in legs.by_note(ranked, sections)] == [2, 1, 3, 4]


def test_the_pieces_of_one_section_count_once() -> None:
    """A long section cut into passages (a SciFact abstract, cut at blank lines) is one section:
    where it was cut is no evidence, so its note keeps its best passage's score."""
    sections = {1: (10, "A"), 2: (20, "B"), 3: (20, "B"), 4: (20, "B")}
    ranked = [(1, 1.0), (2, 0.9), (3, 0.8), (4, 0.7)]
    assert legs.by_note(ranked, sections) == ranked


def test_a_passage_of_no_known_section_stands_alone() -> None:
    assert legs.by_note([(7, 0.5), (8, 0.4)], {}) == [(7, 0.5), (8, 0.4)]


def test_a_hybrid_search_fuses_the_legs_passages_as_they_rank(tmp_path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """With vectors, the lexical leg stays passage by passage: fused with the vector leg's
    passages, the notes' sections lowered hybrid's first hits (docs/benchmarks.md)."""
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    v = make_git_vault(tmp_path / "vault")
    v.write("recovery.md", RECOVERY)
    v.write("trash.md", "# Trash\n\nA deleted note goes to the trash; restore a deleted note from there.\n")
    v.write("tags.md", "# Tags\n\nTags group notes by topic.\n")
    v.commit()
    where = ("--vault", v.root, "--index-dir", tmp_path / "idx", "--json")
    assert cli(*where, "index", "--quiet").code == 0
    ranks = {}
    for mode in ("hybrid", "lexical"):
        r = cli(*where, "search", "restore deleted note", "--mode", mode, "--explain")
        assert r.code == 0, r
        out = json.loads(r.out)
        assert out["mode"] == mode, out
        ranks[mode] = {h["path"]: h["explain"]["lexical"]["rank"] for h in out["hits"] if "lexical" in h["explain"]}
    assert ranks["hybrid"]["trash.md"] == 1 and ranks["hybrid"]["recovery.md"] > 1, ranks
    assert ranks["lexical"]["recovery.md"] == 1, ranks
