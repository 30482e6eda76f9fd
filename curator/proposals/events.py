"""``events.jsonl``: a proposal's append-only lifecycle log, written only by Curator."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

TERMINAL = ("applied", "rejected", "superseded")


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
        if data["event"] not in TERMINAL:
            problems.append(f"events.jsonl line {no}: unknown event {data['event']!r}")
            continue
        if data["event"] in ("rejected", "superseded") and not data.get("reason"):
            problems.append(f"events.jsonl line {no}: a {data['event']} event needs a reason")
        events.append(Event(data["at"], data["event"], data["by"], data.get("commit"), data.get("reason")))
    if sum(e.event in TERMINAL for e in events) > 1:
        problems.append("events.jsonl decides the proposal more than once")
    return events, problems


def status(events: list[Event]) -> str:
    for e in events:
        if e.event in TERMINAL:
            return e.event
    return "pending"

