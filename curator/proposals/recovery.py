"""Finishing or undoing what a killed Curator left: an apply, a propose, a decision, a staging folder.

Every command calls ``ensure()`` when it opens the vault, before it reads the tree.
It costs three ``stat`` calls when nothing was interrupted (the journals live in the
git directory and exist only while an apply, a propose or a decision is running), so
``curator validate`` stays fast; when a journal is there, the vault lock is taken
and whoever gets it first finishes or undoes the work (``vault_lock`` does that).
"""

from __future__ import annotations

import os

from curator.vault.discover import Vault

APPLY_JOURNAL = "curator-apply.json"
PROPOSE_JOURNAL = "curator-propose.json"
DECISION_JOURNAL = "curator-decision.json"

# How long a command waits for a live apply or propose (they take well under a second)
# before it says the vault is busy.
WAIT_SECONDS = 30.0


def pending(vault: Vault) -> bool:
    return any(os.path.exists(os.path.join(vault.git_dir, n)) for n in (APPLY_JOURNAL, PROPOSE_JOURNAL, DECISION_JOURNAL))


def ensure(vault: Vault) -> None:
    """Finish or undo an interrupted apply or propose before the caller reads the vault."""
    if not pending(vault):
        return
    import time

    from curator.errors import GitLocked
    from curator.proposals.lock import vault_lock

    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        try:
            with vault_lock(vault, "recover"):
                return  # taking the lock recovers
        except GitLocked:
            # A live Curator is applying or proposing right now: it clears its own journal.
            if not pending(vault) or time.monotonic() > deadline:
                if pending(vault):
                    raise
                return
            time.sleep(0.05)


def recover(vault: Vault) -> list[str]:
    """Under the vault lock: what was finished or undone, one line each."""
    from curator.proposals import stage
    from curator.proposals.apply import recover as recover_apply
    from curator.proposals.decision_journal import recover as recover_decision

    done = []
    decided = recover_decision(vault)
    if decided:
        done.append(decided)
    applied = recover_apply(vault)
    if applied:
        done.append(applied)
    done.extend(stage.recover(vault))
    from curator.fsutil import remove_file, tmp_leftovers

    for name in (APPLY_JOURNAL, PROPOSE_JOURNAL, DECISION_JOURNAL):
        # A kill inside write_atomic leaves its temp file beside the journal.
        for left in tmp_leftovers(os.path.join(vault.git_dir, name)):
            remove_file(left)
            done.append(f"removed {os.path.basename(left)}, left in .git by an interrupted Curator")
    return done
