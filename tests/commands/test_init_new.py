from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.vault import frontmatter
from curator.vault.identity import is_fresh_kp_ulid
from tests.conftest import make_git_vault


def test_init_writes_config_proposals_and_attributes_once(tmp_path: Path, cli) -> None:
    v = make_git_vault(tmp_path / "v")
    v.write(".gitattributes", "*.png binary")  # no trailing newline: init must not glue lines
    r = cli("--vault", v.root, "init")
    assert r.code == 0, r
    config = v.read(".kp/config.yaml")
    assert "# " in config and "provider: local" in config
    attrs = v.read(".gitattributes")
    assert attrs.startswith("*.png binary\n")
    assert "*.md text eol=lf" in attrs and ".kp/proposals/** -text" in attrs
    assert (v.root / ".kp" / "proposals").is_dir()
    snapshot = {p: p.read_bytes() for p in v.root.rglob("*") if p.is_file() and ".git/" not in str(p)}
    r2 = cli("--vault", v.root, "--json", "init")
    assert r2.code == 0 and json.loads(r2.out)["changed"] == []
    assert snapshot == {p: p.read_bytes() for p in v.root.rglob("*") if p.is_file() and ".git/" not in str(p)}


def test_new_mints_an_identity_and_never_overwrites(vault, cli) -> None:
    r = cli("--vault", vault.root, "--json", "new", "Café: plans & ideas", "--dir", "ideas/2026")
    assert r.code == 0, r
    made = json.loads(r.out)
    assert made["path"] == "ideas/2026/café-plans-ideas.md"
    assert is_fresh_kp_ulid(made["kp_id"])
    meta, _ = frontmatter.read(vault.read(made["path"]))
    assert meta["kp_id"] == made["kp_id"] and meta["title"] == "Café: plans & ideas"
    again = json.loads(cli("--vault", vault.root, "--json", "new", "Café: plans & ideas", "--dir", "ideas/2026").out)
    assert again["path"] == "ideas/2026/café-plans-ideas-2.md" and again["kp_id"] != made["kp_id"]


def test_new_refuses_a_folder_outside_the_vault(vault, cli) -> None:
    r = cli("--vault", vault.root, "new", "X", "--dir", "../escape")
    assert r.code == 2 and "inside the vault" in r.err
    assert not (vault.root.parent / "escape").exists()


@pytest.mark.parametrize("folder", [".trash", ".trash/old", ".kp", ".kp/proposals", ".git/hooks", ".GIT", ".obsidian", ".github/workflows"])
def test_new_refuses_a_folder_where_no_note_goes(vault, cli, folder: str) -> None:
    """The folder is judged as the index, the hook and kp_propose judge a note's path: a note
    `new` made under an excluded folder would be no note to any of them."""
    before = sorted(p.relative_to(vault.root).as_posix() for p in vault.root.rglob("*") if ".git/" not in str(p))
    r = cli("--vault", vault.root, "new", "Kept out", "--dir", folder)
    assert r.code == 2 and "--dir must be a folder inside the vault where notes go" in r.err, r
    assert len(r.err.strip().splitlines()) == 1
    after = sorted(p.relative_to(vault.root).as_posix() for p in vault.root.rglob("*") if ".git/" not in str(p))
    assert after == before


def test_new_never_makes_a_name_that_differs_only_in_case(vault, cli) -> None:
    vault.write("de/Kochen.md", "# Kochen\n")
    r = cli("--vault", vault.root, "--json", "new", "Kochen", "--dir", "de")
    assert r.code == 0, r
    assert json.loads(r.out)["path"] == "de/kochen-2.md"


@pytest.mark.parametrize(
    "args",
    [
        ("search", "garden", "--mode", "bogus"),
        ("search", "garden", "--k", "0"),
        ("search", "--nope", "x"),
        ("nope",),
        ("search", "garden", "--mode", "\x1b[2J\nnext line"),
    ],
)
def test_a_bad_option_or_command_is_one_line(vault, cli, args) -> None:
    r = cli("--vault", vault.root, *args)
    assert r.code == 2 and r.err.startswith("curator: ") and r.err.count("\n") == 1, r
    assert "\x1b" not in r.err, r  # what was typed is quoted escaped, as every message is


@pytest.mark.parametrize("args", [(), ("sources",)])
def test_a_command_group_alone_shows_its_help(vault, cli, args) -> None:
    r = cli(*args)
    assert r.code == 2 and "Usage: curator" in r.err and "Commands:" in r.err, r


def test_options_without_a_command_say_so_in_one_line(vault, cli) -> None:
    r = cli("--vault", vault.root)
    assert r.code == 2 and r.err == "curator: Missing command. (see `curator --help`)\n", r
