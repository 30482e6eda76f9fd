"""What HEAD holds of a proposal's record: its committed ``events.jsonl`` and the status it gives.

Apart from ``decisions`` so that the journals' recovery (which ``decisions`` runs before every
decision) can ask it too without an import running in a circle.
"""

from __future__ import annotations

from curator.proposals import events as events_mod
from curator.proposals.layout import EVENTS, PROPOSALS_DIR
from curator.vault import git
from curator.vault.discover import Vault


def committed_events(vault: Vault, ulid: str) -> bytes | None:
    """The proposal's ``events.jsonl`` as committed in HEAD (None: no committed record)."""
    repo = vault.repo
    if repo.head_is_unborn:
        return None
    try:
        entry = repo.head.peel().tree[f"{PROPOSALS_DIR}/{ulid}/{EVENTS}"]
    except KeyError:
        return None
    return git.blob(repo, entry.id) if entry.type_str == "blob" else None


def committed_status(vault: Vault, ulid: str) -> events_mod.Status:
    """``events.committed_status`` of what HEAD holds."""
    return events_mod.committed_status(committed_events(vault, ulid))
