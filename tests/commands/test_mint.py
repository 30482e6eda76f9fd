"""``curator mint``: a new note made outside ``curator new`` (in Obsidian) gets its kp_id in
place, so it can be committed past the hook; templates never get one."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from curator.vault import frontmatter
from curator.vault.identity import is_fresh_kp_ulid
from tests.conftest import GitVault, make_git_vault, note


@pytest.fixture
def obsidian(tmp_path: Path) -> GitVault:
    v = make_git_vault(tmp_path / "vault")
    v.write(".kp/config.yaml", "")
    v.write(".obsidian/templates.json", '{"folder": "Templates"}')
    v.write("Templates/Daily Template.md", "---\ntags: [daily]\n---\n# {{date}}\n")
    v.write("Sleep.md", note("kp:01J0000000000000000000SLEP", "Sleep"))
    v.commit("vault")
    return v


def _kp(v: GitVault, rel: str) -> object:
    return frontmatter.read(v.read(rel).removeprefix("\ufeff"))[0].get("kp_id")


def test_hook_names_mint_and_mint_lets_the_commit_through(obsidian: GitVault, cli) -> None:
    assert cli("--vault", obsidian.root, "hooks", "install").code == 0
    body = "---\ntags: [daily]  # from the template\n---\n# 2026-11-30\r\n\nSlept [[Sleep|well]].\n"
    obsidian.write("Daily/2026-11-30.md", body)
    obsidian.git("add", "-A")
    refused = obsidian.git("commit", "-q", "-m", "day", check=False)
    assert refused.returncode != 0
    assert "`curator mint Daily/2026-11-30.md` adds one in place" in refused.stdout + refused.stderr

    r = cli("--vault", obsidian.root, "mint", "Daily/2026-11-30.md")
    assert r.code == 0, r
    kp_id = _kp(obsidian, "Daily/2026-11-30.md")
    assert is_fresh_kp_ulid(kp_id)
    # Only the kp_id line was added: every other byte is the person's.
    after = (obsidian.root / "Daily/2026-11-30.md").read_bytes().decode()
    assert after == body.replace("---\n# ", f"kp_id: {kp_id}\n---\n# ", 1)
    assert f"Daily/2026-11-30.md  {kp_id}" in r.out
    assert "next: git add Daily/2026-11-30.md" in r.out  # it was staged before the kp_id
    obsidian.git("add", "-A")
    done = obsidian.git("commit", "-q", "-m", "day", check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mint_never_touches_a_committed_note_one_with_a_kp_id_or_a_template(obsidian: GitVault, cli) -> None:
    obsidian.write("committed.md", "# Committed without id\n")
    obsidian.commit("one more")
    obsidian.write("has-id.md", note("kp:01J0000000000000000000HASI", "Has"))
    obsidian.write("Templates/Weekly.md", "# Week {{date}}\n")
    obsidian.write("scratch.txt.bak", "not a note\n")
    paths = ["committed.md", "has-id.md", "Templates/Weekly.md", "Sleep.md", "scratch.txt.bak", "../outside.md"]
    before = {p: (obsidian.root / p).read_bytes() for p in paths[:5]}
    r = cli("--vault", obsidian.root, "--json", "mint", *paths)
    assert r.code == 1, r
    data = json.loads(r.out)
    assert data["minted"] == []
    reasons = {s["path"]: s["reason"] for s in data["skipped"]}
    assert "curator adopt" in reasons["committed.md"]
    assert "has a kp_id already" in reasons["has-id.md"]
    assert "Templates/ is the template folder in .obsidian/templates.json" in reasons["Templates/Weekly.md"]
    assert "committed already" in reasons["Sleep.md"]
    assert "not a note" in reasons["scratch.txt.bak"]
    assert "../outside.md" in reasons
    assert {p: (obsidian.root / p).read_bytes() for p in paths[:5]} == before


def test_mint_keeps_crlf_bom_and_mode_and_prints_a_fresh_id_without_paths(obsidian: GitVault, cli) -> None:
    obsidian.write("win.md", b"\xef\xbb\xbf---\r\ntitle: Win\r\n---\r\nbody\r\n")
    os.chmod(obsidian.root / "win.md", 0o600)
    obsidian.write("bare.md", "no frontmatter")
    r = cli("--vault", obsidian.root, "mint", "win.md", "bare.md")
    assert r.code == 0, r
    win = (obsidian.root / "win.md").read_bytes()
    kp_id = _kp(obsidian, "win.md")
    assert win == f"\ufeff---\r\ntitle: Win\r\nkp_id: {kp_id}\r\n---\r\nbody\r\n".encode()
    assert os.stat(obsidian.root / "win.md").st_mode & 0o777 == 0o600
    assert (
        obsidian.root / "bare.md"
    ).read_bytes() == f"---\nkp_id: {_kp(obsidian, 'bare.md')}\n---\nno frontmatter".encode()
    a, b = cli("mint"), cli("--json", "mint")
    assert a.code == b.code == 0
    assert is_fresh_kp_ulid(a.out.strip()) and is_fresh_kp_ulid(json.loads(b.out)["kp_id"])
    assert a.out.strip() != json.loads(b.out)["kp_id"]


def test_mint_takes_paths_relative_to_the_current_folder(obsidian: GitVault, cli, monkeypatch) -> None:
    obsidian.write("Daily/today.md", "# Today\n")
    monkeypatch.chdir(obsidian.root / "Daily")
    assert cli("mint", "today.md").code == 0
    assert is_fresh_kp_ulid(_kp(obsidian, "Daily/today.md"))


@pytest.mark.parametrize(
    ("setting", "content"),
    [
        (".obsidian/templates.json", '{"folder": "Templates"}'),
        (".obsidian/plugins/templater-obsidian/data.json", '{"templates_folder": "/Templates/", "x": 1}'),
    ],
)
def test_adopt_skips_templates_naming_the_folder(tmp_path: Path, cli, setting: str, content: str) -> None:
    v = make_git_vault(tmp_path / "v")
    v.write(".kp/config.yaml", "")
    v.write(setting, content)
    v.write("Templates/Daily Template.md", "# {{date}}\n")
    v.write("Templates2/not-a-template.md", "# Plain\n")
    v.commit("vault")
    v.write("Daily/new.md", "# New\n")
    r = cli("--vault", v.root, "--json", "adopt")
    assert r.code == 0, r
    data = json.loads(r.out)
    assert [a["path"] for a in data["adopted"]] == ["Templates2/not-a-template.md"]
    reasons = {s["path"]: s["reason"] for s in data["skipped"]}
    left = {s["path"]: s["reason"] for s in data["left_alone"]}
    assert left["Templates/Daily Template.md"].startswith(f"a template (Templates/ is the template folder in {setting})")
    assert "`curator mint Daily/new.md` adds one in place" in reasons["Daily/new.md"]
    doctor = json.loads(cli("--vault", v.root, "--json", "doctor").out)
    flagged = {f["path"] for f in doctor["findings"] if f["code"] == "unidentified-note"}
    assert "Templates/Daily Template.md" not in flagged and "Daily/new.md" in flagged


def test_a_kp_id_copied_from_a_template_says_so_and_the_template_may_lose_it(obsidian: GitVault, cli) -> None:
    kp = "kp:01J000000000000000000TEMPL"
    obsidian.write("Templates/Daily Template.md", f"---\nkp_id: {kp}\n---\n# {{{{date}}}}\n")
    obsidian.commit("adopted the template by mistake")
    obsidian.write("Daily/a.md", f"---\nkp_id: {kp}\n---\n# A\n")
    obsidian.git("add", "Daily/a.md")
    r = cli("--vault", obsidian.root, "validate", "--staged")
    assert r.code == 1
    assert (
        f"kp_id {kp} is already used by Templates/Daily Template.md, a template "
        "(Templates/ is the template folder in .obsidian/templates.json)" in r.out
    )
    assert "`curator mint Daily/a.md`" in r.out
    doctor = json.loads(cli("--vault", obsidian.root, "--json", "doctor").out)
    dup = [f for f in doctor["findings"] if f["code"] == "duplicate-kp-id" and f["path"] == "Daily/a.md"]
    assert "(a template)" in dup[0]["message"] and "remove the kp_id line from the template" in dup[0]["fix"]
    # The fix the message gives passes the hook: the template loses its kp_id.
    obsidian.git("reset", "-q")
    obsidian.write("Templates/Daily Template.md", "# {{date}}\n")
    obsidian.git("add", "Templates/Daily Template.md")
    assert cli("--vault", obsidian.root, "validate", "--staged").code == 0
    # ... while an ordinary note still may not.
    obsidian.write("Sleep.md", "# Sleep\n")
    obsidian.git("add", "Sleep.md")
    assert "a committed kp_id never changes" in cli("--vault", obsidian.root, "validate", "--staged").out


def test_doctor_fix_texts_name_adopt_and_mint(obsidian: GitVault, cli) -> None:
    obsidian.write("plain.md", "# Plain\n")
    obsidian.write("twin.md", note("kp:01J0000000000000000000SLEP", "Twin"))
    data = json.loads(cli("--vault", obsidian.root, "--json", "doctor").out)
    fixes = {f["code"]: f["fix"] for f in data["findings"]}
    assert "curator adopt" in fixes["unidentified-note"] and "curator mint PATH" in fixes["unidentified-note"]
    assert "curator mint" in fixes["duplicate-kp-id"] and "curator new" not in fixes["duplicate-kp-id"]


def _blob(v: GitVault, spec: str) -> bytes:
    return subprocess.run(["git", "show", spec], cwd=v.root, capture_output=True, check=True).stdout


def test_mint_new_gives_every_new_note_of_yours_a_kp_id_and_touches_nothing_else(obsidian: GitVault, cli) -> None:
    obsidian.write(".gitignore", "private/\n")
    obsidian.write("committed.md", "# Committed without id\n")
    obsidian.commit("more")
    obsidian.write("Daily/untracked.md", "# Made in Obsidian\n")
    obsidian.write("Daily/staged.md", "---\ntags: [daily]\n---\n# Staged\n")
    obsidian.git("add", "Daily/staged.md")
    obsidian.write("has-id.md", note("kp:01J0000000000000000000HASI", "Has"))
    obsidian.write("Templates/Weekly.md", "# Week {{date}}\n")
    obsidian.write("private/secret.md", "# ignored by git\n")
    obsidian.write(".obsidian/workspace.md", "# excluded\n")
    obsidian.write(".kp/proposals/01J0000000000000000000PROP/files/agent.md", "# an agent's new note\n")
    obsidian.write("committed.md", "# Committed without id, edited\n")
    untouched = ["committed.md", "has-id.md", "Templates/Weekly.md", "private/secret.md", ".obsidian/workspace.md"]
    untouched.append(".kp/proposals/01J0000000000000000000PROP/files/agent.md")
    before = {p: (obsidian.root / p).read_bytes() for p in untouched}
    r = cli("--vault", obsidian.root, "mint", "--new")
    assert r.code == 0, r
    assert {p: (obsidian.root / p).read_bytes() for p in untouched} == before
    minted = {line.split("  ")[0]: line.split("  ")[1] for line in r.out.splitlines() if "  kp:" in line}
    assert set(minted) == {"Daily/staged.md", "Daily/untracked.md"}
    for path, kp_id in minted.items():
        assert _kp(obsidian, path) == kp_id and is_fresh_kp_ulid(kp_id)
    assert obsidian.read("Daily/staged.md") == f"---\ntags: [daily]\nkp_id: {minted['Daily/staged.md']}\n---\n# Staged\n"
    assert "next: git add Daily/staged.md" in r.out  # staged before the kp_id: add it again
    again = cli("--vault", obsidian.root, "mint", "--new")
    assert again.code == 0 and "no new note without a kp_id" in again.out


def test_mint_staged_puts_the_kp_id_in_the_file_and_the_index_and_leaves_the_rest(obsidian: GitVault, cli) -> None:
    obsidian.write("Daily/today.md", "# Today\r\n")
    obsidian.write("Daily/partly.md", "# Partly\n")
    obsidian.write("Daily/untracked.md", "# Not staged\n")
    obsidian.git("add", "Daily/today.md", "Daily/partly.md")
    obsidian.write("Daily/partly.md", "# Partly\n\nAn edit not staged.\n")
    r = cli("--vault", obsidian.root, "--json", "mint", "--staged")
    assert r.code == 1, r  # one note it could not mint: named
    data = json.loads(r.out)
    (minted,) = data["minted"]
    assert minted["path"] == "Daily/today.md" and minted["restaged"] is True
    assert (obsidian.root / "Daily/today.md").read_bytes() == f"---\r\nkp_id: {minted['kp_id']}\r\n---\r\n# Today\r\n".encode()
    assert _blob(obsidian, ":Daily/today.md") == f"---\r\nkp_id: {minted['kp_id']}\r\n---\r\n# Today\r\n".encode()
    assert "Daily/today.md" not in obsidian.git("diff", "--name-only").stdout  # the file is what is staged
    (skipped,) = data["skipped"]
    assert skipped["path"] == "Daily/partly.md" and "differs from what is staged" in skipped["reason"]
    assert obsidian.read("Daily/partly.md") == "# Partly\n\nAn edit not staged.\n"
    assert _blob(obsidian, ":Daily/partly.md") == b"# Partly\n"
    assert obsidian.read("Daily/untracked.md") == "# Not staged\n"


def test_mint_takes_paths_or_new_or_staged(obsidian: GitVault, cli) -> None:
    assert cli("--vault", obsidian.root, "mint", "--new", "--staged").code == 2
    r = cli("--vault", obsidian.root, "mint", "--new", "Sleep.md")
    assert r.code == 2 and "not both" in r.err
