"""Line endings follow git's attributes, as `git add` and `git checkout` would: checked against
real git (`git hash-object --path`, `git checkout-index`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.builders import make_proposal
from tests.conftest import GitVault, make_git_vault

ATTRS = "*.md text eol=lf\n.kp/proposals/** -text\n"


def _vault(tmp_path: Path, text: str) -> GitVault:
    v = make_git_vault(tmp_path / "v")
    v.write(".gitattributes", ATTRS)
    v.write("notes/a.md", text)
    v.commit("init")
    return v


BODY = "---\nkp_id: kp:01J0000000000000000000ALPH\ntitle: A\n---\n# A\n\n" + "".join(f"line {i}\n" for i in range(12))


def _git_add_form(v: GitVault, path: str) -> str:
    """The blob `git add` would store for the work-tree file at path."""
    return v.git("hash-object", "--path", path, str(v.root / path)).stdout.strip()


def test_a_one_line_edit_to_a_crlf_working_copy_commits_one_lf_line(tmp_path: Path, cli) -> None:
    v = _vault(tmp_path, BODY)
    base = v.git("rev-parse", "HEAD:notes/a.md").stdout.strip()
    from curator.operations.gather import unified

    new = BODY.replace("line 5\n", "line five\n")
    diff = unified("notes/a.md", BODY.encode(), new.encode())
    pid = make_proposal(v, [{"op": "modify", "path": "notes/a.md", "base_blob": base}], diff=diff)
    (v.root / "notes/a.md").write_bytes(BODY.replace("\n", "\r\n").encode())  # an editor saved it with CRLF
    r = cli("--vault", v.root, "validate", pid)
    assert r.code == 0, r
    r = cli("--vault", v.root, "apply", pid, "--yes")
    assert r.code == 0, r
    committed = v.git("show", "HEAD:notes/a.md").stdout
    assert "\r" not in committed and committed == new
    stat = v.git("diff", "--numstat", "HEAD~1", "HEAD", "--", "notes/a.md").stdout.split()
    assert stat[:2] == ["1", "1"]
    # the commit holds what `git add` makes of the work-tree file; the file is what checkout writes
    assert v.git("rev-parse", "HEAD:notes/a.md").stdout.strip() == _git_add_form(v, "notes/a.md")
    out = tmp_path / "co"
    v.git("checkout-index", f"--prefix={out}/", "notes/a.md")
    assert (v.root / "notes/a.md").read_bytes() == (out / "notes/a.md").read_bytes()
    assert "notes/a.md" not in v.status()


def test_with_autocrlf_the_work_tree_gets_crlf_and_the_commit_lf(tmp_path: Path, cli) -> None:
    v = make_git_vault(tmp_path / "v")
    v.write(".gitattributes", "*.md text\n")
    v.write("notes/a.md", BODY)
    v.commit("init")
    v.git("config", "core.autocrlf", "true")
    v.git("rm", "-q", "--cached", "-r", ".")
    v.git("reset", "-q", "--hard")
    assert b"\r\n" in (v.root / "notes/a.md").read_bytes()
    (v.root / "notes/a.md").write_bytes(BODY.replace("line 3\n", "line three\n").replace("\n", "\r\n").encode())
    r = cli("--vault", v.root, "--json", "propose")
    assert r.code == 0, r
    pid = json.loads(r.out)["id"]
    diff = (v.root / ".kp/proposals" / pid / "changes.diff").read_bytes()
    assert b"\r" not in diff and diff.count(b"\n+line") == 1
    assert cli("--vault", v.root, "apply", pid, "--yes").code == 0
    assert "\r" not in v.git("show", "HEAD:notes/a.md").stdout
    out = tmp_path / "co"
    v.git("checkout-index", f"--prefix={out}/", "notes/a.md")
    assert (v.root / "notes/a.md").read_bytes() == (out / "notes/a.md").read_bytes()


def test_after_init_on_crlf_notes_propose_takes_only_real_edits(tmp_path: Path, cli) -> None:
    v = make_git_vault(tmp_path / "v")
    crlf = BODY.replace("\n", "\r\n")
    v.write("notes/a.md", crlf)
    v.write("notes/b.md", crlf.replace("ALPH", "BETA"))
    v.commit("notes written on Windows")
    r = cli("--vault", v.root, "--json", "init")
    assert r.code == 0 and json.loads(r.out)["crlf_notes"] == ["notes/a.md", "notes/b.md"]
    text = cli("--vault", v.root, "init")
    assert "2 note(s) are committed with CRLF" in text.out and "git add --renormalize" in text.out
    v.git("add", ".gitattributes", ".kp")
    v.git("commit", "-q", "-m", "curator init")
    (v.root / "notes/a.md").write_bytes(crlf.replace("line 7", "line seven").encode())
    r = cli("--vault", v.root, "--json", "propose")
    assert r.code == 0, r
    data = json.loads(r.out)
    assert data["ok"] and data["restored"] == ["notes/a.md"], data  # b.md differs only in line endings
    diff = (v.root / ".kp/proposals" / data["id"] / "changes.diff").read_text()
    assert diff.count("\n-line") == 1 and diff.count("\n+line") == 1
    assert cli("--vault", v.root, "apply", data["id"], "--yes").code == 0
    assert v.git("show", "HEAD:notes/a.md").stdout == BODY.replace("line 7", "line seven")
    subprocess.run(["git", "status"], cwd=v.root, check=True, capture_output=True)
