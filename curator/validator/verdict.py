"""A proposal's verdict: every rule, in order, over one proposal read once (``Subject``).

The CLI, the pre-commit hook, CI, the MCP server and the review UI all call
``validate_proposal``; none of them has a check of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from curator.proposals import events as events_mod
from curator.proposals.layout import EVENTS
from curator.proposals.store import ProposalDir
from curator.validator.finding import Finding, blocking, ordered
from curator.validator.rules import (
    applies,
    content,
    events,
    frontmatter,
    identity,
    manifest,
    paths,
    regions,
    secrets,
)
from curator.validator.state import RepoState
from curator.validator.subject import Drift, Subject, build
from curator.vault.globs import matches
from curator.vault.identity import is_fresh_kp_ulid
from curator.vault.kp_id import of_meta

Rule = Callable[[Subject, RepoState], Iterable[Finding]]
RULES: tuple[Rule, ...] = (
    manifest.check,
    paths.check,
    regions.check,
    applies.check,
    identity.check,
    frontmatter.check,
    content.check,
    secrets.check,
)


@dataclass
class ProposalReport:
    id: str
    findings: list[Finding]
    auto_applicable: bool
    status: events_mod.Status
    drift: Drift | None
    subject: Subject | None = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return not blocking(self.findings)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "ok": self.ok,
            "auto_applicable": self.auto_applicable,
            "status": self.status,
            "drift": self.drift,
            "findings": [f.to_json() for f in self.findings],
        }


def _auto_applicable(subject: Subject, state: RepoState) -> bool:
    digest_dir = state.settings.notes.digest_dir.strip("/")
    if not subject.changes:
        return False

    for view in subject.changes:
        c = view.change
        if c.op != "create" or not matches(c.path, (f"{digest_dir}/**",)):
            return False
        kp_id = of_meta(view.meta(view.post_text))
        if not is_fresh_kp_ulid(kp_id) or (c.kp_id is not None and c.kp_id != kp_id):
            return False
    return True


def _removed(state: RepoState, proposal: ProposalDir) -> ProposalReport:
    """A committed proposal folder the candidate no longer has: history may go, the queue may not."""

    status = events_mod.committed_status(state.head_bytes(f"{proposal.rel_dir}/{EVENTS}"))
    findings = []
    if status == events_mod.PENDING:
        findings.append(
            Finding(
                "KP001",
                proposal.rel_dir,
                f"removes pending proposal {proposal.id}; decide it instead (curator reject {proposal.id} --reason ...)",
            )
        )
    return ProposalReport(proposal.id, findings, False, status, None)


def validate_proposal(state: RepoState, proposal: ProposalDir, subject: Subject | None = None) -> ProposalReport:
    """Every rule on ``proposal`` in ``state``; ``subject``: the proposal read already (``build``)."""
    if not proposal.exists and state.head_has_dir(proposal.rel_dir):
        return _removed(state, proposal)
    subject = subject if subject is not None else build(proposal, state)
    subject.accepted, findings = events.judge(subject, state, validate_proposal)
    # In the commit that records it, a request for changes is checked as a decision is.
    open_ = subject.status == events_mod.PENDING and subject.accepted is None
    if not open_ and not subject.committed_event_problems:
        # A decided proposal is history: its shape and log are checked, its changes are not
        # (they were applied or refused; the vault has moved on since).
        findings.extend(manifest.check(subject, state))
    else:
        for rule in RULES:
            findings.extend(rule(subject, state))
    result = ordered(findings)
    auto = not result and open_ and _auto_applicable(subject, state)
    drift = subject.drift if open_ else None
    return ProposalReport(proposal.id, result, auto, subject.status, drift, subject)
