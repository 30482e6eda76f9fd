"""Opening the serving epoch for reading, brought up to date first when that is cheap.

Every reader surface warns when the config asks for another epoch than the one serving
(``epoch.mismatch_message``), and a corrupt database is never read. ``reconcile_if_stale`` is the one "bring it up to date first" the
CLI's readers and the MCP server's background loop share: a stat walk when nothing changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import apsw

from curator import output
from curator.embedders import base as embedders
from curator.errors import EmbedderError, IndexCorrupt, IndexError_, IndexUnwritable
from curator.index import db, freshness, reconcile
from curator.index import epoch as epochs
from curator.settings import Settings
from curator.vault.discover import Vault


@dataclass
class Opened:
    conn: apsw.Connection
    epoch: epochs.Epoch
    warnings: list[str] = field(default_factory=list)
    base_url: str | None = None


def _mismatch(settings: Settings, conn: apsw.Connection) -> tuple[str | None, str | None]:
    try:
        spec = embedders.resolve(settings)
    except EmbedderError:
        return None, None
    serving = db.get_json(conn, "fingerprint")
    wanted = epochs.fingerprint(spec, settings.index.normalisation)
    base_url = spec.base_url if spec.provider == serving["embedder"]["provider"] else None
    return (epochs.mismatch_message(serving, wanted, conn) if serving != wanted else None), base_url


def open_serving(vault: Vault, settings: Settings, index_dir: str, *, refresh: bool = True) -> Opened:
    """The serving epoch of ``index_dir``, reconciled first (``refresh``) when the vault changed."""
    warnings: list[str] = []
    if refresh:
        warnings += reconcile_if_stale(vault, settings, index_dir)
    ep = epochs.serving(index_dir)
    if ep is None:
        raise IndexError_("no index yet", hint="run `curator index`")
    try:
        conn = db.connect(ep.path)
        if db.get_meta(conn, "fingerprint") is None:
            raise apsw.CorruptError("no fingerprint")
        mismatch, base_url = _mismatch(settings, conn)
    except (apsw.CorruptError, apsw.NotADBError, apsw.SQLError) as e:
        raise IndexCorrupt(f"the index is corrupt ({e})", hint="run `curator index` to rebuild it") from None
    except (apsw.FullError, apsw.IOError) as e:
        if db.out_of_room(e):
            raise epochs.unwritable(index_dir, e) from None
        raise
    if mismatch:
        warnings.append(mismatch)
    return Opened(conn, ep, warnings, base_url)


def reconcile_if_stale(
    vault: Vault, settings: Settings, index_dir: str, *, build: bool = False, upgrade: bool = False
) -> list[str]:
    """Reconcile when the vault changed since the serving epoch and no other indexer is running;
    with ``build``, also when there is no index yet; with ``upgrade``, an epoch an older Curator
    built is replaced (a reader only reads it). Returns the warnings to show."""
    ep = epochs.serving(index_dir)
    if ep is not None:
        try:
            conn = db.connect(ep.path, vectors=False)
            try:
                if freshness.unchanged(vault, conn, freshness.sentinels_of(vault)):
                    return []
            finally:
                conn.close()
        except (apsw.Error, OSError):
            return []  # open_serving reports what is wrong
    elif not build:
        return []
    try:
        report = reconcile.reconcile(vault, settings, index_dir, lock_wait=0, upgrade=upgrade)
    except IndexUnwritable as e:
        return [f"{e.message}; results may lag behind the vault"]
    except IndexCorrupt:
        raise
    except IndexError_:
        return ["another curator is indexing; results may lag behind the vault"]
    notes = [f"reconciled first: {report.indexed} indexed, {report.removed} removed"]
    return [*report.warnings, *notes] if report.indexed or report.removed else report.warnings


def report_warnings(opened: Opened | list[str]) -> None:
    for w in opened.warnings if isinstance(opened, Opened) else opened:
        if w.startswith("reconciled first"):
            output.note(w)
        else:
            output.warn(w)
