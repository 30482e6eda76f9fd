"""What a command does when SQLite says the serving epoch is damaged: move it aside and
build a new one, so the next command answers (the vault is canonical; nothing is lost).

Readers trust an epoch whose sidecar vouches for its size and mtime, so damage that left
both alone is met only when a query reads the damaged page. SQLite's error there is the
integrity check: the epoch is not read again.
"""

from __future__ import annotations

from curator.errors import IndexCorrupt
from curator.index import epoch as epochs
from curator.index.db import is_corruption
from curator.index.reconcile import reconcile
from curator.settings import Settings
from curator.vault.discover import Vault


def is_damage(e: BaseException) -> bool:
    if isinstance(e, IndexCorrupt):
        return True
    if type(e).__module__ != "apsw":  # apsw is imported already when it raised
        return False

    return is_corruption(e)


def rebuild_after_damage(vault: Vault, settings: Settings, index_dir: str, error: BaseException) -> IndexCorrupt:
    """Quarantine the serving epoch and rebuild it; the one-line error that says so."""
    with epochs.writer_lock(index_dir):
        ep = epochs.serving(index_dir)
        where = epochs.quarantine(ep) if ep is not None else None
    detail = error.message if isinstance(error, IndexCorrupt) else f"the index is corrupt ({error})"
    if where is None:
        return IndexCorrupt(detail, hint="run `curator index` to rebuild it")
    report = reconcile(vault, settings, index_dir)
    return IndexCorrupt(
        f"{detail}; moved it to {where} and rebuilt it ({report.passages} passages)", hint="run the command again"
    )
