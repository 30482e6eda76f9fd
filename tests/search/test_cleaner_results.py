"""Results read as the notes do: link text, no comments, headings with their sections,
notes found by title, date keys from the config, and links that say where they land."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import GitVault, make_git_vault

LONG = " ".join(["Every sentence here is about tuning the indexer for large vaults."] * 30)


@pytest.fixture
def notes(tmp_path: Path) -> GitVault:
    v = make_git_vault(tmp_path / "vault")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\nnotes:\n  date_keys: [published]\n")
    v.write(
        "guide/setup.md",
        "---\npublished: 2026-03-01\n---\n# Setting up [[install|the installer]]\n\n"
        "Intro mentions [[guide/options#Flags|the flags]] and [docs](options.md).\n"
        "%% secretplan lives only in this comment %%\n<!-- htmlhidden too -->\n\n"
        f"## Tuning\n\n{LONG}\n",
    )
    v.write("guide/options.md", "# Options\n\nText.\n\n## Flags\n\nThe flags. A block line ^flagblock\n")
    v.write("guide/install.md", "# Install\n\nRun it.\n")
    v.write("other/install.md", "# Install elsewhere\n\nAnother.\n")
    v.write("guide/links.md", "# Links\n\nSee [[options#^flagblock]] and [[install]].\n")
    v.commit()
    from curator.cli.main import main

    assert main(["--vault", str(v.root), "--index-dir", str(v.root.parent / "idx"), "index", "--quiet"]) == 0
    return v


def _cli(cli, v: GitVault, *args: str):  # type: ignore[no-untyped-def]
    return cli("--vault", v.root, "--index-dir", v.root.parent / "idx", *args)


def _hits(cli, v: GitVault, query: str, *args: str) -> list[dict]:  # type: ignore[no-untyped-def]
    r = _cli(cli, v, "--json", "search", query, "--mode", "lexical", *args)
    assert r.code == 0, r
    return json.loads(r.out)["hits"]


def test_titles_breadcrumbs_and_snippets_show_link_text(notes: GitVault, cli) -> None:
    (hit,) = [h for h in _hits(cli, notes, "installer intro flags") if h["path"] == "guide/setup.md"][:1]
    assert hit["title"] == "Setting up the installer" and "[[" not in hit["breadcrumb"]
    assert "Intro mentions the flags and docs." in hit["snippet"] and "[[" not in hit["snippet"]


def test_comments_are_not_indexed(notes: GitVault, cli) -> None:
    assert _hits(cli, notes, "secretplan") == []
    assert _hits(cli, notes, "htmlhidden") == []


def test_a_heading_alone_is_not_a_passage(notes: GitVault, cli) -> None:
    hits = _hits(cli, notes, "Tuning indexer vaults", "--k", "20")
    tuning = [h for h in hits if h["breadcrumb"].endswith("Tuning")]
    assert tuning and all(h["snippet"].strip() != "## Tuning" for h in tuning)
    assert min(h["start_line"] for h in tuning) == 10  # the heading's own line starts its first passage


def test_a_note_made_by_curator_new_is_found_by_its_title(notes: GitVault, cli) -> None:
    made = json.loads(_cli(cli, notes, "--json", "new", "Quarterly retrospective").out)
    hits = _hits(cli, notes, "Quarterly retrospective")
    assert hits and hits[0]["path"] == made["path"]


def test_date_filters_read_the_configured_keys_and_say_when_no_note_has_one(notes: GitVault, cli) -> None:
    dated = _hits(cli, notes, "installer", "--since", "2026-01")
    assert {h["path"] for h in dated} == {"guide/setup.md"}
    told = json.loads(_cli(cli, notes, "--json", "search", "installer", "--since", "2026-01").out)["warnings"]
    assert any(
        w.endswith("without a date (notes.date_keys, default created and date) left out by --since/--until")
        for w in told
    )
    notes.write(".kp/config.yaml", "embedder:\n  provider: none\nnotes:\n  date_keys: [reviewed]\n")
    r = _cli(cli, notes, "search", "installer", "--mode", "lexical", "--since", "2026-01")
    assert "no note has a date" in r.err and "notes.date_keys" in r.err


def test_relate_says_which_line_holds_each_link_and_where_it_lands(notes: GitVault, cli) -> None:
    data = json.loads(_cli(cli, notes, "--json", "relate", "guide/links.md").out)
    by_path = {link["path"]: link for link in data["links"]}
    assert by_path["guide/options.md"]["anchor"] == "^flagblock"
    assert by_path["guide/options.md"]["target_line"] == 7
    assert by_path["guide/install.md"]["candidates"] == ["other/install.md"]
    text = _cli(cli, notes, "relate", "guide/links.md").out
    assert "  line 3 → guide/options.md:7 #^flagblock  Options" in text
    assert "  line 3 → guide/install.md  Install  (also named: other/install.md)" in text
    setup = json.loads(_cli(cli, notes, "--json", "relate", "guide/setup.md").out)
    flags = [link for link in setup["links"] if link["anchor"] == "Flags"]
    assert flags and flags[0]["target_line"] == 5
    back = _cli(cli, notes, "relate", "guide/options.md").out
    assert "  guide/links.md:3  Links" in back  # a backlink's line is in the linking note


def test_read_and_relate_list_the_other_notes_a_name_matches(notes: GitVault, cli) -> None:
    r = _cli(cli, notes, "--json", "read", "install")
    data = json.loads(r.out)
    assert data["path"] == "guide/install.md" and data["candidates"] == ["other/install.md"]
    r = _cli(cli, notes, "read", "install")
    assert "'install' also names other/install.md; this is guide/install.md" in r.err
