"""``curator adopt``: one proposal that gives every note without a kp_id a minted one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.vault import frontmatter
from curator.vault.identity import is_fresh_kp_ulid
from tests.conftest import GitVault, make_git_vault, note

BODIES = {
    "plain.md": "# Plain\n\nNo frontmatter at all.\n",
    "with-meta.md": "---\ntitle: Kept  # a comment\ntags: [a, b]\n---\nBody **kept**.\n",
    "crlf.md": "---\r\ntitle: Windows\r\n---\r\nLine one\r\nLine two\r\n",
    "empty-meta.md": "---\n---\nEmpty block.\n",
    "no-newline.md": "just text without a final newline",
    "deep/nested/page.md": "---\naliases: [x]\n---\n\n## Section\n",
    "bom.md": "\ufeff---\ntitle: Bom\n---\nbody\n",
    "already.md": note("kp:01J0000000000000000000HAVE", "Already"),
    "broken.md": "---\ntitle: [unclosed\n---\nbody\n",
    "unclosed.md": "---\ntitle: never closed\nbody\n",
    "bad-id.md": "---\nkp_id: not an id\n---\nbody\n",
    "flow.md": "---\n{title: Flow style}\n---\nbody\n",
    ".obsidian/skip.md": "excluded folder\n",
}


@pytest.fixture
def existing(tmp_path: Path) -> GitVault:
    v = make_git_vault(tmp_path / "obsidian")
    v.write(".kp/config.yaml", "")
    for path, body in BODIES.items():
        v.write(path, body)
    v.write("attachments/pic.png", b"\x89PNG\r\n\x1a\n")
    v.commit("an existing vault")
    return v


def _adopt(cli, v: GitVault, *args: str) -> dict:  # type: ignore[no-untyped-def]
    r = cli("--vault", v.root, "--json", "adopt", *args)
    assert r.code == 0, r
    return json.loads(r.out)


def test_adopt_stages_one_proposal_that_touches_only_the_kp_id_line(existing: GitVault, cli) -> None:
    before = {p: existing.read(p) if not p.endswith("bom.md") else None for p in BODIES}
    data = _adopt(cli, existing)
    adopted = {a["path"]: a["kp_id"] for a in data["adopted"]}
    assert set(adopted) == {
        "plain.md",
        "with-meta.md",
        "crlf.md",
        "empty-meta.md",
        "no-newline.md",
        "deep/nested/page.md",
        "bom.md",
    }
    assert all(is_fresh_kp_ulid(k) for k in adopted.values())
    skipped = {s["path"]: s["reason"] for s in data["skipped"]}
    assert set(skipped) == {"broken.md", "unclosed.md", "bad-id.md", "flow.md"}
    assert skipped["flow.md"].startswith("frontmatter cannot take a kp_id line")
    assert skipped["broken.md"].startswith("malformed-frontmatter")
    assert skipped["bad-id.md"].startswith("invalid-kp-id")
    assert data["already_identified"] == 1
    # staged, not applied: the notes are as they were
    for p, text in before.items():
        if text is not None:
            assert existing.read(p) == text
    assert cli("--vault", existing.root, "apply", data["staged"], "--yes").code == 0
    log = existing.git("log", "--format=%s", "-n", "2").stdout.splitlines()
    assert log[0].startswith("Adopt 7 notes") and log[1] == "an existing vault"
    after = {p: (existing.root / p).read_bytes() for p in adopted}
    assert after["plain.md"] == f"---\nkp_id: {adopted['plain.md']}\n---\n# Plain\n\nNo frontmatter at all.\n".encode()
    assert (
        after["with-meta.md"]
        == (
            f"---\ntitle: Kept  # a comment\ntags: [a, b]\nkp_id: {adopted['with-meta.md']}\n---\nBody **kept**.\n"
        ).encode()
    )
    assert (
        after["crlf.md"]
        == f"---\r\ntitle: Windows\r\nkp_id: {adopted['crlf.md']}\r\n---\r\nLine one\r\nLine two\r\n".encode()
    )
    assert after["no-newline.md"].endswith(b"---\njust text without a final newline")
    assert after["bom.md"].startswith(b"\xef\xbb\xbf---\ntitle: Bom\nkp_id: ")
    for p in adopted:
        meta, _ = frontmatter.read(after[p].decode("utf-8").removeprefix("\ufeff"))
        assert meta["kp_id"] == adopted[p]
    assert existing.read("broken.md") == BODIES["broken.md"]
    assert existing.read(".obsidian/skip.md") == BODIES[".obsidian/skip.md"]
    assert existing.status() == ""


def test_adopt_twice_stages_nothing_the_second_time(existing: GitVault, cli) -> None:
    first = _adopt(cli, existing)
    again = _adopt(cli, existing)
    assert again["staged"] is None and again["adopted"] == []
    pending = {
        s["path"] for s in again["skipped"] if s["reason"] == f"already changed by pending proposal {first['staged']}"
    }
    assert len(pending) == 7
    assert cli("--vault", existing.root, "apply", first["staged"], "--yes").code == 0
    third = cli("--vault", existing.root, "adopt")
    assert third.code == 0 and "nothing to adopt: 8 note(s) already have a kp_id" in third.out
    assert len(list((existing.root / ".kp" / "proposals").iterdir())) == 1


def test_adopt_names_uncommitted_and_untracked_notes_and_leaves_them(existing: GitVault, cli) -> None:
    existing.write("plain.md", BODIES["plain.md"] + "An edit not committed.\n")
    existing.write("new.md", "# New\n")
    data = _adopt(cli, existing)
    skipped = {s["path"]: s["reason"] for s in data["skipped"]}
    assert skipped["plain.md"].startswith("has uncommitted edits")
    assert skipped["new.md"].startswith("not committed yet")
    assert "plain.md" not in {a["path"] for a in data["adopted"]}
    assert existing.read("plain.md").endswith("An edit not committed.\n")


def test_adopt_dry_run_and_a_vault_with_nothing_to_do(vault: GitVault, cli) -> None:
    r = cli("--vault", vault.root, "adopt", "--dry-run")
    assert r.code == 0 and "nothing to adopt: 2 note(s) already have a kp_id" in r.out
    vault.write("bare.md", "bare\n")
    vault.commit()
    r = cli("--vault", vault.root, "adopt", "--dry-run")
    assert r.code == 0 and "would give 1 note(s) a kp_id" in r.out
    assert not any((vault.root / ".kp" / "proposals").glob("*/proposal.yaml"))


def test_adopt_a_note_committed_with_crlf_before_eol_lf_was_set(existing: GitVault, cli) -> None:
    # `curator init` adds `*.md text eol=lf` to a vault whose notes were committed with CRLF:
    # git now stores those notes LF, so the proposal's diff must be made against that form.
    existing.write(".gitattributes", "*.md text eol=lf\n")
    existing.commit("eol=lf")
    data = _adopt(cli, existing)
    assert data["valid"] and "crlf.md" in {a["path"] for a in data["adopted"]}, data["findings"]
    assert cli("--vault", existing.root, "apply", data["staged"], "--yes").code == 0
    kp = {a["path"]: a["kp_id"] for a in data["adopted"]}["crlf.md"]
    committed = existing.git("show", "HEAD:crlf.md").stdout
    assert committed == f"---\ntitle: Windows\nkp_id: {kp}\n---\nLine one\nLine two\n"


def test_applying_a_large_adopt_names_ten_paths_and_counts_the_rest(tmp_path: Path, cli) -> None:
    v = make_git_vault(tmp_path / "many")
    v.write(".kp/config.yaml", "")
    for i in range(12):
        v.write(f"n{i:02}.md", f"# Note {i}\n")
    v.commit("twelve notes")
    data = _adopt(cli, v)
    r = cli("--vault", v.root, "apply", data["staged"], "--yes")
    assert r.code == 0, r
    summary = r.out.strip().splitlines()[-1]
    assert summary.endswith("n09.md and 2 more") and "n10.md" not in summary, summary


def test_adopt_leaves_templates_and_repository_documents_alone_and_says_so(tmp_path: Path, cli) -> None:
    """A repository without Obsidian's template settings: a `01 Templates` folder is still templates,
    and README.md and CONTRIBUTING.md are the repository's, not notes to put a frontmatter table on."""
    v = make_git_vault(tmp_path / "repo")
    v.write(".kp/config.yaml", "")
    left = {
        "01 Templates/Daily.md": "# {{date:YYYY-MM-DD}}\n",
        "_templates/meeting.md": "---\ntags: [meeting]\n---\n# {{title}}\n",
        "README.md": "# My notes\n\nHow this repository works.\n",
        "CONTRIBUTING.md": "# Contributing\n",
        "docs/readme.md": "# Docs\n",
        "LICENSE.md": "MIT\n",
    }
    adopted = {"notes/idea.md": "# Idea\n", "Security.md": "# Thoughts on security\n", "Templates notes.md": "# T\n"}
    for path, body in {**left, **adopted}.items():
        v.write(path, body)
    v.commit("a repository of notes")
    data = _adopt(cli, v, "--dry-run")
    assert {a["path"] for a in data["adopted"]} == set(adopted)
    assert {s["path"] for s in data["left_alone"]} == set(left) and data["skipped"] == []
    r = cli("--vault", v.root, "adopt")
    assert r.code == 0, r
    for path in left:
        assert f"left alone {path}: " in r.out
    assert "left alone 01 Templates/Daily.md: a template (01 Templates/ is named as a template folder" in r.out
    assert "left alone README.md: a repository document (README: a forge shows it by name" in r.out
    assert "gives 3 note(s) a kp_id" in r.out and "left alone: 2 template(s), 4 repository document(s)" in r.out
    doctor = json.loads(cli("--vault", v.root, "--json", "doctor").out)
    flagged = {f["path"] for f in doctor["findings"] if f["code"] == "unidentified-note"}
    assert flagged == set(adopted)  # doctor asks for no kp_id adopt would not give
    for path, body in left.items():
        assert v.read(path) == body


