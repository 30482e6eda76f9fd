"""``events.jsonl``: a proposal's append-only lifecycle log, written only by Curator."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

TERMINAL = ("applied", "rejected", "superseded")
CHANGES_REQUESTED = "changes-requested"
"""A reviewer's request for a new revision, with the reason: the proposal stays pending (its
author answers with a revision that supersedes it, or the reviewer decides it after all)."""
KNOWN = (*TERMINAL, CHANGES_REQUESTED)
NEEDS_REASON = ("rejected", "superseded", CHANGES_REQUESTED)


@dataclass(frozen=True)
class Event:
    at: str
    event: str
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


def status(events: list[Event]) -> str:
    for e in events:
        if e.event in TERMINAL:
            return e.event
    return "pending"


def committed_status(raw: bytes | None) -> str:
    """Whether HEAD decided a proposal, from its committed ``events.jsonl`` (None: HEAD holds
    none): the first decision among the lines that read as events, else pending. A line that
    does not read decides nothing, and takes nothing away from the lines that do. The one
    answer for apply, rebase's recovery, the digest, the validator and ``validate --all``."""
    return status(parse(raw)[0]) if raw is not None else "pending"



def changes_requested(events: list[Event]) -> Event | None:
    """The reviewer's latest request for changes, while the proposal is still pending."""
    if status(events) != "pending":
        return None
    asked = [e for e in events if e.event == CHANGES_REQUESTED]
    return asked[-1] if asked else None
