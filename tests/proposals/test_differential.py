"""Curator against `git apply`: whenever Curator says a proposal applies, git agrees, and the
bytes libgit2 writes (handed the re-anchored diff) are the bytes git writes. Shifted hunks,
hunks shifting by different amounts, several files, ambiguous places, and hundreds of
generated edits with and without drift."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pygit2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.operations import shadow
from curator.operations.gather import unified
from curator.proposals import store
from curator.proposals.diff import reanchor
from curator.settings import Settings
from curator.validator.state import RepoState
from curator.validator.verdict import ProposalReport, validate_proposal
from curator.vault import find_vault
from tests.builders import make_proposal
from tests.conftest import GitVault, make_git_vault

PATH = "notes/edit me.md"
HEADER = "---\nkp_id: kp:01J000000000000000000000ED\n---\n"
OTHER = "---\nkp_id: kp:01J0000000000000000000OTHR\n---\n"
line_st = st.sampled_from(
    ["alpha", "beta", "gamma", "", "delta", "alpha", "  indented", "tail\r", "ü ñ", "- item", "# Heading"]
)
# Where Curator is knowingly stricter than git: git matches a pre-image whose last line lacks
# its newline against the same line with one, mid-file, and may apply a hunk above the one
# before it. Curator calls both a conflict.
STRICTER = ("only by ignoring a missing newline", "above the hunk before it")


@st.composite
def edit(draw: st.DrawFn, lines: list[str]) -> list[str]:
    out = list(lines)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["insert", "delete", "replace", "insert-top"]))
        if kind == "insert-top":
            out[0:0] = draw(st.lists(line_st, min_size=1, max_size=4))
        elif kind == "insert" or not out:
            out.insert(draw(st.integers(0, len(out))), draw(line_st))
        elif kind == "delete":
            del out[draw(st.integers(0, len(out) - 1))]
        else:
            out[draw(st.integers(0, len(out) - 1))] = draw(line_st)
    return out


def _text(lines: list[str], final_newline: bool, header: str = HEADER) -> str:
    body = "\n".join(lines)
    return header + body + ("\n" if final_newline and lines else "")


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> GitVault:
    v = make_git_vault(tmp_path_factory.mktemp("diff") / "v")
    v.write(PATH, HEADER)
    v.write("notes/other.md", OTHER)
    v.commit()
    return v


def _validate(v: GitVault, files: dict[str, tuple[str, str, str]]) -> tuple[ProposalReport, str]:
    """files: path → (base, new, current). The report, and the proposal's diff."""
    repo = pygit2.Repository(str(v.root))
    changes, diff = [], ""
    for path, (base, new, current) in sorted(files.items()):
        changes.append({"op": "modify", "path": path, "base_blob": str(repo.create_blob(base.encode()))})
        diff += unified(path, base.encode(), new.encode())
        (v.root / path).write_bytes(current.encode())
    pid = make_proposal(v, changes, diff=diff)
    try:
        report = validate_proposal(RepoState(find_vault(str(v.root)), Settings()), store.load(str(v.root), pid))
    finally:
        shutil.rmtree(v.root / ".kp" / "proposals" / pid)
    return report, diff


def _git_apply(work: Path, files: dict[str, str], diff: str) -> tuple[int, dict[str, bytes]]:
    for path, current in files.items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_bytes(current.encode())
    (work / "p.diff").write_text(diff, encoding="utf-8", newline="")
    r = subprocess.run(["git", "apply", "p.diff"], cwd=work, capture_output=True)
    return r.returncode, {p: (work / p).read_bytes() for p in files}


def _libgit2(report: ProposalReport) -> dict[str, bytes | None]:
    """What `curator apply` writes: libgit2 fed the re-anchored diff."""
    assert report.subject is not None
    views = report.subject.changes
    files = {v.change.path: v.current_bytes for v in views if v.current_bytes is not None}
    diff = "".join(reanchor(v.patch, [p.at for p in v.current_placed]) for v in views if v.patch)
    return shadow.apply(files, diff)


