"""Reconcile: bring the serving epoch up to date with the vault, doing only what changed.

An unchanged vault costs a stat walk and one read of the index: no git, no YAML,
nothing written, nothing sent. Anything that differs (a file's size or mtime, a
new or vanished path, git's ignore rules, the config) takes the full path: git
classifies the tree, changed files are hashed, identical bytes are not
re-chunked, and only passages whose text changed are embedded again.
"""

from __future__ import annotations

import errno
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import apsw

from curator import clock, cores, faults
from curator.embedders import all_embedders
from curator.embedders import base as embedders
from curator.errors import EmbedderError, IndexError_
from curator.index import db
from curator.index import epoch as epochs
from curator.index.db import ATTACHMENT
from curator.index.db import VAULT as SOURCE
from curator.index.epoch import mismatch_message, open_checked, outdated
from curator.index.freshness import sentinels_of, unchanged
from curator.index.normalise import tokenizer
from curator.index.outcome import EmbedResult
from curator.settings import Settings
from curator.vault.discover import Vault

if TYPE_CHECKING:
    from curator.index.sources import SyncReport

Progress = Callable[[str, int, int], None]
Announce = Callable[[str], None]


@dataclass
class Report:
    indexed: int = 0
    unchanged: int = 0
    removed: int = 0
    passages: int = 0
    written: int = 0
    reused: int = 0
    embed: EmbedResult = field(default_factory=EmbedResult)
    seconds: float = 0.0
    skips: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    epoch: str = ""
    fast: bool = False
    sources: SyncReport | None = None
    workers: int = 0
    """Processes that read and parsed the changed notes (0: none needed reading)."""


def _read_changes(
    vault: Vault, settings: Settings, conn: apsw.Connection, sentinels: Any, report: Report, progress: Progress | None
) -> None:
    """The full path: what a stat walk found changed is read, chunked and written."""
    from curator.index.full_path import full_path  # heavy: git, the chunker, the writer; an unchanged vault skips it

    full_path(vault, settings, conn, sentinels, report, progress)


def _carry_over(conn: apsw.Connection, previous: str, fingerprint: dict[str, object]) -> int:
    from curator.index.embedding import carry_over  # heavy: the leak scanner, loaded only by a rebuild

    return carry_over(conn, previous, fingerprint)


def _create(index_dir: str, fp: dict[str, Any], mode: str) -> tuple[epochs.Epoch, apsw.Connection]:
    ep = epochs.new(index_dir, fp)
    conn = db.connect(ep.path)
    dims = int(fp["embedder"]["dims"])
    db.building(conn)
    db.create_schema(conn, tokenizer=tokenizer(mode), dims=dims)
    with conn:
        db.set_json(conn, "fingerprint", fp)
        db.set_meta(conn, "created", clock.iso())
    return ep, conn


def _spec_of(conn: apsw.Connection, configured: embedders.EmbedderSpec | None) -> embedders.EmbedderSpec:
    fp = db.get_json(conn, "fingerprint")
    base_url = configured.base_url if configured and configured.provider == fp["embedder"]["provider"] else None
    return embedders.from_fingerprint(fp["embedder"], base_url)


def _sources(
    vault: Vault,
    settings: Settings,
    index_dir: str,
    conn: apsw.Connection,
    report: Report,
    progress: Progress | None,
    sync: Collection[str] | bool,
) -> None:
    """Sync the configured sources; costs one query when there are none and none were."""
    held = conn.execute(
        "SELECT 1 FROM documents WHERE source NOT IN (?, ?) LIMIT 1", (SOURCE, ATTACHMENT)
    ).fetchone() or db.get_meta(conn, "sources") not in (None, "{}")
    if not settings.sources and not held:
        return
    from curator.index.sources import sync_sources  # heavy: every source adapter; most vaults have none

    report.sources = sync_sources(conn, vault.root, settings, index_dir, force=sync, progress=progress)
    if report.sources.wrote:
        report.fast = False


def _finish(conn: apsw.Connection, ep: epochs.Epoch, report: Report, started: float) -> None:
    wrote = not report.fast or report.embed.embedded or report.embed.withheld or report.embed.rejected
    if not report.fast or (report.sources is not None and report.sources.wrote):
        from curator.index import boilerplate

        boilerplate.refresh(conn)  # which passages many documents repeat, now that documents changed
    if wrote:
        with conn:
            db.set_meta(conn, "last_reconcile", clock.iso())
            db.set_meta(conn, "last_reconcile_seconds", f"{time.perf_counter() - started:.3f}")
    report.passages = db.count(conn, "SELECT count(*) FROM passages")
    report.skips = [(p, r) for p, r in conn.execute("SELECT path, reason FROM skips ORDER BY path")]
    if wrote:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    if wrote:
        epochs.mark_trusted(ep)
    report.epoch = ep.id
    report.seconds = time.perf_counter() - started


