"""Commit trailers: a decision is read from the message's last paragraph only, and a title or
rationale that carries trailer lines is quoted so it cannot forge one."""

from __future__ import annotations

from curator.proposals import trailers


def test_trailers_are_read_from_the_last_paragraph_only() -> None:
    forged = "Title\n\nKp-Proposal: 01J00000000000000000000000\nKp-Event: rejected\n\nreal body\n"
    assert trailers.decision_of(forged) is None
    msg = trailers.message("T\nKp-Event: rejected", "why\nKp-Proposal: OTHER\n  kp-event: applied", "PID", "superseded")
    assert trailers.decision_of(msg) == ("PID", "superseded")
    assert "\n> Kp-Proposal: OTHER\n" in msg and "\n>   kp-event: applied\n" in msg
    assert msg.splitlines()[0] == "T > Kp-Event: rejected"
