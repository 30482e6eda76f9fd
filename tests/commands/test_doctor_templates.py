"""Templates are not notes to check: Templater expressions and the Templates plugin's
placeholders in a template's links and frontmatter are no findings; its kp_id still is."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import GitVault, make_git_vault, note

TEMPLATER = """---
title: "{{title}}"
created: <% tp.date.now("YYYY-MM-DD HH:mm") %>
tags: {{tags}}
lang: <% tp.system.prompt("lang") %>
---
# {{title}}

Yesterday: [[Daily/<% tp.date.now("YYYY-MM-DD", -1) %>|yesterday]]
Tomorrow: [[Daily/{{date:YYYY-MM-DD}}]] and ![[<% tp.file.title %>.png]]
"""


def _vault(tmp_path: Path, settings: bool) -> GitVault:
    v = make_git_vault(tmp_path / "v")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    folder = "Templates"
    if settings:
        folder = "Meta/Blueprints"
        v.write(".obsidian/plugins/templater-obsidian/data.json", json.dumps({"templates_folder": folder}))
    v.write(f"{folder}/Daily.md", TEMPLATER)
    v.write("Daily/2026-12-04.md", note("kp:01J000000000000000000DAY1", "2026-12-04", "Went well."))
    v.commit()
    return v


def test_templater_links_in_a_template_are_not_unresolved(tmp_path: Path, cli) -> None:
    for settings in (False, True):
        v = _vault(tmp_path / str(settings), settings)
        assert cli("--vault", v.root, "index").code == 0
        r = cli("--vault", v.root, "doctor", "--json")
        data = json.loads(r.out)
        assert data["findings"] == [] and r.code == 0, data


def test_the_same_link_in_a_note_is_still_reported(tmp_path: Path, cli) -> None:
    v = _vault(tmp_path, False)
    v.write("Daily/2026-12-05.md", note("kp:01J000000000000000000DAY2", "2026-12-05", "[[Daily/<% x %>|y]]"))
    v.commit()
    r = cli("--vault", v.root, "doctor", "--json")
    assert [(f["code"], f["path"]) for f in json.loads(r.out)["findings"]] == [
        ("unresolved-link", "Daily/2026-12-05.md")
    ]


def test_a_templates_kp_id_is_still_a_duplicate(tmp_path: Path, cli) -> None:
    v = _vault(tmp_path, False)
    readable = TEMPLATER.replace("tags: {{tags}}\n", "")
    v.write("Templates/Daily.md", readable.replace("---\n", "---\nkp_id: kp:01J000000000000000000DAY1\n", 1))
    v.commit()
    r = cli("--vault", v.root, "doctor", "--json")
    got = sorted((f["code"], f["path"]) for f in json.loads(r.out)["findings"])
    assert got == [("duplicate-kp-id", "Daily/2026-12-04.md"), ("duplicate-kp-id", "Templates/Daily.md")]
