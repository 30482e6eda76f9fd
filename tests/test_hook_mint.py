"""`curator hooks install --mint-new`: real `git commit`s through the installed hook, which mints a
kp_id into each new note the commit holds without one, and into nothing else."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from curator.vault import frontmatter
from curator.vault.identity import is_fresh_kp_ulid
from tests.builders import created, make_proposal
from tests.conftest import GitVault, make_git_vault, note
from tests.test_hooks import PLAIN_PATH, Setup, _recorder, _vault

DAILY = "---\ntags: [daily]  # from the template\n---\n# 2026-11-30\n\nSlept [[notes/a|well]].\n"


def _minting(tmp_path: Path, cli, *flags: str) -> Setup:  # type: ignore[no-untyped-def]
    v = _vault(tmp_path)
    log = tmp_path / "python-starts.log"
    r = cli("--vault", v.root, "hooks", "install", "--python", _recorder(tmp_path, log), *flags)
    assert r.code == 0, r
    env = {k: val for k, val in os.environ.items() if not k.startswith(("CURATOR_", "PRE_COMMIT"))}
    env["PATH"] = PLAIN_PATH
    return Setup(v, env, log, "installed")


def _committed(v: GitVault, path: str) -> bytes:
    return subprocess.run(["git", "show", f"HEAD:{path}"], cwd=v.root, capture_output=True, check=True).stdout


def _kp(text: bytes) -> object:
    return frontmatter.read(text.decode())[0].get("kp_id")


def test_a_new_note_made_in_obsidian_commits_with_a_minted_kp_id(tmp_path: Path, cli) -> None:
    s = _minting(tmp_path, cli, "--mint-new")
    s.v.write("Daily/2026-11-30.md", DAILY)
    s.v.git("add", "-A")  # what obsidian-git's auto-commit does
    s.v.write("Daily/later.md", "# Written after the add\n")  # untracked: not the commit's
    r = s.commit()
    assert r.returncode == 0, r.stdout + r.stderr
    committed = _committed(s.v, "Daily/2026-11-30.md")
    kp_id = _kp(committed)
    assert is_fresh_kp_ulid(kp_id)
    assert committed == DAILY.replace("---\n# ", f"kp_id: {kp_id}\n---\n# ", 1).encode()
    assert (s.v.root / "Daily/2026-11-30.md").read_bytes() == committed
    assert f"Daily/2026-11-30.md  {kp_id} (in the file and the commit)" in r.stderr
    assert s.v.status() == "?? Daily/later.md\n"  # nothing staged or changed is left behind
    assert s.v.read("Daily/later.md") == "# Written after the add\n"


def test_git_commit_all_mints_into_its_own_index(tmp_path: Path, cli) -> None:
    s = _minting(tmp_path, cli, "--mint-new")
    s.v.write("notes/a.md", s.v.read("notes/a.md") + "More.\n")
    s.v.write("notes/new.md", "# New\n")
    s.v.git("add", "notes/new.md")
    r = s.commit("-a")
    assert r.returncode == 0, r.stdout + r.stderr
    assert is_fresh_kp_ulid(_kp(_committed(s.v, "notes/new.md")))
    assert _committed(s.v, "notes/a.md").endswith(b"More.\n")
    assert s.v.status() == ""


def test_the_hook_mints_only_into_what_the_person_commits(tmp_path: Path, cli) -> None:
    s = _minting(tmp_path, cli, "--mint-new")
    # A staged note whose file holds more than what is staged: left to the person, and named.
    s.v.write("notes/partly.md", "# Partly\n")
    s.v.git("add", "notes/partly.md")
    s.v.write("notes/partly.md", "# Partly\n\nWritten after `git add`.\n")
    head = s.v.git("rev-parse", "HEAD").stdout
    r = s.commit()
    assert r.returncode == 1 and s.v.git("rev-parse", "HEAD").stdout == head
    assert "skipped notes/partly.md: its file differs from what is staged" in r.stderr
    assert "KP006 notes/partly.md: a new note without kp_id" in r.stderr
    assert s.v.read("notes/partly.md") == "# Partly\n\nWritten after `git add`.\n"
    assert s.v.git("show", ":notes/partly.md").stdout == "# Partly\n"
    s.v.git("reset", "-q", "--", "notes/partly.md")
    # `git commit PATH` commits from a temporary index: nothing minted, and said why.
    s.v.write("notes/named.md", "# Named\n")
    s.v.git("add", "notes/named.md")
    r = s.commit("notes/named.md")
    assert r.returncode == 1 and "`git commit PATH` commits from a temporary index" in r.stderr
    assert s.v.read("notes/named.md") == "# Named\n"
    s.v.git("reset", "-q", "--", "notes/named.md")
    # An agent's proposal: its new note is its own, checked by the validator, never minted into.
    c, f = created("notes/agents.md", "# An agent's note without a kp_id\n")
    pid = make_proposal(s.v, [c], files=f)
    s.v.git("add", f".kp/proposals/{pid}")
    proposal_file = s.v.root / ".kp" / "proposals" / pid / "files" / "notes" / "agents.md"
    r = s.commit()
    assert r.returncode == 1 and "KP006" in r.stderr, r.stderr
    assert proposal_file.read_bytes() == b"# An agent's note without a kp_id\n"
    staged = ["git", "show", f":.kp/proposals/{pid}/files/notes/agents.md"]
    assert subprocess.run(staged, cwd=s.v.root, capture_output=True).stdout == b"# An agent's note without a kp_id\n"
    s.v.git("reset", "-q", "--", ".kp/proposals")
    # A committed note without a kp_id, edited: adopt's, not the hook's.
    s.v.write("notes/plain.md", "# Plain\n")
    s.v.commit("a committed note without a kp_id")
    s.v.write("notes/plain.md", "# Plain\n\nEdited.\n")
    s.v.git("add", "notes/plain.md")
    r = s.commit()
    assert r.returncode == 0, r.stderr
    assert _committed(s.v, "notes/plain.md") == b"# Plain\n\nEdited.\n"


def test_installing_again_keeps_the_choice_and_no_mint_new_ends_it(tmp_path: Path, cli) -> None:
    s = _minting(tmp_path, cli, "--mint-new")
    hook = s.v.root / ".git" / "hooks" / "pre-commit"
    assert "CURATOR_MINT_NEW=1\n" in hook.read_text()
    again = json.loads(cli("--vault", s.v.root, "--json", "hooks", "install", "--python", _recorder(tmp_path, s.log)).out)
    assert again["mint_new"] is True and "CURATOR_MINT_NEW=1\n" in hook.read_text()
    off = cli("--vault", s.v.root, "hooks", "install", "--python", _recorder(tmp_path, s.log), "--no-mint-new")
    assert off.code == 0 and "install with --mint-new" in off.out
    assert "CURATOR_MINT_NEW=\n" in hook.read_text()
    s.v.write("notes/new.md", "# New\n")
    s.v.git("add", "notes/new.md")
    r = s.commit()
    assert r.returncode == 1 and "`curator mint notes/new.md` adds one in place" in r.stderr
    assert s.v.read("notes/new.md") == "# New\n"


def test_a_commit_without_new_notes_says_nothing_about_minting(tmp_path: Path, cli) -> None:
    s = _minting(tmp_path, cli, "--mint-new")
    s.v.write("notes/a.md", s.v.read("notes/a.md") + "Edited.\n")
    s.v.git("add", "notes/a.md")
    r = s.commit()
    assert r.returncode == 0 and r.stderr.splitlines() == ["checked 1 note(s): all valid"], r.stderr


def test_a_new_note_in_a_fresh_repository_is_minted_too(tmp_path: Path, cli) -> None:
    v = make_git_vault(tmp_path / "fresh")
    assert cli("--vault", v.root, "hooks", "install", "--mint-new").code == 0
    v.write("first.md", note("kp:01J000000000000000000000AA", "First") + "\n")
    v.write("second.md", "# Second\n")
    v.git("add", "-A")
    r = v.git("commit", "-q", "-m", "first", check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    assert is_fresh_kp_ulid(_kp(_committed(v, "second.md")))


def test_a_new_template_or_readme_needs_no_kp_id_to_commit(vault: GitVault, cli) -> None:
    """What mint and adopt leave alone, the hook does not ask for: a template (notes made from it
    would copy its kp_id) and a repository document (a forge renders its frontmatter as a table)."""
    vault.write("Templates/Daily.md", "# {{date}}\n\nToday.\n")
    vault.write("README.md", "# This vault\n\nNotes on things.\n")
    vault.write("notes/new.md", "# A new note\n")
    vault.git("add", "Templates/Daily.md", "README.md", "notes/new.md")
    r = cli("--vault", vault.root, "--json", "validate", "--staged")
    notes = {n["path"]: n for n in json.loads(r.out)["notes"]}
    assert notes["Templates/Daily.md"]["ok"] and notes["README.md"]["ok"], notes
    assert not notes["notes/new.md"]["ok"]  # an ordinary new note still needs one
    assert r.code == 1, r