def _embed(
    conn: apsw.Connection,
    spec: embedders.EmbedderSpec,
    settings: Settings,
    report: Report,
    progress: Progress | None,
    announce: Announce | None = None,
    backlog: bool = True,
) -> None:
    if spec.provider == "none":
        return
    pending, chars = db.one(
        conn, "SELECT count(*), coalesce(sum(length(breadcrumb) + length(text) + 1), 0) FROM passages WHERE vec = 0"
    )
    if not pending:
        return
    few = chars <= embedders.FEW_CHARS
    if not few and not backlog:
        # More than a few edited notes hold (an interrupted first index, an applied adopt of a
        # vault still embedding): a read that reconciles on its way would spend minutes on them,
        # silently. They stay pending, ranked by their words; `curator index` embeds them.
        return
    try:
        if not few and announce:
            announce(f"embedding {pending} passages with {spec.describe()}")
        embedder = all_embedders.create(spec, few=few)
    except EmbedderError as e:
        report.embed.error = str(e)
    else:
        done = [0]

        def tick(n: int) -> None:
            done[0] += n
            if progress:
                progress("embedding", done[0], pending)

        from curator.index.embedding import embed_pending  # heavy: the leak scanner; nothing is pending mostly

        report.embed = embed_pending(conn, embedder, settings.embedder.batch_size, tick)
    if report.embed.error:
        left = db.count(conn, "SELECT count(*) FROM passages WHERE vec = 0")
        report.warnings.append(
            f"embedder unavailable ({report.embed.error}); {left} passage(s) are found lexically until it is back"
        )


def reconcile(
    vault: Vault,
    settings: Settings,
    index_dir: str,
    progress: Progress | None = None,
    lock_wait: float = 60.0,
    sync: Collection[str] | bool = False,
    announce: Announce | None = None,
    upgrade: bool = True,
    backlog: bool = True,
) -> Report:
    """Reconcile the serving epoch and its sources; ``sync`` names sources to read even if
    their files did not change (True: all). IndexError_ when another indexer holds the
    index past ``lock_wait`` seconds. Without ``backlog``, passages waiting for vectors are
    embedded only when they are few (``embedders.FEW_CHARS`` of text); more are left pending.

    The serving epoch's sidecar lets a reconcile skip the integrity check, so damage that
    left the file's size and mtime alone (bit rot, a stray write) shows up as SQLite's own
    error halfway through: then the epoch is moved aside and the reconcile runs once more,
    which builds a new one.

    An epoch an older Curator built is replaced by a new one when ``upgrade``; without it
    (a search bringing the index up to date on the way) it is left alone and said so.
    """
    try:
        return _reconcile(vault, settings, index_dir, progress, lock_wait, sync, announce, upgrade, backlog)
    except (apsw.Error, OSError) as e:
        _raise_unwritable(index_dir, e)
        if not db.is_corruption(e):
            raise
        damage = e
    with epochs.writer_lock(index_dir, wait_seconds=lock_wait, waiting=announce):
        ep = epochs.serving(index_dir)
        where = epochs.quarantine(ep) if ep is not None else None
    report = _reconcile(vault, settings, index_dir, progress, lock_wait, sync, announce, upgrade, backlog)
    if where:
        report.warnings.insert(0, f"the index was corrupt ({damage}); moved it to {where} and rebuilt it")
    return report


def _raise_unwritable(index_dir: str, e: BaseException) -> None:
    """A read-only file system or folder is the environment's doing: one line, exit 2."""

    if (
        isinstance(e, apsw.ReadOnlyError | apsw.CantOpenError)
        or db.out_of_room(e)
        or (isinstance(e, OSError) and e.errno in (errno.EACCES, errno.EROFS, errno.EPERM, errno.ENOTDIR, errno.ENOSPC))
    ):
        raise epochs.unwritable(index_dir, e) from None


