"""``events.jsonl``: a proposal's append-only lifecycle log, written only by Curator, and the
proposal's status it gives.

States are ``typing.Literal`` aliases, here and for every other state Curator reads and writes
as text (a change's ``Op`` and an author's ``AuthorKind`` in ``proposals.manifest``, a file's
``Drift`` in ``validator.subject``). A Literal is the string itself at run time, so the log,
``proposal.yaml``, the kept verdicts and every JSON output carry the same bytes with no
conversion at any boundary, and pydantic and ruamel.yaml take it as they take a string; mypy
strict still refuses a misspelled value wherever one is assigned, passed, returned or compared
(strict equality), where a ``StrEnum`` compared with a string is never flagged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeGuard, get_args

Decision = Literal["applied", "rejected", "superseded"]
"""An event that decides a proposal: it leaves the queue, and nothing decides it again."""
EventKind = Literal[Decision, "changes-requested"]
Status = Literal["pending", Decision]
"""A proposal's status: its decision, or pending while its log holds none."""

PENDING: Final = "pending"
"""The status of a proposal no event has decided: the absence of a decision, never a line of the log."""
TERMINAL: tuple[Decision, ...] = get_args(Decision)
STATUSES: tuple[Status, ...] = get_args(Status)
CHANGES_REQUESTED: Final = "changes-requested"
"""A reviewer's request for a new revision, with the reason: the proposal stays pending (its
author answers with a revision that supersedes it, or the reviewer decides it after all)."""
KNOWN: tuple[EventKind, ...] = get_args(EventKind)
NEEDS_REASON: tuple[EventKind, ...] = ("rejected", "superseded", CHANGES_REQUESTED)


def is_decision(event: str) -> TypeGuard[Decision]:
    """Whether an event decides its proposal."""
    return event in TERMINAL


@dataclass(frozen=True)
class Event:
    at: str
    event: EventKind
    by: str
    commit: str | None = None
    reason: str | None = None

    def to_json(self) -> str:
        data: dict[str, Any] = {"at": self.at, "event": self.event, "by": self.by}
        if self.commit:
            data["commit"] = self.commit
        if self.reason:
            data["reason"] = self.reason
        return json.dumps(data, ensure_ascii=False, sort_keys=False)


def parse(raw: bytes) -> tuple[list[Event], list[str]]:
    """Events and the problems that make the log untrustworthy."""
    events: list[Event] = []
    problems: list[str] = []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return [], ["events.jsonl is not UTF-8"]
    if text and not text.endswith("\n"):
        problems.append("events.jsonl does not end with a newline (truncated?)")
    for no, line in enumerate(text.splitlines(), start=1):
        try:
            data = json.loads(line)
        except ValueError:
            problems.append(f"events.jsonl line {no} is not JSON")
            continue
        if (
            not isinstance(data, dict)
            or set(data) - {"at", "event", "by", "commit", "reason"}
            or not all(isinstance(data.get(k), str) and data.get(k) for k in ("at", "event", "by"))
        ):
            problems.append(f"events.jsonl line {no} is not an event ({{at, event, by, commit?, reason?}})")
            continue
        if data["event"] not in KNOWN:
            problems.append(f"events.jsonl line {no}: unknown event {data['event']!r}")
            continue
        if data["event"] in NEEDS_REASON and not data.get("reason"):
            problems.append(f"events.jsonl line {no}: a {data['event']} event needs a reason")
        events.append(Event(data["at"], data["event"], data["by"], data.get("commit"), data.get("reason")))
    if sum(e.event in TERMINAL for e in events) > 1:
        problems.append("events.jsonl decides the proposal more than once")
    decided = next((i for i, e in enumerate(events) if e.event in TERMINAL), len(events))
    if any(e.event == CHANGES_REQUESTED for e in events[decided:]):
        problems.append("events.jsonl asks for changes to a proposal it already decided")
    return events, problems


def status(events: list[Event]) -> Status:
    for e in events:
        if is_decision(e.event):
            return e.event
    return PENDING


def committed_status(raw: bytes | None) -> Status:
    """Whether HEAD decided a proposal, from its committed ``events.jsonl`` (None: HEAD holds
    none): the first decision among the lines that read as events, else pending. A line that
    does not read decides nothing, and takes nothing away from the lines that do. The one
    answer for apply, rebase's recovery, the digest, the validator and ``validate --all``."""
    return status(parse(raw)[0]) if raw is not None else PENDING


def changes_requested(events: list[Event]) -> Event | None:
    """The reviewer's latest request for changes, while the proposal is still pending."""
    if status(events) != PENDING:
        return None
    asked = [e for e in events if e.event == CHANGES_REQUESTED]
    return asked[-1] if asked else None
