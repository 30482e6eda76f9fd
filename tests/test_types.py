"""States as types: a misspelled status, event, op, author kind or drift is a mypy error wherever
it is assigned, passed or compared, and ``"pending"`` is spelled in one module."""

from __future__ import annotations

import re
import subprocess

import pytest
from mypy import api

from tests.conftest import ROOT

SNIPPET = """\
from curator.diffview.model import FileInfo
from curator.proposals import events
from curator.proposals.manifest import Author, Change, Op
from curator.review.entries import Entry
from curator.validator.verdict import ProposalReport
from curator.validator.subject import ChangeView, Drift


def judged(log: list[events.Event], view: ChangeView, op: Op, drift: Drift) -> list[bool]:
    return [
        events.status(log) == events.PENDING,
        events.status(log) == "applied",
        events.status(log) == "pendng",  # typo: pendng
        events.committed_status(None) != "aplied",  # typo: aplied
        view.drift == "conflicts",
        view.drift == "conflict",  # typo: conflict
        op == "modify",
        op == "modfy",  # typo: modfy
        drift != "clean",
        drift != "cleen",  # typo: cleen
    ]


status: events.Status = "superseeded"  # typo: superseeded
decision: events.Decision = "pending"  # typo: pending (no decision)
ok_status: events.Status = "rejected"
author = Author(kind="agnet", name="x")  # typo: agnet
change = Change(op="delet", path="x.md")  # typo: delet
event = events.Event("2026-12-04T10:00:00Z", "aproved", "human:x")  # typo: aproved
report = ProposalReport("x", [], False, "aplied", "clean")  # typo: aplied
entry = Entry("x", status="superseded", drift="new")
bad_entry = Entry("x", drift="conflicted")  # typo: conflicted
info = FileInfo("create", "x.md", "drifted", 0)
bad_info = FileInfo("creat", "x.md", "drifted", 0)  # typo: creat
"""


@pytest.fixture(scope="module")
def mypy_errors(tmp_path_factory: pytest.TempPathFactory) -> dict[int, str]:
    """Line → mypy's error on it, for the snippet checked as ``make lint`` checks Curator."""
    folder = tmp_path_factory.mktemp("types")
    (folder / "snippet.py").write_text(SNIPPET, encoding="utf-8")
    (folder / "mypy.ini").write_text(
        f"[mypy]\nstrict = True\nignore_missing_imports = True\nmypy_path = {ROOT}\ncache_dir = {folder / 'cache'}\n",
        encoding="utf-8",
    )
    out, err, _ = api.run(
        ["--config-file", str(folder / "mypy.ini"), "--follow-imports=silent", str(folder / "snippet.py")]
    )
    assert not err, err
    errors = {}
    for line in out.splitlines():
        m = re.match(r".*snippet\.py:(\d+): error: (.*)", line)
        if m:
            errors[int(m[1])] = m[2]
    return errors


@pytest.mark.slow
def test_mypy_refuses_each_misspelled_state_and_only_those(mypy_errors: dict[int, str]) -> None:
    typos = {
        n: line.split("# typo: ")[1].split()[0]
        for n, line in enumerate(SNIPPET.splitlines(), start=1)
        if "# typo: " in line
    }
    assert len(typos) == 13
    assert set(mypy_errors) == set(typos), mypy_errors
    for n, word in typos.items():
        assert f"'{word}'" in mypy_errors[n], (word, mypy_errors[n])


def test_pending_is_spelled_only_where_the_status_type_and_the_log_define_it() -> None:
    found = subprocess.run(
        ["git", "grep", "-n", '"pending"', "--", "curator/"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.splitlines()
    assert found, "git grep found nothing: is the checkout a git work tree?"
    where = [line.split(":", 2) for line in found]
    assert {path for path, _, _ in where} == {"curator/proposals/events.py"}, found
    assert sorted(code.split(maxsplit=1)[0] for _, _, code in where) == ["PENDING:", "Status"], found
