"""Curator against `git apply`: whenever Curator says a proposal applies, git agrees and
writes the same bytes. Hundreds of generated edits, with and without drift."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.proposals import store
from curator.proposals.sources import unified
from curator.settings import Settings
from curator.validator import validate_proposal
from curator.validator.state import RepoState
from curator.vault import find_vault
from tests.builders import make_proposal
from tests.conftest import make_git_vault

PATH = "notes/edit me.md"
HEADER = "---\nkp_id: kp:01J000000000000000000000ED\n---\n"
line_st = st.sampled_from(
    ["alpha", "beta", "gamma", "", "delta", "alpha", "  indented", "tail\r", "ü ñ", "- item", "# Heading"]
)


@st.composite
def edit(draw: st.DrawFn, lines: list[str]) -> list[str]:
    out = list(lines)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["insert", "delete", "replace"]))
        if kind == "insert" or not out:
            out.insert(draw(st.integers(0, len(out))), draw(line_st))
        elif kind == "delete":
            del out[draw(st.integers(0, len(out) - 1))]
        else:
            out[draw(st.integers(0, len(out) - 1))] = draw(line_st)
    return out


def _text(lines: list[str], final_newline: bool) -> str:
    body = "\n".join(lines)
    return HEADER + body + ("\n" if final_newline and lines else "")


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory):
    v = make_git_vault(tmp_path_factory.mktemp("diff") / "v")
    v.write(PATH, HEADER)
    v.commit()
    return v


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(data=st.data())
def test_curator_applies_only_where_git_apply_does(scratch, tmp_path_factory, data) -> None:
    base_lines = data.draw(st.lists(line_st, min_size=0, max_size=14), label="base")
    base = _text(base_lines, data.draw(st.booleans(), label="base newline"))
    new = _text(data.draw(edit(base_lines), label="new"), data.draw(st.booleans(), label="new newline"))
    drift = data.draw(st.booleans(), label="drift")
    current = _text(data.draw(edit(base_lines), label="drifted"), True) if drift else base
    if new == base:
        return
    import pygit2

    repo = pygit2.Repository(str(scratch.root))
    base_blob = str(repo.create_blob(base.encode()))
    diff = unified(PATH, base.encode(), new.encode())
    (scratch.root / PATH).write_bytes(current.encode())
    pid = make_proposal(scratch, [{"op": "modify", "path": PATH, "base_blob": base_blob}], diff=diff)
    try:
        vault = find_vault(str(scratch.root))
        report = validate_proposal(RepoState(vault, Settings()), store.load(str(scratch.root), pid))
    finally:
        shutil.rmtree(scratch.root / ".kp" / "proposals" / pid)
    conflicts = [f for f in report.findings if f.code == "KP005"]
    other = [f for f in report.findings if f.code != "KP005"]
    assert not other, other
    work = tmp_path_factory.mktemp("apply")
    (work / "notes").mkdir()
    (work / PATH).write_bytes(current.encode())
    (work / "p.diff").write_text(diff, encoding="utf-8", newline="")
    check = subprocess.run(["git", "apply", "--check", "p.diff"], cwd=work, capture_output=True)
    if not conflicts:
        assert check.returncode == 0, (check.stderr, diff, current)
        # libgit2, the engine `curator apply` writes with, agrees too
        assert repo.applies(pygit2.Diff.parse_diff(diff), pygit2.enums.ApplyLocation.WORKDIR)
        subprocess.run(["git", "apply", "p.diff"], cwd=work, check=True, capture_output=True)
        view = report.subject.changes[0]
        assert view.post_from_current is not None
        assert (work / PATH).read_bytes() == view.post_from_current.encode()
        if not drift:
            assert view.post_from_current == new
    else:
        # Curator may be stricter than git (no offsets), never looser.
        assert drift or check.returncode != 0, json.dumps([c.message for c in conflicts])
