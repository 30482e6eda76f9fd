"""Finishing or undoing what a killed Curator left: an apply, a propose, a decision, a staging folder.

Every command calls ``ensure()`` when it opens the vault, before it reads the tree.
It costs three ``stat`` calls when nothing was interrupted (the journals live in the
git directory and exist only while an apply, a propose or a decision is running), so
``curator validate`` stays fast; when a journal is there, the vault lock is taken
and whoever gets it first finishes or undoes the work (``vault_lock`` does that).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any, TypeVar

from curator.fsutil import remove_file, write_atomic
from curator.vault.discover import Vault

T = TypeVar("T")

APPLY_JOURNAL = "curator-apply.json"
PROPOSE_JOURNAL = "curator-propose.json"
DECISION_JOURNAL = "curator-decision.json"

# How long a command waits for a live apply or propose (they take well under a second)
# before it says the vault is busy.
WAIT_SECONDS = 30.0


def journal_path(vault: Vault, name: str) -> str:
    return os.path.join(vault.git_dir, name)


def write_journal(vault: Vault, name: str, data: dict[str, Any]) -> None:
    write_atomic(journal_path(vault, name), json.dumps(data, indent=1).encode("utf-8"))


def read_journal(vault: Vault, name: str, build: Callable[[dict[str, Any]], T]) -> T | None:
    """The journal ``name`` as ``build`` makes it from the saved record, or None when there is none.

    One that cannot be read whole was cut short by a kill while it was being written, and
    every journal is written before anything it names is done: it was never acted on, and
    it is removed."""
    path = journal_path(vault, name)
    try:
        with open(path, encoding="utf-8") as f:
            return build(json.load(f))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        remove_file(path)
        return None


def clear_journal(vault: Vault, name: str) -> None:
    remove_file(journal_path(vault, name))


def pending(vault: Vault) -> bool:
    return any(os.path.exists(journal_path(vault, n)) for n in (APPLY_JOURNAL, PROPOSE_JOURNAL, DECISION_JOURNAL))


def ensure(vault: Vault) -> None:
    """Finish or undo an interrupted apply or propose before the caller reads the vault."""
    if not pending(vault):
        return
    import time

    from curator.errors import GitLocked
    from curator.operations.lock import vault_lock

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
    from curator.operations import stage
    from curator.operations.apply import recover as recover_apply
    from curator.operations.decision_journal import recover as recover_decision

    done = []
    decided = recover_decision(vault)
    if decided:
        done.append(decided)
    applied = recover_apply(vault)
    if applied:
        done.append(applied)
    done.extend(stage.recover(vault))
    from curator.fsutil import tmp_leftovers

    for name in (APPLY_JOURNAL, PROPOSE_JOURNAL, DECISION_JOURNAL):
        # A kill inside write_atomic leaves its temp file beside the journal.
        for left in tmp_leftovers(journal_path(vault, name)):
            remove_file(left)
            done.append(f"removed {os.path.basename(left)}, left in .git by an interrupted Curator")
    return done
