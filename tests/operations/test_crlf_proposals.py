"""A proposal that changes only line endings git does not keep (`*.md text eol=lf`, what
`curator init` writes) is refused (KP009): git would store the note as it is, so the apply would
commit nothing while the work tree kept CRLF. A change of the text with CRLF lines is stored LF,
as `git add` would (tests/operations/test_gate_edges_apply.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.builders import make_proposal
from tests.conftest import GitVault, make_git_vault

ATTRS = "*.md text eol=lf\n.kp/proposals/** -text\n"
BODY = "---\nkp_id: kp:01J0000000000000000000ALPH\ntitle: A\n---\n# A\n\n" + "".join(f"line {i}\n" for i in range(6))


def _vault(tmp_path: Path, attrs: str = ATTRS) -> GitVault:
    v = make_git_vault(tmp_path / "v")
    v.write(".gitattributes", attrs)
    v.write("notes/a.md", BODY)
    v.commit("init")
    return v


def _to_crlf(v: GitVault, text: str) -> str:
    from curator.operations.gather import unified

    base = v.git("rev-parse", "HEAD:notes/a.md").stdout.strip()
    diff = unified("notes/a.md", BODY.encode(), text.encode())
    return make_proposal(v, [{"op": "modify", "path": "notes/a.md", "base_blob": base}], diff=diff)


def test_a_proposal_that_turns_a_note_into_crlf_is_refused_and_applies_nothing(tmp_path: Path, cli) -> None:
    v = _vault(tmp_path)
    pid = _to_crlf(v, BODY.replace("\n", "\r\n"))
    r = cli("--vault", v.root, "--json", "validate", pid)
    assert r.code == 1, r
    found = json.loads(r.out)["proposals"][0]["findings"]
    assert [(f["code"], f["path"]) for f in found] == [("KP009", "notes/a.md")], found
    assert "only CRLF" in found[0]["message"] and "eol=lf" in found[0]["message"]
    head = v.git("rev-parse", "HEAD").stdout
    r = cli("--vault", v.root, "apply", pid, "--yes")
    assert r.code == 1 and "KP009" in r.err, r
    assert v.git("rev-parse", "HEAD").stdout == head and (v.root / "notes/a.md").read_bytes() == BODY.encode()


def test_a_change_of_one_line_s_ending_alone_is_refused_too(tmp_path: Path, cli) -> None:
    v = _vault(tmp_path)
    pid = _to_crlf(v, BODY.replace("line 3\n", "line 3\r\n"))
    r = cli("--vault", v.root, "--json", "validate", pid)
    assert r.code == 1 and "KP009" in r.out, r


def test_a_change_of_text_with_crlf_lines_is_stored_lf(tmp_path: Path, cli) -> None:
    v = _vault(tmp_path)
    pid = _to_crlf(v, BODY.replace("line 3\n", "line three\r\n"))
    assert cli("--vault", v.root, "apply", pid, "--yes").code == 0
    assert v.git("show", "HEAD:notes/a.md").stdout == BODY.replace("line 3\n", "line three\n")
    assert v.git("status", "--porcelain", "--", "notes/a.md").stdout == ""


def test_crlf_is_taken_where_git_keeps_it(tmp_path: Path, cli) -> None:
    """Without a text attribute git stores the bytes as they are: CRLF is then what is committed."""
    v = _vault(tmp_path, attrs=".kp/proposals/** -text\n")
    pid = _to_crlf(v, BODY.replace("\n", "\r\n"))
    r = cli("--vault", v.root, "--json", "validate", pid)
    assert r.code == 0, r
    assert cli("--vault", v.root, "apply", pid, "--yes").code == 0
    committed = subprocess.run(["git", "-C", str(v.root), "show", "HEAD:notes/a.md"], capture_output=True, check=True)
    assert committed.stdout == BODY.replace("\n", "\r\n").encode()
