"""``curator reject ULID --reason TEXT``: record the decision; the vault is untouched."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from curator import output
from curator.app import App
from curator.errors import CheckFailed, NotFound, UsageError
from curator.proposals import events as events_mod
from curator.proposals.layout import EVENTS, PROPOSALS_DIR
from curator.proposals.lock import vault_lock

if TYPE_CHECKING:
    from curator.vault.discover import Vault


def decide(vault: Vault, ulid: str, reason: str, *, by: str) -> None:
    """Record a ``rejected`` event under the vault lock: the one path for this command and the review UI."""
    if not reason.strip():
        raise UsageError("--reason must say why")
    folder = os.path.join(vault.root, PROPOSALS_DIR, ulid)
    if not os.path.isdir(folder) or os.path.islink(folder):
        raise NotFound(f"no proposal {ulid} in {PROPOSALS_DIR}/")
    with vault_lock(vault, f"reject {ulid}"):
        try:
            with open(os.path.join(folder, EVENTS), "rb") as f:
                evs, _problems = events_mod.parse(f.read())
        except FileNotFoundError:
            evs = []
        state = events_mod.status(evs)
        if state != "pending":
            raise CheckFailed(f"proposal {ulid} is already {state}")
        events_mod.append(folder, events_mod.Event(events_mod.now_utc(), "rejected", by, reason=reason.strip()))


def run(app: App, ulid: str, reason: str) -> int:
    from curator.proposals import stage

    if not reason.strip():
        raise UsageError("--reason must say why")
    vault = app.vault()
    decide(vault, ulid, reason, by=f"human:{stage.default_author(vault).name}")
    if app.json:
        output.emit_json({"id": ulid, "rejected": True, "reason": reason.strip()})
    else:
        output.line(f"{ulid}: rejected ({reason.strip()}); commit {PROPOSALS_DIR}/{ulid}/ to keep the record")
    return 0
