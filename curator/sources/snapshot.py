"""A private copy of someone else's SQLite database, to read without touching theirs.

Zotero keeps ``zotero.sqlite`` open, and by default in exclusive locking mode: once it
has written, no other process may even read through SQLite. So Curator never reads the
live file in place. It first asks SQLite's backup API (opened read-only) for a consistent
copy; when the file is locked past a short wait, it copies the bytes (and any ``-wal`` or
``-journal`` beside them) and lets SQLite's integrity check judge the copy, since a copy
taken while Zotero writes can be torn. The copy lives in a temporary folder outside the
vault and is removed when the read ends. The original is only ever opened read-only.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator

import apsw

from curator.errors import SourceError

BUSY_MS = 1000
"""How long the backup waits on a lock before copying bytes instead."""
_LOCKED = (apsw.BusyError, apsw.LockedError, apsw.ReadOnlyError, apsw.CantOpenError, apsw.IOError)


def _backup(path: str, copy: str) -> None:
    src = apsw.Connection(path, flags=apsw.SQLITE_OPEN_READONLY)
    try:
        src.set_busy_timeout(BUSY_MS)
        dst = apsw.Connection(copy)
        try:
            with dst.backup("main", src, "main") as b:
                b.step(-1)  # every page in one step: one read transaction, one consistent state
        finally:
            dst.close()
    finally:
        src.close()


def _copy_bytes(path: str, copy: str) -> None:
    for suffix in ("", "-wal", "-journal"):
        if suffix and not os.path.exists(path + suffix):
            continue
        try:
            shutil.copyfile(path + suffix, copy + suffix)
        except OSError as e:
            raise SourceError(f"cannot read {path + suffix}: {e.strerror}") from None


def _checked(copy: str) -> str | None:
    """None when the copy passes SQLite's quick check, else what is wrong."""
    try:
        conn = apsw.Connection(copy)
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
        finally:
            conn.close()
    except apsw.Error as e:
        return str(e)
    return None if rows == [("ok",)] else str(rows[0][0] if rows else "no answer")


@contextlib.contextmanager
def snapshot(path: str, label: str, scratch: str | None = None) -> Iterator[apsw.Connection]:
    """A connection to a fresh copy of the database at ``path`` (``label`` names it in errors)."""
    if not os.path.exists(path):
        raise SourceError(f"no {label} at {path}")
    if os.path.isdir(path):
        raise SourceError(f"{path} is a folder, not a {label}")
    if scratch:
        os.makedirs(scratch, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="curator-copy-", dir=scratch)
    copy = os.path.join(folder, "copy.sqlite")
    try:
        try:
            _backup(path, copy)
        except apsw.NotADBError:
            raise SourceError(f"{path} is not a SQLite database, so not a {label}") from None
        except apsw.CorruptError as e:
            raise SourceError(f"{path} is corrupt ({e}); the {label} cannot be read") from None
        except _LOCKED:
            for suffix in ("", "-wal", "-journal"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(copy + suffix)
            _copy_bytes(path, copy)
            wrong = _checked(copy)
            if wrong is not None:
                raise SourceError(
                    f"{path} is locked, and the copy of its bytes fails SQLite's integrity check ({wrong})",
                    hint=f"the {label} may be corrupt, or it changed during the copy: sync again",
                ) from None
        conn = apsw.Connection(copy, flags=apsw.SQLITE_OPEN_READONLY)
        try:
            yield conn
        finally:
            conn.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
