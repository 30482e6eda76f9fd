"""``digest --auto-apply`` killed once its digest is staged is finished by the next command; a
pending proposal that only says it is the librarian's stops no digest."""

from __future__ import annotations

import json

import pytest

from tests.builders import make_proposal
from tests.conftest import GitVault, run_process
from tests.librarian.conftest import CLOCK

POINTS = [
    "propose:after-journal",
    "propose:mid-staging",
    "propose:after-publish",
    "digest:after-staging",
    "apply:after-journal",
    "apply:after-write",
    "apply:after-event",
    "apply:after-commit",
]


def _statuses(v: GitVault) -> tuple[dict[str, str], str]:
    r = run_process("--vault", v.root, "--json", "proposals", "--all", env={"CURATOR_EMBEDDER": "fake"})
    assert r.returncode == 0, r.stderr
    return {p["id"]: p["status"] for p in json.loads(r.stdout)["proposals"]}, r.stderr


@pytest.mark.parametrize("point", POINTS)
def test_a_killed_auto_apply_is_finished_or_undone_by_the_next_command(dvault: GitVault, point: str) -> None:
    env = {"CURATOR_EMBEDDER": "fake"}
    killed = run_process(
        "--vault", dvault.root, "digest", "--now", CLOCK, "--auto-apply", env={**env, "CURATOR_FAULT": point}
    )
    assert killed.returncode == 137, killed.stderr
    status, said = _statuses(dvault)
    assert set(status.values()) <= {"applied"}, (point, status, said)  # never a digest left waiting
    if status:
        assert "finished the interrupted apply" in said or point.startswith("apply:after-"), said
        assert dvault.git("status", "--porcelain").stdout == ""
    again = run_process("--vault", dvault.root, "--json", "digest", "--now", CLOCK, "--auto-apply", env=env)
    assert again.returncode == 0, again.stderr
    out = json.loads(again.stdout)
    assert out["status"] in ("staged", "nothing-new") and out.get("applied", True), out
    assert out["status"] == ("nothing-new" if status else "staged"), (status, out)


@pytest.mark.parametrize(
    "author", [{"kind": "librarian", "name": "digest"}, {"kind": "librarian", "name": "someone-else"}]
)
def test_a_librarian_proposal_curator_did_not_write_stops_no_digest(
    dvault: GitVault, cli, author: dict[str, str]
) -> None:
    # Hand-written, and invalid: it names a file it does not carry.
    foreign = make_proposal(dvault, [{"op": "create", "path": "digests/2026-06-15.md"}], overrides={"author": author})
    dvault.commit("a proposal that says it is the librarian's")
    r = cli("--vault", dvault.root, "--json", "digest", "--now", CLOCK)
    assert r.code == 0, r
    out = json.loads(r.out)
    assert out["status"] == "staged" and "superseded" not in out, out
    status, _ = _statuses(dvault)
    assert status[foreign] == "pending" and status[out["id"]] == "pending", status