def _agree(v: GitVault, work: Path, files: dict[str, tuple[str, str, str]]) -> ProposalReport:
    report, diff = _validate(v, files)
    conflicts = [f for f in report.findings if f.code == "KP005"]
    assert not [f for f in report.findings if f.code != "KP005"], report.findings
    code, by_git = _git_apply(work, {p: c for p, (_, _, c) in files.items()}, diff)
    if conflicts:
        # Curator may be stricter than git (the cases named above), never looser.
        if code == 0:
            assert any(s in f.message for f in conflicts for s in STRICTER), (conflicts, diff)
        return report
    assert code == 0, (diff, files)
    by_libgit2 = _libgit2(report)
    assert report.subject is not None
    for view in report.subject.changes:
        path = view.change.path
        assert view.post_from_current is not None
        assert by_git[path] == view.post_from_current.encode() == by_libgit2[path], path
    return report


@settings(
    max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(data=st.data())
def test_curator_applies_where_git_apply_does_and_writes_the_same_bytes(scratch, tmp_path_factory, data) -> None:
    base_lines = data.draw(st.lists(line_st, min_size=0, max_size=14), label="base")
    base = _text(base_lines, data.draw(st.booleans(), label="base newline"))
    new = _text(data.draw(edit(base_lines), label="new"), data.draw(st.booleans(), label="new newline"))
    drift = data.draw(st.booleans(), label="drift")
    current = _text(data.draw(edit(base_lines), label="drifted"), True) if drift else base
    if new == base:
        return
    report = _agree(scratch, tmp_path_factory.mktemp("apply"), {PATH: (base, new, current)})
    if not drift and report.ok:
        assert report.subject is not None and report.subject.changes[0].post_from_current == new


def _long(n: int, prefix: str = "line") -> list[str]:
    return [f"{prefix} {i}" for i in range(n)]


def test_a_hunk_applies_at_an_offset_when_lines_were_added_above(scratch, tmp_path: Path) -> None:
    lines = _long(40)
    base = _text(lines, True)
    new = _text([*lines[:30], "line 30, edited", *lines[31:]], True)
    current = _text(["new first line", "and a second", *lines], True)
    report = _agree(scratch, tmp_path, {PATH: (base, new, current)})
    assert report.ok and report.drift == "drifted"
    assert report.subject is not None and report.subject.changes[0].largest_offset == 2


def test_hunks_shift_by_different_amounts(scratch, tmp_path: Path) -> None:
    lines = _long(60)
    edited = list(lines)
    edited[10] = "line 10, edited"
    edited[45] = "line 45, edited"
    base, new = _text(lines, True), _text(edited, True)
    # three lines added above the first hunk, five removed between the two
    drifted = ["a", "b", "c", *lines[:25], *lines[30:]]
    report = _agree(scratch, tmp_path, {PATH: (base, new, _text(drifted, True))})
    assert report.ok
    assert report.subject is not None
    assert [p.offset for p in report.subject.changes[0].current_placed] == [3, -2]


def test_a_multi_file_proposal_with_one_file_drifted(scratch, tmp_path: Path) -> None:
    lines = _long(30)
    other = _long(12, "other")
    files = {
        PATH: (_text(lines, True), _text([*lines[:20], "changed", *lines[21:]], True), _text(["x", *lines], True)),
        "notes/other.md": (
            _text(other, True, OTHER),
            _text([*other[:5], "inserted", *other[5:]], True, OTHER),
            _text(other, True, OTHER),
        ),
    }
    report = _agree(scratch, tmp_path, files)
    assert report.ok and report.drift == "drifted"


def test_an_ambiguous_hunk_lands_at_the_nearest_match_as_with_git(scratch, tmp_path: Path) -> None:
    block = ["same", "same", "same", "target", "same", "same", "same"]
    lines = [*_long(10, "top"), *block, *_long(10, "middle"), *block, *_long(10, "end")]
    edited = list(lines)
    edited[10 + 3] = "target, edited"  # the first copy of the block
    base, new = _text(lines, True), _text(edited, True)
    # drift: the first copy's context is gone; the second copy is 10+7 lines below
    drifted = [*_long(10, "top"), *_long(3, "pad"), *block, *_long(10, "middle"), *block, *_long(10, "end")]
    report = _agree(scratch, tmp_path, {PATH: (base, new, _text(drifted, True))})
    assert report.ok
    assert report.subject is not None and report.subject.changes[0].current_placed[0].offset == 3


def test_a_hunk_whose_context_is_gone_conflicts_for_both(scratch, tmp_path: Path) -> None:
    lines = _long(20)
    base, new = _text(lines, True), _text([*lines[:10], "edited", *lines[11:]], True)
    current = _text([*lines[:9], "someone else's line", *lines[10:]], True)
    report = _agree(scratch, tmp_path, {PATH: (base, new, current)})
    assert not report.ok and report.drift == "conflicts"
