"""curator proposals: the queue with each proposal's age, verdict and drift."""

from __future__ import annotations

import json

from tests.builders import make_proposal, modify
from tests.conftest import GitVault


def test_ages_come_from_the_one_clock_and_a_time_without_a_zone_is_a_finding(vault: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace("Second line.", "Second row."))
    good = make_proposal(vault, [c], diff=d, ulid="01M8PN00000000000000000001")
    naive = make_proposal(
        vault, [c], diff=d, ulid="01M8PN00000000000000000002", overrides={"created": "2026-12-03T23:57:43"}
    )
    r = cli("--vault", vault.root, "proposals")
    assert r.code == 0, r
    rows = {x.split()[0]: x.split() for x in r.out.splitlines() if x.startswith("01M8PN")}
    assert rows[good][1][:-1].isdigit() and rows[good][1][-1] in "smhd" and rows[good][2] == "valid", r.out
    # Its manifest is rejected (KP001), so no time of it is trusted: "?" and the finding.
    assert rows[naive][1:3] == ["?", "rejected"], r.out
    assert f"KP001 .kp/proposals/{naive}/proposal.yaml: created: must be in UTC" in r.out, r.out


def _staged_and_committed(vault: GitVault, old: str, new: str, title: str, **kw: object) -> str:
    c, d = modify(vault, "notes/alpha.md", vault.read("notes/alpha.md").replace(old, new))
    pid = make_proposal(vault, [c], diff=d, title=title, **kw)  # type: ignore[arg-type]
    vault.commit(f"stage {title}")
    return pid


def test_the_queue_shows_a_request_for_changes_and_revision_chains(vault: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    first = _staged_and_committed(vault, "Second line.", "Second row.", "First try", ulid="01M8PN00000000000000000011")
    asked = cli("--vault", vault.root, "request-changes", first, "--reason", "say row, not line, in both places")
    assert asked.code == 0, asked
    second = _staged_and_committed(
        vault, "Second line.", "Second row, again.", "Second try", ulid="01M8PN00000000000000000012",
        overrides={"supersedes": first},
    )
    r = cli("--vault", vault.root, "proposals")
    assert r.code == 0, r
    lines = r.out.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith(first))
    assert lines[at].endswith("v1 First try"), r.out
    assert f"    revisions: {first} → {second}" in lines[at + 1 :], r.out
    assert any(
        x.startswith("    changes requested by human:") and x.endswith("ago: say row, not line, in both places")
        for x in lines[at + 1 :]
    ), r.out
    assert any(x.startswith(second) and x.endswith("v2 Second try") for x in lines), r.out

    data = {p["id"]: p for p in json.loads(cli("--vault", vault.root, "--json", "proposals").out)["proposals"]}
    assert data[first]["changes_requested"]["reason"] == "say row, not line, in both places"
    assert data[first]["changes_requested"]["by"].startswith("human:")
    assert data[second]["changes_requested"] is None
    assert (data[first]["version"], data[second]["version"]) == (1, 2)
    assert data[first]["chain"] == data[second]["chain"] == [first, second]
    assert data[second]["supersedes"] == first


def test_a_rejected_proposal_is_shown_as_rejected_never_as_valid(vault: GitVault, cli) -> None:  # type: ignore[no-untyped-def]
    kept = _staged_and_committed(vault, "Second line.", "Second row.", "Keep me", ulid="01M8PN00000000000000000021")
    refused = _staged_and_committed(vault, "Third line.", "Third row.", "Refuse me", ulid="01M8PN00000000000000000022")
    assert cli("--vault", vault.root, "reject", refused, "--reason", "not wanted").code == 0

    queue = cli("--vault", vault.root, "proposals", "--all")
    rows = {x.split()[0]: x for x in queue.out.splitlines() if x.startswith("01M8PN")}
    assert rows[refused].split()[2] == "rejected" and "valid" not in rows[refused], queue.out
    assert rows[kept].split()[2] == "valid", queue.out

    checked = cli("--vault", vault.root, "validate", "--all")
    assert checked.code == 0, checked  # the validator finds nothing wrong: it checked a record
    assert f"{refused}: decided, rejected\n" in checked.out and f"{kept}: valid\n" in checked.out, checked.out
    assert "valid (rejected)" not in checked.out and "all valid" not in checked.out, checked.out
    assert checked.out.endswith("checked 2 proposal(s): 1 valid, 1 decided before (1 rejected)\n"), checked.out