def _reconcile(
    vault: Vault,
    settings: Settings,
    index_dir: str,
    progress: Progress | None,
    lock_wait: float,
    sync: Collection[str] | bool,
    announce: Announce | None,
    upgrade: bool = True,
    backlog: bool = True,
) -> Report:
    started = time.perf_counter()
    report = Report()
    sentinels = sentinels_of(vault)
    mode = settings.index.normalisation
    config_error = ""
    try:
        configured: embedders.EmbedderSpec | None = embedders.resolve(settings)
    except EmbedderError as e:
        configured = None
        config_error = str(e)
    cores.check_environment()
    with epochs.writer_lock(index_dir, wait_seconds=lock_wait, waiting=announce) as took_over:
        if took_over:
            report.warnings.append(took_over)
        ep = epochs.serving(index_dir)
        conn = None
        if ep is not None:
            # Holding the writer lock, no rebuild is running: an epoch file that is not
            # serving is what a killed rebuild left behind.
            epochs.prune(index_dir, keep=ep)
            try:
                conn = open_checked(ep)
            except (apsw.CorruptError, apsw.NotADBError, apsw.SQLError, apsw.IOError) as e:
                if db.out_of_room(e):
                    raise  # a full disk, not a damaged epoch: it serves again once there is room
                where = epochs.quarantine(ep)
                report.warnings.append(f"the index was corrupt ({e}); moved it to {where} and rebuilt it")
                ep = None
        old = outdated(db.get_json(conn, "fingerprint")) if conn is not None else None
        if old is not None and conn is not None and not upgrade:
            conn.close()
            report.warnings.append(epochs.outdated_message(old))
            report.fast = True
            report.epoch = ep.id if ep is not None else ""
            report.seconds = time.perf_counter() - started
            return report
        previous = None
        if old is not None and conn is not None:
            conn.close()
            report.warnings.append(f"the index was built by an older Curator ({old}); built a new epoch")
            previous, ep, conn = ep, None, None
        if ep is None or conn is None:
            if configured is None:
                raise EmbedderError(config_error)
            fp = epochs.fingerprint(configured, mode)
            ep, conn = _create(index_dir, fp, mode)
            _read_changes(vault, settings, conn, sentinels, report, progress)
            if previous is not None:  # before the swap prunes it
                report.reused += _carry_over(conn, previous.path, configured.fingerprint())
            db.serving(conn)
            epochs.swap(ep)  # lexical answers from here on; vectors follow
            epochs.prune(index_dir, keep=ep)
        else:
            fp = db.get_json(conn, "fingerprint")
            if configured is None:
                # The config names no embedder this can run: the serving epoch's goes on, said so.
                report.warnings.append(epochs.unusable_message(config_error, fp))
            elif fp != epochs.fingerprint(configured, mode):
                report.warnings.append(mismatch_message(fp, epochs.fingerprint(configured, mode), conn))
            if unchanged(vault, conn, sentinels):
                report.fast = True
                report.unchanged = db.count(
                    conn, "SELECT count(*) FROM documents WHERE source IN (?, ?)", (SOURCE, ATTACHMENT)
                )
            else:
                _read_changes(vault, settings, conn, sentinels, report, progress)
        _sources(vault, settings, index_dir, conn, report, progress, sync)
        if configured is not None and configured.note:
            report.warnings.append(configured.note)
        _embed(conn, _spec_of(conn, configured), settings, report, progress, announce, backlog)
        _finish(conn, ep, report, started)
    return report


def rebuild(
    vault: Vault,
    settings: Settings,
    index_dir: str,
    progress: Progress | None = None,
    announce: Announce | None = None,
) -> Report:
    """Build a new epoch from the config beside the serving one; swap only when it is complete."""
    started = time.perf_counter()
    report = Report()
    spec = embedders.resolve(settings)
    mode = settings.index.normalisation
    fp = epochs.fingerprint(spec, mode)
    cores.check_environment()
    with epochs.writer_lock(index_dir, waiting=announce) as took_over:
        if took_over:
            report.warnings.append(took_over)
        ep, conn = _create(index_dir, fp, mode)
        try:
            _read_changes(vault, settings, conn, sentinels_of(vault), report, progress)
            _sources(vault, settings, index_dir, conn, report, progress, True)
            serving = epochs.serving(index_dir)
            if serving is not None:
                report.reused += _carry_over(conn, serving.path, spec.fingerprint())
            db.serving(conn)
            if spec.note:
                report.warnings.append(spec.note)
            _embed(conn, spec, settings, report, progress, announce)
            pending = db.count(conn, "SELECT count(*) FROM passages WHERE vec = 0")
            check = conn.execute("PRAGMA quick_check").fetchall()
            if pending or check != [("ok",)]:
                why = f"{pending} passage(s) lack vectors" if pending else f"integrity check: {check[0][0]}"
                raise IndexError_(
                    f"the new epoch is incomplete ({why}); the serving epoch is unchanged",
                    hint=report.embed.error or "run it again",
                )
            _finish(conn, ep, report, started)
        except BaseException:
            try:
                conn.close()
            finally:
                epochs.remove_files(ep)
            raise
        faults.point("rebuild:before-swap")
        epochs.swap(ep)
        faults.point("rebuild:after-swap")
        epochs.prune(index_dir, keep=ep)
    return report
