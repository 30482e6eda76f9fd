"""The trailers of a decision commit: ``Kp-Proposal: ULID``, ``Kp-Event: EVENT``, ``Kp-Author: kind:name``.

Only Curator writes them (``curator.operations.decisions`` makes the commits); the
validator reads them back to check what a commit claims, and refuses a title or
rationale with a line that could pass for one (KP001).
"""

from __future__ import annotations

import re

from curator.proposals.events import EventKind

PROPOSAL = "Kp-Proposal"
EVENT = "Kp-Event"
AUTHOR = "Kp-Author"

# A line a reader (git interpret-trailers, `git log --grep`, Curator's own recovery)
# could take for one of Curator's trailers.
_TRAILER_LIKE = re.compile(r"^[ \t]*kp-[A-Za-z0-9-]*[ \t]*:", re.IGNORECASE)

def looks_like_trailer(line: str) -> bool:
    return _TRAILER_LIKE.match(line) is not None


def neutralise(text: str) -> str:
    """Text for a commit message in which no line can pass for a Curator trailer.

    The validator already refuses such a title or rationale (KP001); this holds for
    every other text that reaches a message (a rejection's reason, say).
    """
    return "\n".join(f"> {line}" if looks_like_trailer(line) else line for line in text.split("\n"))


def message(title: str, body: str, proposal: str, event: EventKind, author: str | None = None) -> str:
    """A decision's commit message: title, body, then Curator's trailers as the last paragraph."""
    head = " ".join(neutralise(title).split()) or f"{event} {proposal}"
    text = neutralise(body.strip())
    trailers = [f"{PROPOSAL}: {proposal}", f"{EVENT}: {event}"]
    if author:
        trailers.append(f"{AUTHOR}: {author}")
    parts = [head, text] if text else [head]
    return "\n\n".join([*parts, "\n".join(trailers)]) + "\n"


def trailers(msg: str) -> dict[str, list[str]]:
    """The trailers of a commit message: ``Key: value`` lines of its last paragraph only."""
    paragraphs = [p for p in re.split(r"\n[ \t]*\n", msg.strip("\n")) if p.strip()]
    if len(paragraphs) < 2:
        return {}
    found: dict[str, list[str]] = {}
    for line in paragraphs[-1].split("\n"):
        key, sep, value = line.partition(":")
        if not sep or not key or key != key.strip() or " " in key:
            return {}  # not a trailer block: git would not read it as one either
        found.setdefault(key, []).append(value.strip())
    return found


def decision_of(msg: str) -> tuple[str, str] | None:
    """(proposal, event) a commit message records, when it carries exactly one of each trailer."""
    t = trailers(msg)
    p, e = t.get(PROPOSAL, []), t.get(EVENT, [])
    if len(p) == 1 and len(e) == 1:
        return p[0], e[0]
    return None
