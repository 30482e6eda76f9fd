"""Proposals the validator must refuse, because applying them would crash or write where no note
belongs: a path that is a file and a folder at once, a diff that changes a mode, an excluded
folder, a name git reads as .git on macOS or Windows, a kp_id that differs only in case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.builders import make_proposal, modify
from tests.conftest import GitVault, note

DRAFT = "---\ntitle: Draft\n---\n# Draft\n"


def _leftovers(v: GitVault) -> list[str]:
    proposals = v.root / ".kp" / "proposals"
    left = [p.name for p in proposals.iterdir()] if proposals.exists() else []
    return left + [p.name for p in (v.root / ".git").iterdir() if p.name.startswith(("curator-", ".curator-"))]


def _propose_creates(v: GitVault, cli, tmp_path: Path, *paths: str):  # type: ignore[no-untyped-def]
    draft = tmp_path / "draft.md"
    draft.write_text(DRAFT)
    args = [a for p in paths for a in ("--create", f"{p}={draft}")]
    return cli("--vault", v.root, "--json", "propose", *args)


def _codes(r) -> set[str]:  # type: ignore[no-untyped-def]
    data = json.loads(r.out)
    assert not data["staged"], data
    return {f["code"] for f in data["findings"]}


def test_a_file_and_a_folder_at_one_path_in_one_proposal_is_kp002(vault: GitVault, cli, tmp_path: Path) -> None:
    r = _propose_creates(vault, cli, tmp_path, "z/y.md", "z/y.md/w.md")
    assert r.code == 1, r
    assert "KP002" in _codes(r)
    assert _leftovers(vault) == [] and vault.status() == ""


def test_a_create_under_an_existing_note_is_kp002(vault: GitVault, cli, tmp_path: Path) -> None:
    r = _propose_creates(vault, cli, tmp_path, "notes/alpha.md/x.md")
    assert r.code == 1, r
    assert "KP002" in _codes(r)
    assert _leftovers(vault) == []
    # the same proposal made by hand: apply refuses it as a finding, not a crash
    content = note("kp:01J00000000000000000000XYZ", "X")
    pid = make_proposal(vault, [{"op": "create", "path": "notes/alpha.md/x.md"}], files={"notes/alpha.md/x.md": content})
    r = cli("--vault", vault.root, "apply", pid, "--yes")
    assert r.code == 1 and "KP002" in r.err and "internal error" not in r.err, r
    assert (vault.root / "notes" / "alpha.md").is_file()


def test_a_diff_whose_index_line_changes_the_mode_is_kp001(vault: GitVault, cli) -> None:
    new = vault.read("notes/alpha.md").replace("Second line.", "Second line, edited.")
    c, d = modify(vault, "notes/alpha.md", new)
    assert " 100644\n" in d  # libgit2 writes the index line with a regular file's mode
    d = d.replace(" 100644\n", " 100755\n", 1)
    pid = make_proposal(vault, [c], diff=d)
    r = cli("--vault", vault.root, "--json", "validate", pid)
    assert r.code == 1, r
    findings = json.loads(r.out)["proposals"][0]["findings"]
    assert any(f["code"] == "KP001" and "100755" in f["message"] for f in findings), findings
    r = cli("--vault", vault.root, "apply", pid, "--yes")
    assert r.code == 1 and "KP001" in r.err and "libgit2" not in r.err, r
    # the file's own mode on the index line is fine, and applies
    ok = make_proposal(vault, [c], diff=d.replace(" 100755\n", " 100644\n", 1))
    r = cli("--vault", vault.root, "apply", ok, "--yes")
    assert r.code == 0, r
    assert vault.read("notes/alpha.md") == new


@pytest.mark.parametrize(
    "patch",
    [
        "diff --git a/notes/alpha.md b/notes/alpha.md\nold mode 100644\nnew mode 100755\n",
        "diff --git a/notes/alpha.md b/notes/alpha.md\nold mode 100644\nnew mode 100755\n"
        "diff --git a/notes/beta.md b/notes/beta.md\nold mode 100644\nnew mode 100755\n",
    ],
)
def test_a_patch_of_mode_changes_alone_is_a_usage_error(vault: GitVault, cli, tmp_path: Path, patch: str) -> None:
    f = tmp_path / "mode.diff"
    f.write_text(patch)
    r = cli("--vault", vault.root, "propose", "--patch", f)
    assert r.code == 2, r
    assert "mode change" in r.err and "internal error" not in r.err
    assert _leftovers(vault) == [] and vault.status() == ""


def test_a_note_in_an_excluded_folder_is_kp010(vault: GitVault, cli, tmp_path: Path) -> None:
    for path in (".github/x.md", ".obsidian/plugins/x.md", ".trash/old.md"):
        r = _propose_creates(vault, cli, tmp_path, path)
        assert r.code == 1, r
        assert _codes(r) == {"KP010"}, r
    assert _leftovers(vault) == []


@pytest.mark.parametrize(
    "path",
    [
        ".git\u200c/x.md",
        ".g\u200dit/hooks/x.md",
        "\ufeff.git/x.md",
        ".git /x.md",
        ".git./x.md",
        ".GIT. . /x.md",
        "git~1/x.md",
        ".git::$INDEX_ALLOCATION/x.md",
        "notes/.git\u200e/x.md",
        ".kp\u200c/proposals/x.md",
    ],
)
def test_names_git_reads_as_dot_git_elsewhere_are_refused(vault: GitVault, cli, tmp_path: Path, path: str) -> None:
    r = _propose_creates(vault, cli, tmp_path, path)
    assert r.code == 1, r
    assert _codes(r) & {"KP002", "KP007"}, r
    assert _leftovers(vault) == []


def test_a_kp_id_differing_only_in_case_is_the_same_identity(vault: GitVault, cli, tmp_path: Path) -> None:
    vault.write("notes/gamma.md", note("kp:01JABCDEFGHJKMNPQRSTVWXYZ0", "Gamma"))
    vault.commit("gamma")
    draft = tmp_path / "dup.md"
    for kp_id in ("kp:01jabcdefghjkmnpqrstvwxyz0", "kp:01JABCDEFGHJKMNPQRSTVWXYZ0", "kp:01jAbCdEfGhJkMnPqRsTvWxYz0"):
        draft.write_text(note(kp_id, "Dup"))
        r = cli("--vault", vault.root, "--json", "propose", "--create", f"notes/dup.md={draft}")
        assert r.code == 1, r
        assert _codes(r) == {"KP006"}, r
    # two new notes in one proposal that differ only in the case of their ids
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_text(note("kp:01JZZZZZZZZZZZZZZZZZZZZZZZ", "A"))
    b.write_text(note("kp:01jzzzzzzzzzzzzzzzzzzzzzzz", "B"))
    r = cli("--vault", vault.root, "--json", "propose", "--create", f"notes/a.md={a}", "--create", f"notes/b.md={b}")
    assert r.code == 1 and _codes(r) == {"KP006"}, r


def test_recovery_sweeps_temp_files_a_killed_write_left_in_git(vault: GitVault, cli) -> None:
    git_dir = vault.root / ".git"
    left = [
        git_dir / ".curator-apply.json.curator-4242.tmp",
        git_dir / ".curator-propose.json.curator-0123456789abcdef.tmp",
        git_dir / ".curator-decision.json.curator-99.tmp",
    ]
    for p in left:
        p.write_text("{}")
    keep = git_dir / ".someone-elses.tmp"
    keep.write_text("x")
    r = cli("--vault", vault.root, "reject", "01J00000000000000000000000", "--reason", "x")
    assert r.code == 2, r  # no such proposal, but the vault lock was taken and recovery ran
    assert not any(p.exists() for p in left) and keep.exists()


def test_an_executable_note_applies_with_either_mode_on_the_index_line(vault: GitVault, cli) -> None:
    vault.git("update-index", "--chmod=+x", "notes/beta.md")
    (vault.root / "notes" / "beta.md").chmod(0o755)
    vault.git("commit", "-q", "--no-verify", "-m", "beta is executable")
    for mode in ("100644", "100755"):
        new = vault.read("notes/beta.md") + f"A line for {mode}.\n"
        c, d = modify(vault, "notes/beta.md", new)
        pid = make_proposal(vault, [c], diff=d.replace(" 100644\n", f" {mode}\n", 1))
        r = cli("--vault", vault.root, "apply", pid, "--yes")
        assert r.code == 0, r
        assert vault.read("notes/beta.md") == new
        assert vault.git("ls-files", "-s", "notes/beta.md").stdout.startswith("100755")
