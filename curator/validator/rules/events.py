"""KP001 for ``events.jsonl``: a proposal's status is what HEAD's committed record says.

Only Curator writes events, each in a commit of its own making (see
``curator.operations.decisions``). So any difference between the candidate tree's
``events.jsonl`` (the work tree, the index for the pre-commit hook, a commit for
CI) and the committed one is a forgery, with two exceptions that Curator itself
produces:

- one appended ``applied`` line while the candidate holds exactly the proposal's
  post-images (``curator apply --no-commit``, committed by the person);
- one appended line of any decision in a commit whose trailers name that
  proposal and that event, when the commit holds what that decision holds
  (``curator.validator.decision``): Curator's own decision commits, as CI sees them.

A forged line decides nothing: the proposal keeps its committed status and stays
in the queue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from curator.proposals import events as events_mod
from curator.proposals.layout import EVENTS
from curator.validator import decision
from curator.validator.finding import Finding
from curator.validator.images import holds_post_images

if TYPE_CHECKING:
    from curator.validator.state import RepoState
    from curator.validator.subject import Subject


def judge(
    subject: Subject, state: RepoState, validate: decision.Validate
) -> tuple[events_mod.Event | None, list[Finding]]:
    """The decision the candidate legitimately adds (if any), and the findings about the log;
    ``validate`` is the validator, for a decision that claims to apply the proposal."""
    p = subject.proposal
    where = f"{p.rel_dir}/{EVENTS}"
    restore = f"git checkout HEAD -- {where}"
    candidate = p.events
    committed = state.head_bytes(where)
    findings: list[Finding] = []
    for problem in subject.committed_event_problems:
        findings.append(Finding("KP001", where, f"the committed {problem}; only Curator writes events ({restore})"))
    if candidate == committed:
        return None, findings
    for problem in subject.event_problems:
        findings.append(Finding("KP001", where, f"{problem}; only Curator writes events"))
    base = committed or b""
    if candidate is None or (committed is not None and committed.startswith(candidate)):
        findings.append(
            Finding(
                "KP001",
                where,
                f"events.jsonl in {state.candidate} is behind the committed record; restore it: {restore}",
            )
        )
        return None, findings
    if not candidate.startswith(base):
        findings.append(
            Finding(
                "KP001",
                where,
                f"events.jsonl was rewritten; only Curator writes events, appending in its own commits ({restore})",
            )
        )
        return None, findings
    undo = restore if committed is not None else f"remove {where}"
    if committed is None and not candidate.strip():
        findings.append(Finding("KP001", where, f"an empty events.jsonl; a freshly staged proposal has none ({undo})"))
        return None, findings
    added, problems = events_mod.parse(candidate[len(base) :])
    if problems or len(added) != 1 or subject.committed_status != events_mod.PENDING:
        what = "a decided proposal" if subject.committed_status != events_mod.PENDING else "the proposal"
        findings.append(
            Finding(
                "KP001", where, f"events.jsonl gained lines Curator did not commit for {what} (forged status); {undo}"
            )
        )
        return None, findings
    event = added[0]
    if state.decision == (p.id, event.event):
        # The trailers are a claim anyone can write: the commit must hold what the decision does,
        # and a decision no content proves (a rejection, a request for changes) must be written
        # as Curator's own commands write it.
        problems = decision.check(subject, state, event, validate)
        if event.event != "applied":
            problems += decision.as_curator_writes(state, p.id, event, candidate[len(base) :])
        if not problems:
            return event, findings
        findings.extend(
            Finding(
                "KP001",
                where,
                f"{state.candidate} claims to record {event.event} for {p.id}, but {problem} "
                "(forged status; only Curator makes decision commits)",
            )
            for problem in problems
        )
        return None, findings
    if event.event == "applied":
        if holds_post_images(subject, state):
            return event, findings
        findings.append(
            Finding(
                "KP001",
                where,
                f"events.jsonl says applied, but {state.candidate} does not hold the proposal's changes "
                f"(forged status); {undo}",
            )
        )
        return None, findings
    findings.append(
        Finding(
            "KP001",
            where,
            f"a {event.event} event that Curator did not commit (forged status): only `curator reject`, "
            f"`curator request-changes` and revisions record one, in a commit of their own; {undo}",
        )
    )
    return None, findings
