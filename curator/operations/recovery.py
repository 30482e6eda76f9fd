"""Finishing or undoing what a killed Curator left: an apply, a propose, a decision, a staging folder.

Whoever takes the vault lock first does it (``locked``): each operation takes the lock
itself through here, so none starts on a vault another left half-changed. Every command
calls ``ensure()`` when it opens the vault, before it reads the tree: three ``stat``
calls when nothing was interrupted (the journals exist only while an operation runs),
so ``curator validate`` stays fast.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator

from curator import output
from curator.errors import GitLocked
from curator.operations import apply_journal, decision_journal, propose_journal, rebase_journal
from curator.operations import journal as store
from curator.operations.lock import holds, vault_lock
from curator.vault.discover import Vault

WAIT_SECONDS = 30.0
"""How long a command waits for a live operation (they take well under a second, an adopt
of thousands of notes a few) before it says the vault is busy."""


FINISHERS: list[Callable[[Vault], str | None]] = []
"""Recoveries that need what imports this module (``then_apply_journal`` needs the whole apply,
which takes the vault lock here): each registers itself, and ``App.vault`` registers it before
``ensure`` when its journal was left behind."""


def finish_interrupted(vault: Vault) -> list[str]:
    """Under the vault lock: what was finished or undone, one line each."""
    done = []
    decided = decision_journal.recover(vault)
    if decided:
        done.append(decided)
    applied = apply_journal.recover(vault)
    if applied:
        done.append(applied)
    done.extend(propose_journal.recover(vault))
    rebased = rebase_journal.recover(vault)  # after the propose and the decision it depends on
    if rebased:
        done.append(rebased)
    for finish in FINISHERS:  # after the staging and supersession they follow
        finished = finish(vault)
        if finished:
            done.append(finished)
    done.extend(store.sweep_leftovers(vault))
    return done


@contextlib.contextmanager
def locked(vault: Vault, what: str, *, wait: float = 0.0) -> Iterator[None]:
    """Hold the vault lock for ``what``, having finished or undone whatever a kill left first."""
    first = not holds(vault)
    with vault_lock(vault, what, wait=wait):
        if first:
            for done in finish_interrupted(vault):
                output.warn(done)
        yield


def ensure(vault: Vault) -> None:
    """Finish or undo an interrupted operation before the caller reads the vault."""
    if not store.pending(vault):
        return
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        try:
            with locked(vault, "recover"):
                return
        except GitLocked:
            # A live Curator is applying or proposing right now: it clears its own journal.
            if not store.pending(vault):
                return
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