def test_template_settings_win_over_folder_names() -> None:
    from curator.vault import templates

    named = templates.folders(lambda rel: b'{"folder": "Meta/Tpl"}' if rel == ".obsidian/templates.json" else None)
    assert [f.folder for f in named] == ["Meta/Tpl"]
    assert templates.holding("Meta/Tpl/a.md", named) is not None
    assert templates.holding("Templates/a.md", named) is None  # the settings name another folder
    for path in ("Templates/a.md", "templates/x/a.md", "01 Templates/a.md", "_templates/a.md", "99 - Template/a.md"):
        assert templates.holding(path, []) is not None, path
    for path in ("Templates.md", "My Templates/a.md", "templates-old/a.md", "notes/templates.md"):
        assert templates.holding(path, []) is None, path


def test_applying_an_adopt_of_many_notes_stores_their_blobs_as_one_pack(tmp_path: Path, cli) -> None:
    """One pack file and its index hold the new versions, not a loose object per note (each a new
    file in .git/objects), and git finds the repository whole."""
    from curator.vault import packs

    v = make_git_vault(tmp_path / "many")
    v.write(".kp/config.yaml", "")
    count = packs.PACK_FROM + 6
    for i in range(count):
        v.write(f"n{i:03}.md", f"# Note {i}\n")
    v.commit("many notes")
    objects = v.root / ".git" / "objects"
    loose_before = {f"{d.name}{f.name}" for d in objects.iterdir() if len(d.name) == 2 for f in d.iterdir()}
    data = _adopt(cli, v)
    r = cli("--vault", v.root, "apply", data["staged"], "--yes")
    assert r.code == 0, r
    loose = {f"{d.name}{f.name}" for d in objects.iterdir() if len(d.name) == 2 for f in d.iterdir()} - loose_before
    kinds = [v.git("cat-file", "-t", oid).stdout.strip() for oid in sorted(loose)]
    # The proposal's own files, its events and the trees and commits: a handful, whatever the count.
    assert kinds.count("blob") < 10, kinds
    assert sum(1 for f in (objects / "pack").iterdir() if f.suffix == ".pack") == 1
    for i in (0, count - 1):
        assert "kp_id: kp:" in v.git("show", f"HEAD:n{i:03}.md").stdout
    assert v.git("fsck", "--strict", "--no-dangling").returncode == 0
    assert v.status() == ""


def test_adopt_says_which_plain_text_notes_get_a_frontmatter_block(vault: GitVault, cli) -> None:
    """`*.txt` is a note by default: a data file such as Obsidian's headings.txt would get a
    frontmatter block. The dry run and the staged proposal both say so, naming a few."""
    for lang in ("de", "fr", "ja", "ko"):
        vault.write(f"{lang}/headings.txt", "Home\nSettings\n")
    vault.write("bare.md", "bare\n")
    vault.commit()
    told = (
        "4 of them are .txt files (de/headings.txt, fr/headings.txt, ja/headings.txt, …): each gets a frontmatter block"
    )
    dry = cli("--vault", vault.root, "adopt", "--dry-run")
    assert dry.code == 0 and told in dry.out, dry.out
    staged = cli("--vault", vault.root, "adopt")
    assert staged.code == 0 and told in staged.out, staged.out
    vault.write(".kp/config.yaml", "notes:\n  exclude: [headings.txt]\n")
    vault.commit()
    assert ".txt files" not in cli("--vault", vault.root, "adopt", "--dry-run").out
