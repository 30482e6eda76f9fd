"""Names inside a proposal directory ``.kp/proposals/<ULID>/``."""

from __future__ import annotations

PROPOSALS_DIR = ".kp/proposals"
MANIFEST = "proposal.yaml"
DIFF = "changes.diff"
FILES = "files"
EVENTS = "events.jsonl"
KNOWN = frozenset({MANIFEST, DIFF, FILES, EVENTS})
SCHEMA = "proposals/v1"


def proposal_dir(ulid: str) -> str:
    return f"{PROPOSALS_DIR}/{ulid}"


def owner_of(rel_path: str) -> str | None:
    """The proposal id a vault-relative path belongs to, if it lies in a proposal directory."""
    prefix = PROPOSALS_DIR + "/"
    if not rel_path.startswith(prefix):
        return None
    rest = rel_path[len(prefix) :]
    head = rest.split("/", 1)[0]
    if not head or head.startswith("."):
        return None
    return head
