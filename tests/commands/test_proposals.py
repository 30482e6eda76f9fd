"""curator proposals: the queue with each proposal's age, verdict and drift."""

from __future__ import annotations

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
