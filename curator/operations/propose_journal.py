"""The propose journal: the staging folder a propose publishes and the files it restores after.

Saved (``journal``) before the staging folder is made; ``recover`` runs under the vault lock
(``recovery``): a proposal that reached its final folder has its restores finished (each
file still holding the user's edit goes back; one changed since is left); one that did not
is dropped, the user's files untouched. Staging folders a kill left are removed.
"""

from __future__ import annotations

import os
import shutil
import stat
from dataclasses import dataclass, field

from curator.fsutil import remove_file
from curator.operations import journal as store
from curator.operations import worktree
from curator.proposals.layout import PROPOSALS_DIR
from curator.vault import git
from curator.vault.discover import Vault
from curator.vault.paths import escape_reason, unsafe_reason

STAGING_PREFIX = ".staging-"


@dataclass
class Restore:
    """A work-tree file that goes back to its committed state once the proposal is staged."""

    path: str
    edited: str | None
    """Blob id of the file's bytes as the user left them (None: the user deleted it)."""
    restore: str | None
    """Blob id of the bytes it goes back to (HEAD's, as checkout writes them), or None to remove it."""
    mode: int = 0o100644
    data: bytes | None = field(default=None, repr=False)
    """Those bytes (kept out of the journal, which names them by blob id)."""


def restore_bytes(vault: Vault, r: Restore) -> bytes:
    if r.data is not None:
        return r.data
    assert r.restore is not None
    return git.blob(vault.repo, r.restore)


def _real_proposals_dir(vault: Vault) -> str | None:
    """``.kp/proposals`` when it is a real folder reached through no symlink, else None."""
    here = vault.root
    for part in PROPOSALS_DIR.split("/"):
        here = os.path.join(here, part)
        try:
            if not stat.S_ISDIR(os.lstat(here).st_mode):
                return None
        except FileNotFoundError:
            return None
    return here


def restore(vault: Vault, r: Restore) -> None:
    worktree.put_bytes(vault, r.path, None if r.restore is None else restore_bytes(vault, r), r.mode)


def save(vault: Vault, ulid: str, restores: list[Restore]) -> None:
    data = {
        "proposal": ulid,
        "restores": [{"path": r.path, "edited": r.edited, "restore": r.restore, "mode": r.mode} for r in restores],
    }
    store.save(vault, store.PROPOSE, data)


def clear(vault: Vault) -> None:
    store.clear(vault, store.PROPOSE)


def exists(vault: Vault) -> bool:
    return store.exists(vault, store.PROPOSE)


def recover(vault: Vault) -> list[str]:
    """Finish or undo a ``propose`` that was killed; returns what was done, one line each."""
    done: list[str] = []
    data = store.load(
        vault,
        store.PROPOSE,
        lambda d: (
            str(d["proposal"]),
            [Restore(r["path"], r["edited"], r["restore"], r["mode"]) for r in d["restores"]],
        ),
    )
    ulid, restores = data if data is not None else ("", [])
    root = _real_proposals_dir(vault)
    if data is not None and root and os.path.isdir(os.path.join(root, ulid)) and escape_reason(ulid) is None:
        left = []
        for r in restores:
            if unsafe_reason(vault.root, r.path):
                left.append(r.path)
                continue
            now = worktree.current_blob(vault, r.path)
            if now == r.restore:
                continue
            if now == r.edited:
                restore(vault, r)
                done.append(f"restored {r.path} (its edit is in proposal {ulid})")
            else:
                left.append(r.path)
        for path in left:
            done.append(f"left {path} as it is: it changed after the interrupted propose of {ulid}")
        done.append(f"finished the interrupted propose of {ulid}")
    elif data is not None:
        done.append(f"undid the interrupted propose of {ulid}: nothing was staged, your files are unchanged")
    done.extend(sweep_staging(vault))
    clear(vault)
    return done


def sweep_staging(vault: Vault) -> list[str]:
    """Remove staging folders a killed propose left (only ever called under the vault lock)."""
    root = _real_proposals_dir(vault)
    if root is None:
        return []
    try:
        entries = [e for e in os.scandir(root) if e.name.startswith(STAGING_PREFIX)]
    except (FileNotFoundError, NotADirectoryError):
        return []
    removed = []
    for e in entries:
        if e.is_dir(follow_symlinks=False):
            shutil.rmtree(e.path, ignore_errors=True)
        else:
            remove_file(e.path)
        removed.append(f"removed the unfinished staging folder {PROPOSALS_DIR}/{e.name}")
    return removed
