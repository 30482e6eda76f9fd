"""The journal of a proposal staged to be applied at once: a partial apply's revision
(``apply --only/--hunks``: stage the kept part, supersede the proposal, apply the revision) and a
digest staged with ``--auto-apply``. Each step journals itself; this one holds the promise that
spans them, so a kill between staging and applying is finished by the next command, as the
README says of every interrupted operation.

Saved (naming the new proposal's id) before anything is staged; cleared once the apply is done or
has failed with its own message. Recovery, under the vault lock and after the staging and the
supersession have been settled (``rebase_journal``, ``propose_journal``): when the proposal was
never staged, there is nothing to finish; when it waits pending, it is applied by the same code
as ``curator apply``, re-validated (a digest only while the validator still finds it
auto-applicable); one that cannot be applied any more is left in the queue and the line says why.
"""

from __future__ import annotations

import os

from curator import settings as settings_mod
from curator.errors import CuratorError
from curator.operations import apply as applier
from curator.operations import journal as store
from curator.operations import recovery
from curator.operations.committed import committed_status
from curator.proposals import events as events_mod
from curator.proposals import store as proposals
from curator.proposals.layout import PROPOSALS_DIR
from curator.validator.state import RepoState
from curator.validator.verdict import validate_proposal
from curator.vault.discover import Vault
from curator.vault.identity import is_ulid


def register() -> None:
    """Have ``recovery`` finish this journal (it cannot import this module: the apply imports it)."""
    if recover not in recovery.FINISHERS:
        recovery.FINISHERS.append(recover)


def save(vault: Vault, ulid: str, by: str, *, commit: bool = True, auto_only: bool = False) -> None:
    """``auto_only``: apply it only while the validator finds it auto-applicable (a digest)."""
    register()
    store.save(vault, store.THEN_APPLY, {"id": ulid, "by": by, "commit": commit, "auto_only": auto_only})


def clear(vault: Vault) -> None:
    store.clear(vault, store.THEN_APPLY)


def recover(vault: Vault) -> str | None:
    """Finish the apply a kill interrupted before it began; what was done, if anything."""
    data = store.load(
        vault,
        store.THEN_APPLY,
        lambda d: (str(d["id"]), str(d["by"]), bool(d["commit"]), bool(d.get("auto_only", False))),
    )
    if data is None:
        return None
    ulid, by, commit, auto_only = data
    clear(vault)  # cleared first: an apply that fails here is said once, never retried by every command
    if not is_ulid(ulid) or not os.path.isdir(os.path.join(vault.root, PROPOSALS_DIR, ulid)):
        return None  # never staged (or taken back with its staging): nothing was promised
    if committed_status(vault, ulid) != events_mod.PENDING:
        return None  # applied or decided already
    try:
        settings = settings_mod.load(vault.root)
        if auto_only:
            state = RepoState(vault, settings)
            verdict = validate_proposal(state, proposals.load_within(vault.root, ulid, settings.limits))
            if not verdict.auto_applicable:
                return f"left {ulid} in the queue: it is no longer auto-applicable, so it waits for review"
        done = applier.apply(vault, settings, ulid, by=by, commit=commit)
    except CuratorError as e:
        return f"left {ulid} in the queue: its interrupted apply cannot be finished ({e})"
    what = f", committed {str(done.commit)[:12]}" if done.commit else ""
    return f"finished the interrupted apply of {ulid}{what}"
