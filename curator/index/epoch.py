"""Epochs: one database per (embedder, chunker, normalisation) fingerprint.

``<index dir>/CURRENT`` names the serving epoch's file under ``epochs/``. A new
epoch is built beside it and swapped in by replacing CURRENT with a rename, so
a crash mid-build leaves the serving epoch untouched. A sidecar ``.ok`` file
records the database's size and mtime after every clean write session: when
they still match, the database is trusted without a full integrity check.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import apsw

from curator import clock
from curator.attachments import VERSIONS as EXTRACTION_VERSIONS
from curator.embedders.base import EmbedderSpec
from curator.errors import IndexError_, IndexUnwritable
from curator.fsutil import fsync_dir, write_atomic
from curator.index import db
from curator.index.db import SCHEMA_VERSION
from curator.index.versions import CHUNKER_VERSION, NORMALISATION_VERSION
from curator.locations import make_private
from curator.pids import alive
from curator.vault.identity import new_ulid

FILE_MODE = 0o600
"""Every file in the index folder: an epoch holds every note's text unredacted."""
POINTER = "CURRENT"
EPOCHS = "epochs"


def fingerprint(spec: EmbedderSpec, mode: str) -> dict[str, Any]:
    return {
        "embedder": spec.fingerprint(),
        "chunker": CHUNKER_VERSION,
        "normalisation": {"version": NORMALISATION_VERSION, "mode": mode},
        "schema": SCHEMA_VERSION,
        # How attachments become pages and headings: a new adapter version re-reads them all.
        "extraction": dict(EXTRACTION_VERSIONS),
    }


def fingerprint_id(fp: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(fp, sort_keys=True).encode()).hexdigest()[:16]


def describe(fp: dict[str, Any]) -> str:
    e = fp["embedder"]
    emb = "none" if e["provider"] == "none" else f"{e['provider']}:{e['model']}/{e['dims']}"
    if e.get("runtime"):
        emb += f"/{e['runtime']}"
    return f"{emb}, chunker v{fp['chunker']}, {fp['normalisation']['mode']} v{fp['normalisation']['version']}"


@dataclass(frozen=True)
class Epoch:
    index_dir: str
    name: str

    @property
    def path(self) -> str:
        return os.path.join(self.index_dir, EPOCHS, self.name)

    @property
    def id(self) -> str:
        return self.name.removesuffix(".sqlite")

    @property
    def sidecar(self) -> str:
        return self.path + ".ok"


def serving(index_dir: str) -> Epoch | None:
    try:
        with open(os.path.join(index_dir, POINTER), encoding="utf-8") as f:
            name = f.read().strip()
    except FileNotFoundError:
        return None
    if not name or "/" in name or not os.path.exists(os.path.join(index_dir, EPOCHS, name)):
        return None
    return Epoch(index_dir, name)


def new(index_dir: str, fp: dict[str, Any]) -> Epoch:
    epoch = Epoch(index_dir, f"e-{fingerprint_id(fp)}-{new_ulid().lower()}.sqlite")
    try:
        make_private(index_dir)
        make_private(os.path.join(index_dir, EPOCHS))
        # Made 0600 before SQLite opens it, which would make it 0644 (less the umask): its
        # -wal and -shm files take the database file's mode.
        os.close(os.open(epoch.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE))
    except OSError as e:
        raise unwritable(index_dir, e) from None
    return epoch


def swap(epoch: Epoch) -> None:
    write_atomic(os.path.join(epoch.index_dir, POINTER), (epoch.name + "\n").encode(), FILE_MODE)
    fsync_dir(epoch.index_dir)


