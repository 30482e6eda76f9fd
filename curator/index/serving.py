"""Opening the serving epoch for reading, brought up to date first when that is cheap.

Every reader surface warns when the config asks for another epoch than the one serving
(``epoch.mismatch_message``), and a corrupt database is never read. ``reconcile_if_stale`` is
the one "bring it up to date first" that every surface calls (the CLI's readers, search and the
digest, which also build a missing index, and the MCP server's background loop): a stat walk
when nothing changed. What it did and what went wrong come back as ``output.Notice``s, each
with its level.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import apsw

from curator.embedders import base as embedders
from curator.errors import EmbedderError, IndexCorrupt, IndexError_, IndexUnwritable
from curator.index import db, freshness
from curator.index import epoch as epochs
from curator.output import Notice
from curator.settings import Settings
from curator.vault.discover import Vault

if TYPE_CHECKING:
    from curator.index.reconcile import Announce, Progress


@dataclass
class Opened:
    conn: apsw.Connection
    epoch: epochs.Epoch
    warnings: list[Notice] = field(default_factory=list)
    base_url: str | None = None


def _mismatch(settings: Settings, conn: apsw.Connection) -> tuple[str | None, str | None]:
    serving = db.get_json(conn, "fingerprint")
    try:
        spec = embedders.resolve(settings)
    except EmbedderError as e:
        # Said by every read, as `curator index` says it: a mistyped CURATOR_EMBEDDER is not
        # silently the serving epoch's embedder.
        return epochs.unusable_message(str(e), serving), None
    wanted = epochs.fingerprint(spec, settings.index.normalisation)
    base_url = spec.base_url if spec.provider == serving["embedder"]["provider"] else None
    if serving == wanted:
        return None, base_url
    # An epoch an older Curator built: `curator index` builds its successor from the config, so
    # that is the one thing said (`index rebuild` beside it would contradict it).
    old = epochs.outdated(serving)
    if old is not None:
        return epochs.outdated_message(old), base_url
    return epochs.mismatch_message(serving, wanted, conn), base_url


def open_serving(
    vault: Vault,
    settings: Settings,
    index_dir: str,
    *,
    refresh: bool = True,
    build: bool = False,
    progress: Progress | None = None,
    announce: Announce | None = None,
) -> Opened:
    """The serving epoch of ``index_dir``, reconciled first (``refresh``) when the vault changed;
    ``build``, ``progress`` and ``announce`` as ``reconcile_if_stale`` takes them."""
    warnings: list[Notice] = []
    if refresh:
        warnings += reconcile_if_stale(vault, settings, index_dir, build=build, progress=progress, announce=announce)
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
        warnings.append(Notice(mismatch))
    return Opened(conn, ep, warnings, base_url)


NO_INDEX_YET = "no index yet: indexing the vault first"


def reconcile_if_stale(
    vault: Vault,
    settings: Settings,
    index_dir: str,
    *,
    build: bool = False,
    upgrade: bool = False,
    backlog: bool = False,
    progress: Progress | None = None,
    announce: Announce | None = None,
) -> list[Notice]:
    """Reconcile when the vault changed since the serving epoch and no other indexer is running;
    with ``upgrade``, an epoch an older Curator built is replaced (a reader only reads it).

    With ``build``, a vault with no index yet is indexed whole, as `curator index` does: the
    first search or digest answers rather than send the person to `curator index`. ``announce``
    hears that before the build starts (and any wait for another indexer, which a build waits
    out); ``progress`` follows it. A build's errors are raised: without an index there is
    nothing to answer from. A reconcile on the way embeds the passages waiting for vectors only
    when they are few, unless ``backlog`` (a reconciler in the background): a read does not wait
    minutes, unannounced, for what an interrupted first index left. Returns the notices to show."""
    ep = epochs.serving(index_dir)
    if ep is None:
        if not build:
            return []
        # The writer, with the chunker and the normaliser (16 ms of CPU on a busy machine): most
        # reads find nothing changed, and `curator ls`, `read` and `status` never need them.
        from curator.index import reconcile

        if announce is not None:
            announce(NO_INDEX_YET)
        report = reconcile.reconcile(vault, settings, index_dir, progress, announce=announce, upgrade=upgrade)
        return [Notice(w) for w in report.warnings]
    try:
        conn = db.connect(ep.path, vectors=False)
        try:
            if freshness.unchanged(vault, conn, freshness.sentinels_of(vault)):
                return []
        finally:
            conn.close()
    except (apsw.Error, OSError):
        return []  # open_serving reports what is wrong
    from curator.index import reconcile

    try:
        report = reconcile.reconcile(vault, settings, index_dir, lock_wait=0, upgrade=upgrade, backlog=backlog)
    except IndexUnwritable as e:
        return [Notice(f"{e.message}; results may lag behind the vault")]
    except IndexCorrupt:
        raise
    except IndexError_:
        return [Notice("another curator is indexing; results may lag behind the vault")]
    notices = [Notice(w) for w in report.warnings]
    if report.indexed or report.removed:
        notices.append(Notice(f"reconciled first: {report.indexed} indexed, {report.removed} removed", "note"))
    return notices
