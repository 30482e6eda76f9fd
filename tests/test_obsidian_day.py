"""An Obsidian user's day through the installed hook: notes made from templates (Templater
expressions, a `status:` property), daily notes with a zone-less `created:`, Dataview-style
properties changed through the day, every change committed as obsidian-git commits (`git add -A`,
then `git commit`). None is refused; doctor finds nothing to fix; and an agent's proposal that adds
the lifecycle key to a note a producer owns is still refused (KP008)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from curator.vault import frontmatter
from curator.vault.identity import is_fresh_kp_ulid
from tests.builders import make_proposal, modify
from tests.conftest import ROOT, GitVault, make_git_vault, note
from tests.test_hooks import PLAIN_PATH

BOOK_TEMPLATE = (
    '---\ntitle: <% tp.file.title %>\nstatus: todo\nrating:\nauthor: "[[]]"\ntags: [book]\n---\n'
    '# <% tp.file.title %>\n\nStarted <% tp.date.now("YYYY-MM-DD") %>.\n'
)
DAILY_TEMPLATE = (
    '---\ncreated: <% tp.date.now("YYYY-MM-DD HH:mm") %>\ntags: [daily]\n---\n'
    '# <% tp.date.now("dddd D MMMM") %>\n\n'
    '[[Daily/<% tp.date.now("YYYY-MM-DD", -1) %>|yesterday]]\n'
)
READING = note(
    "kp:01J00000000000000000000RGN",
    "Reading list",
    "Mine.\n\n<!-- curio:begin related -->\n- [[Books/Dune]]\n<!-- curio:end related -->\n",
)


def _obsidian_vault(tmp_path: Path) -> GitVault:
    v = make_git_vault(tmp_path / "obsidian")
    v.write(".kp/config.yaml", (ROOT / "curator" / "default_config.yaml").read_text())
    v.write("Templates/Book.md", BOOK_TEMPLATE)
    v.write("Templates/Daily.md", DAILY_TEMPLATE)
    v.write("Home.md", note("kp:01J00000000000000000000HOM", "Home", "[[Reading list]] and [[Daily/2026-12-03]]\n"))
    v.write("Reading list.md", READING)
    v.write("Daily/2026-12-03.md", note("kp:01J00000000000000000000D03", "Thursday", "Rain.\n"))
    v.commit("the vault as it was")
    return v


def _commit_all(v: GitVault, env: dict[str, str], message: str) -> subprocess.CompletedProcess[str]:
    """What obsidian-git's auto-commit does: stage everything, commit through the hooks."""
    v.git("add", "-A")
    return subprocess.run(["git", "commit", "-q", "-m", message], cwd=v.root, capture_output=True, text=True, env=env)


def _kp_id(v: GitVault, path: str) -> object:
    committed = subprocess.run(["git", "show", f"HEAD:{path}"], cwd=v.root, capture_output=True, check=True).stdout
    return frontmatter.read(committed.decode())[0].get("kp_id")


def test_a_day_of_obsidian_commits_is_never_refused_and_an_agent_still_is(tmp_path: Path, cli) -> None:  # type: ignore[no-untyped-def]
    v = _obsidian_vault(tmp_path)
    assert cli("--vault", v.root, "hooks", "install", "--mint-new", "--python", sys.executable).code == 0
    env = {k: val for k, val in os.environ.items() if not k.startswith(("CURATOR_", "PRE_COMMIT"))}
    env["PATH"] = PLAIN_PATH

    # Morning: the daily note from its template, written in local time without a zone.
    v.write(
        "Daily/2026-12-04.md",
        "---\ncreated: 2026-12-04 08:05\ntags: [daily]\n---\n# Friday\n\n[[Daily/2026-12-03|yesterday]]\n",
    )
    day = [_commit_all(v, env, "vault backup: 2026-12-04 08:06")]
    # A book from the template, with its Dataview properties.
    v.write(
        "Books/Dune.md",
        '---\ntitle: Dune\nstatus: todo\nrating:\nauthor: "[[Frank Herbert]]"\ntags: [book]\n---\n# Dune\n\nStarted.\n',
    )
    day.append(_commit_all(v, env, "vault backup: 2026-12-04 09:30"))
    # Through the day the properties change, as Dataview and the Properties pane change them.
    for status, rating in (("reading", ""), ("done", "4")):
        text = (
            v.read("Books/Dune.md")
            .replace("status: todo", f"status: {status}")
            .replace("status: reading", f"status: {status}")
        )
        v.write("Books/Dune.md", text.replace("rating:\n", f"rating: {rating}\n".replace(" \n", "\n")))
        day.append(_commit_all(v, env, f"vault backup: {status}"))
    # The template itself is edited: a template is no note and needs no kp_id.
    v.write("Templates/Book.md", BOOK_TEMPLATE.replace("tags: [book]", "tags: [book, to-read]"))
    day.append(_commit_all(v, env, "vault backup: template"))

    assert [r.returncode for r in day] == [0] * len(day), [r.stderr for r in day]
    assert is_fresh_kp_ulid(_kp_id(v, "Daily/2026-12-04.md"))
    assert is_fresh_kp_ulid(_kp_id(v, "Books/Dune.md"))
    assert "status: done" in v.read("Books/Dune.md") and "rating: 4" in v.read("Books/Dune.md")
    assert v.status() == ""  # every change committed, nothing left staged or altered

    doctor = cli("--vault", v.root, "--json", "doctor")
    report = json.loads(doctor.out)
    said = json.dumps(report)
    assert "tp.date" not in said and "status" not in said.replace('"status"', ""), said

    # An agent's proposal that adds the lifecycle key to the note the curio producer owns.
    c, d = modify(v, "Reading list.md", READING.replace("title: Reading list\n", "title: Reading list\nstatus: done\n"))
    pid = make_proposal(v, [c], diff=d)
    r = cli("--vault", v.root, "validate", "--format", "json", pid)
    findings = json.loads(r.out)["proposals"][0]["findings"]
    assert r.code == 1 and [f["code"] for f in findings] == ["KP008"], findings
    assert "adds status: to a note producer curio owns" in findings[0]["message"]
