from __future__ import annotations

import json
from pathlib import Path

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