def remove_files(epoch: Epoch) -> None:
    for suffix in ("", "-wal", "-shm", ".ok"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(epoch.path + suffix)


def prune(index_dir: str, keep: Epoch) -> None:
    """Delete every other epoch: readers that still hold one open keep reading it."""
    folder = os.path.join(index_dir, EPOCHS)
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return
    for name in names:
        if name.endswith(".sqlite") and name != keep.name:
            remove_files(Epoch(index_dir, name))


def quarantine(epoch: Epoch) -> str:
    """Move a corrupt epoch aside (kept for inspection, never read again)."""
    target = f"{epoch.path}.corrupt-{int(time.time())}"
    with contextlib.suppress(FileNotFoundError):
        os.replace(epoch.path, target)
    for suffix in ("-wal", "-shm", ".ok"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(epoch.path + suffix)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(os.path.join(epoch.index_dir, POINTER))
    return target


def _stat_key(path: str) -> list[int] | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return [st.st_size, st.st_mtime_ns]


def trusted(epoch: Epoch) -> bool:
    try:
        with open(epoch.sidecar, encoding="utf-8") as f:
            recorded = json.load(f)
    except (OSError, ValueError):
        return False
    return bool(recorded == {"db": _stat_key(epoch.path), "wal": _stat_key(epoch.path + "-wal")})


def mark_trusted(epoch: Epoch) -> None:
    data = {"db": _stat_key(epoch.path), "wal": _stat_key(epoch.path + "-wal")}
    write_atomic(epoch.sidecar, json.dumps(data).encode(), FILE_MODE)


LOCK = "writer.lock"


@contextlib.contextmanager
def writer_lock(
    index_dir: str, wait_seconds: float = 60.0, waiting: Callable[[str], None] | None = None
) -> Iterator[str | None]:
    """One indexer at a time per index; readers never take it.

    A POSIX record lock (``lockf``), not ``flock``: a forked worker process does not
    inherit it, so only the indexer itself holds it, and the kernel drops it the moment
    that process dies, however it dies. The file records the holder's pid; yields a
    one-line note when the previous holder died without letting go. ``waiting`` is told at
    once, in one line, when another indexer holds the lock and this one waits for it.
    """
    path = os.path.join(index_dir, LOCK)
    try:
        make_private(index_dir)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
    except OSError as e:
        raise unwritable(index_dir, e) from None
    try:
        deadline = time.monotonic() + wait_seconds
        while True:
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                who = f" (pid {holder})" if holder.isdigit() else ""
                if time.monotonic() > deadline:
                    waited = f"; waited {clock.duration(wait_seconds)}" if wait_seconds >= 1 else ""
                    raise IndexError_(
                        f"another curator{who} is indexing this vault{waited}", hint="wait for it to finish"
                    ) from None
                if waiting is not None and wait_seconds >= 1:
                    waiting(
                        f"another curator{who} is indexing this vault; waiting up to "
                        f"{clock.duration(wait_seconds)} for it to finish"
                    )
                    waiting = None
                time.sleep(0.05)
        previous = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        note = None
        if previous.isdigit() and int(previous) != os.getpid() and not alive(int(previous)):
            note = f"the indexer before this one (pid {previous}) was stopped before it finished; carrying on"
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        try:
            yield note
        finally:
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)


def unwritable(index_dir: str, e: BaseException) -> IndexUnwritable:
    """The one-line error for an index folder Curator cannot create or write."""
    full = db.out_of_room(e) or (isinstance(e, OSError) and e.errno == errno.ENOSPC)
    if db.out_of_room(e):
        why = f"no space left on device (SQLite: {e})"
    else:
        why = (e.strerror if isinstance(e, OSError) else None) or str(e)
    return IndexUnwritable(
        f"cannot write the index folder {index_dir}: {why}",
        hint=f"{'free some space there' if full else 'make it writable'}, "
        "or choose another with --index-dir or CURATOR_INDEX_DIR",
    )


def open_checked(ep: Epoch) -> apsw.Connection:
    """The epoch's database, integrity-checked unless its sidecar vouches for it; CorruptError otherwise."""
    conn = db.connect(ep.path)
    if not trusted(ep):
        result = conn.execute("PRAGMA quick_check").fetchall()
        if result != [("ok",)]:
            conn.close()
            raise apsw.CorruptError(f"integrity check: {result[0][0] if result else 'no answer'}")
    if db.get_meta(conn, "fingerprint") is None:
        conn.close()
        raise apsw.CorruptError("not a Curator index (no fingerprint)")
    return conn


def outdated(fp: dict[str, object]) -> str | None:
    """What in ``fp`` an older Curator wrote (chunker, normalisation or schema version), or None.

    Passages chunked or tokenised the old way must never sit beside new ones in one
    epoch: such an epoch is rebuilt, not written to."""
    norm = fp.get("normalisation")
    old: list[str] = []
    if fp.get("chunker") != CHUNKER_VERSION:
        old.append(f"chunker v{fp.get('chunker')}")
    if not isinstance(norm, dict) or norm.get("version") != NORMALISATION_VERSION:
        old.append(f"normalisation v{norm.get('version') if isinstance(norm, dict) else '?'}")
    if fp.get("schema", 1) != SCHEMA_VERSION:
        old.append(f"schema v{fp.get('schema', 1)}")
    if fp.get("extraction") != EXTRACTION_VERSIONS:
        had = fp.get("extraction")
        kinds = ", ".join(f"{k} v{v}" for k, v in sorted(had.items())) if isinstance(had, dict) else "none"
        old.append(f"attachment extraction ({kinds})")
    return ", ".join(old) or None


def unusable_message(error: str, serving: dict[str, Any]) -> str:
    """What is said when the config names an embedder that cannot run (``error``) and an epoch
    serves: that epoch goes on, by its own embedder."""
    return f"{error}; the index goes on with {describe(serving)}"


def outdated_message(old: str) -> str:
    """What to do with an epoch an older Curator built (``outdated``): `curator index` builds its
    successor from the config, whatever else the config changed."""
    return f"the index was built by an older Curator ({old}); run `curator index` to rebuild it"


def mismatch_message(serving: dict[str, Any], configured: dict[str, Any], conn: apsw.Connection | None = None) -> str:
    """What to do when the config and the serving epoch disagree. With the serving epoch's
    connection, how much a rebuild would embed (its passages, and the time at the rate the
    last embedding run measured); and when the serving epoch is lexical, how to stay so."""
    text = (
        f"the config asks for {describe(configured)} but the serving epoch is "
        f"{describe(serving)}; run `curator index rebuild`"
    )
    wanted = configured["embedder"]["provider"]
    # The same embedder (only the normalisation or chunking moved): a rebuild carries every
    # unchanged passage's vector over and embeds nothing of it.
    if wanted != "none" and conn is not None and serving.get("embedder") != configured.get("embedder"):
        passages = db.passage_count(conn)
        rate = db.embed_rate(conn)
        eta = f", about {clock.duration(passages / rate)} at {rate:.0f} passages/s" if rate else ""
        text += f" (it embeds {passages} passage(s){eta})"
    if wanted != "none" and serving["embedder"]["provider"] == "none":
        text += "; or, to stay lexical, set `embedder.provider: none` in .kp/config.yaml"
    return text
