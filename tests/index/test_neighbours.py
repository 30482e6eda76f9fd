"""relate's one-hop neighbours: each shared note weighs by how rare it is, a hub that most of the
vault shares says nothing, and each neighbour says why it is there."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import GitVault, make_git_vault, note


def _vault(tmp_path: Path, projects: int, others: int) -> GitVault:
    v = make_git_vault(tmp_path / "v")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    names = [f"P{i:02d}" for i in range(1, projects + 1)]
    v.write("Home.md", note("kp:01J00000000000000000000HOM", "Home", " ".join(f"[[{n}]]" for n in names)))
    for i, name in enumerate(names):
        body = "Back [[Home]]."
        if name in ("P01", "P02"):
            body += " Sowing: [[Seeds]]."
        v.write(f"Projects/{name}.md", note(f"kp:01J0000000000000000000P{i:03d}", name, body))
    v.write("Seeds.md", note("kp:01J0000000000000000000SEED", "Seeds", "Seeds."))
    for i in range(others):
        v.write(f"Archive/A{i:03d}.md", note(f"kp:01J000000000000000000A{i:04d}", f"A{i}", "Old."))
    v.commit()
    return v


def _neighbours(cli, v: GitVault, ref: str) -> list[dict]:
    r = cli("--vault", v.root, "--json", "relate", ref)
    assert r.code == 0, r
    return json.loads(r.out)["neighbours"]


def test_a_hub_most_of_the_vault_shares_floods_no_list(tmp_path: Path, cli) -> None:
    v = _vault(tmp_path, projects=20, others=0)
    assert cli("--vault", v.root, "index").code == 0
    got = _neighbours(cli, v, "Projects/P01.md")
    assert [n["path"] for n in got] == ["Projects/P02.md"], got
    why = got[0]["via"]
    assert [(w["path"], w["how"], w["degree"]) for w in why] == [
        ("Seeds.md", "both link to", 2),
        ("Home.md", "both link to", 20),
        ("Home.md", "links to both", 20),
    ]
    assert why[0]["weight"] > why[1]["weight"] == why[2]["weight"]
    out = cli("--vault", v.root, "relate", "Projects/P01.md").out
    assert "Projects/P02.md  P02  (weight " in out and ": both link to Seeds.md; both link to Home.md" in out


def test_in_a_larger_vault_the_rare_shared_note_ranks_first_and_the_hub_still_counts(tmp_path: Path, cli) -> None:
    v = _vault(tmp_path, projects=20, others=80)
    assert cli("--vault", v.root, "index").code == 0
    got = _neighbours(cli, v, "Projects/P01.md")
    assert got[0]["path"] == "Projects/P02.md" and got[0]["via"][0]["path"] == "Seeds.md"
    siblings = got[1:]
    assert len(siblings) == 18 and {n["shared"] for n in siblings} == {2}  # Home: links to both, linked from both
    assert all(n["weight"] < got[0]["weight"] for n in siblings)
    assert [n["path"] for n in siblings] == sorted(n["path"] for n in siblings)  # equal weights: by path


def test_a_note_that_links_to_both_is_named_as_the_one_that_links() -> None:
    from curator.index.neighbours import reason

    via = [
        {"how": "links to both", "path": "sqlite-tips.md", "degree": 2},
        {"how": "both link to", "path": "Seeds.md", "degree": 3},
    ]
    assert reason(via) == "sqlite-tips.md links to both; both link to Seeds.md (linked from 3 notes)"
