"""Opening the serving epoch for reading, brought up to date first when that is cheap.

Every reader surface warns when the config asks for another epoch than the one
serving; a corrupt database is never read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import apsw

from curator import output
from curator.commands.app import App
from curator.errors import EmbedderError, IndexCorrupt, IndexError_, IndexUnwritable
from curator.index import db
from curator.index import epoch as epochs


@dataclass
class Opened:
    conn: apsw.Connection
    epoch: epochs.Epoch
    warnings: list[str] = field(default_factory=list)
    base_url: str | None = None


def _mismatch(app: App, conn: apsw.Connection) -> tuple[str | None, str | None]:
    from curator.embedders import base as embedders
    from curator.index.serving import mismatch_message

    settings = app.settings()
    try:
        spec = embedders.resolve(settings)
    except EmbedderError:
        return None, None
    serving = db.get_json(conn, "fingerprint")
    wanted = epochs.fingerprint(spec, settings.index.normalisation)
    base_url = spec.base_url if spec.provider == serving["embedder"]["provider"] else None
    return (mismatch_message(serving, wanted, conn) if serving != wanted else None), base_url


def open_serving(app: App, *, refresh: bool = True) -> Opened:
    index_dir = app.index_dir()
    warnings: list[str] = []
    if refresh:
        warnings += _refresh(app, index_dir)
    ep = epochs.serving(index_dir)
    if ep is None:
        raise IndexError_("no index yet", hint="run `curator index`")
    try:
        conn = db.connect(ep.path)
        if db.get_meta(conn, "fingerprint") is None:
            raise apsw.CorruptError("no fingerprint")
        mismatch, base_url = _mismatch(app, conn)
    except (apsw.CorruptError, apsw.NotADBError, apsw.SQLError) as e:
        raise IndexCorrupt(f"the index is corrupt ({e})", hint="run `curator index` to rebuild it") from None
    if mismatch:
        warnings.append(mismatch)
    return Opened(conn, ep, warnings, base_url)


def _refresh(app: App, index_dir: str) -> list[str]:
    """Reconcile first when the vault changed and no other indexer is running."""
    from curator.index import freshness, reconcile

    ep = epochs.serving(index_dir)
    if ep is None:
        return []
    vault = app.vault()
    try:
        conn = db.connect(ep.path)
        try:
            stale = not freshness.unchanged(vault, conn, freshness.sentinels_of(vault))
        finally:
            conn.close()
    except (apsw.Error, OSError):
        return []  # open_serving reports what is wrong
    if not stale:
        return []
    try:
        report = reconcile.reconcile(vault, app.settings(), index_dir, lock_wait=0, upgrade=False)
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
