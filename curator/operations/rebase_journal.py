"""The revision journal: a revision (a rebase, a partial acceptance, an edit, an author's answer;
``operations.revise``) is staged, then the old one is superseded in a commit of its own; killed
between the two, both would wait in the queue.

The journal (saved before the new revision is staged) names both. Recovery, under the
vault lock and after any interrupted propose or decision is settled: when the old revision
is superseded in HEAD, the rebase is done; otherwise the new revision, staged but never
committed, is taken back, and the old one waits in the queue as before the rebase. A new
revision someone has added to the git index since is left alone.
"""

from __future__ import annotations

import os
import shutil
import stat

from curator.operations import journal as store
from curator.operations.committed import committed_status
from curator.proposals.layout import PROPOSALS_DIR
from curator.vault.discover import Vault
from curator.vault.identity import is_ulid


def save(vault: Vault, old: str, new: str) -> None:
    store.save(vault, store.REBASE, {"old": old, "new": new})


def clear(vault: Vault) -> None:
    store.clear(vault, store.REBASE)


def recover(vault: Vault) -> str | None:
    """Finish or undo a rebase that was interrupted; what was done, if anything."""
    data = store.load(vault, store.REBASE, lambda d: (str(d["old"]), str(d["new"])))
    if data is None:
        return None
    old, new = data
    clear(vault)
    if not (is_ulid(old) and is_ulid(new)):
        return None
    if committed_status(vault, old) == "superseded":
        return f"finished the interrupted rebase of {old} into {new}"
    folder = os.path.join(vault.root, PROPOSALS_DIR, new)
    try:
        st = os.lstat(folder)
    except FileNotFoundError:
        return f"undid the interrupted rebase of {old}: nothing was staged"
    tracked = any(e.path.startswith(f"{PROPOSALS_DIR}/{new}/") for e in vault.repo.index)
    if tracked or not stat.S_ISDIR(st.st_mode):
        return f"left {PROPOSALS_DIR}/{new} of an interrupted rebase of {old}: it is in the git index"
    shutil.rmtree(folder, ignore_errors=True)
    return f"undid the interrupted rebase of {old}: its new revision {new} is taken back, {old} still waits"
