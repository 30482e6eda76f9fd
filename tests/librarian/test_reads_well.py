"""A digest of a vault nobody designed for it: a docs tree without tags, one page in several
versions, an empty new note, summaries full of links. It should read well and its links resolve."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import GitVault, make_git_vault
from tests.librarian.conftest import CLOCK, NOW_MD, config

PAGE = """---
title: about_Remoting
ms.date: 01/02/2024
---
# about_Remoting

## Short description

Describes how to run [remote commands][01] in PowerShell.

[01]: about_Remote.md
"""


def _docs_vault(root: Path) -> GitVault:
    v = make_git_vault(root)
    v.write(".kp/config.yaml", config())
    v.write("now.md", NOW_MD.replace("Search quality", "Remote commands and sessions; search quality"))
    for version in ("5.1", "7.4", "7.5"):
        v.write(f"reference/{version}/about_Remoting.md", PAGE)
    v.write(
        "learn/sessions.md",
        "# Sessions\n\nSee [about_Remoting](../reference/5.1/about_Remoting.md).\n\n"
        "A session keeps state between remote commands, so variables survive.\n",
    )
    v.write("Untitled.md", "")
    v.commit("docs")
    return v


def test_one_page_in_several_versions_is_one_entry_and_links_resolve(
    tmp_path: Path, cli, fake_embedder, monkeypatch
) -> None:
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2026-06-14T10:00:00Z")  # no created dates: the commit's
    v = _docs_vault(tmp_path / "docs")
    r = cli("--vault", v.root, "digest", "--now", CLOCK, "--k", "2", "--auto-apply", "--json")
    assert r.code == 0, r
    out = json.loads(r.out)
    assert out["candidates"] == 4  # the empty Untitled.md is not news
    assert sorted(e["path"] for e in out["entries"]) == ["learn/sessions.md", "reference/5.1/about_Remoting.md"]
    page = next(e for e in out["entries"] if e["path"] == "reference/5.1/about_Remoting.md")
    assert [a["path"] for a in page["alike"]] == ["reference/7.4/about_Remoting.md", "reference/7.5/about_Remoting.md"]
    digest = (v.root / out["path"]).read_text(encoding="utf-8")
    body = digest.split("\n---\n", 1)[1]
    assert "## " not in body  # one group of untagged notes needs no heading
    assert (
        "- [about_Remoting](../reference/5.1/about_Remoting.md) (2026-06-14) — "
        "Describes how to run remote commands in PowerShell. "
        "Also: [7.4](../reference/7.4/about_Remoting.md), [7.5](../reference/7.5/about_Remoting.md).\n"
    ) in body
    assert "— A session keeps state between remote commands, so variables survive.\n" in body
    # Every link in the digest lands on a note of the vault.
    related = json.loads(cli("--vault", v.root, "relate", out["path"], "--json").out)
    assert related["unresolved"] == []
    assert sorted(link["path"] for link in related["links"]) == [
        "learn/sessions.md",
        "reference/5.1/about_Remoting.md",
        "reference/7.4/about_Remoting.md",
        "reference/7.5/about_Remoting.md",
    ]
