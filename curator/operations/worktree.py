"""The one work-tree writer of apply, propose and decisions: files put to blobs' bytes, or removed.

Every path is checked again where it is joined (``vault.paths.checked_join``): a symlink
may have appeared on it since validation. Writes are durable and atomic (``fsutil``), a
batch of them fsynced together; nothing is written through a symlinked folder.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from curator import output
from curator.errors import WriteRefused
from curator.fsutil import remove_file, tmp_leftovers, write_atomic, write_many
from curator.vault import git
from curator.vault.discover import Vault
from curator.vault.paths import UnsafePath, checked_join

Put = tuple[str, "str | None", int]
"""(path, blob id or None to remove the file, git file mode)."""


def _file_mode(mode: int) -> int | None:
    return 0o755 if mode == 0o100755 else None


def blob_bytes(vault: Vault, oid: str | None) -> bytes | None:
    if oid is None:
        return None
    return git.blob(vault.repo, oid)


def current_blob(vault: Vault, path: str) -> str | None:
    """The blob id of the work tree's file at ``path`` (None: no such regular file, or unsafe)."""
    # pygit2 on the decision and recovery paths only (a fast path never calls this).
    import pygit2

    try:
        with open(checked_join(vault.root, path), "rb") as f:
            return str(pygit2.hash(f.read()))
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError, UnsafePath):
        return None


def put_bytes(vault: Vault, path: str, data: bytes | None, mode: int = 0o100644) -> None:
    """The work tree's ``path`` holding ``data`` (None: removed)."""
    full = checked_join(vault.root, path)
    if data is None:
        remove_file(full)
    else:
        write_atomic(full, data, _file_mode(mode), within=vault.root)


def put(vault: Vault, path: str, oid: str | None, mode: int = 0o100644) -> None:
    """The work tree's ``path`` holding blob ``oid`` (None: removed)."""
    data = blob_bytes(vault, oid)
    assert oid is None or data is not None
    put_bytes(vault, path, data, mode)


def put_many(
    vault: Vault,
    changes: Sequence[Put],
    after_first: Callable[[], None] | None = None,
    known: dict[str, bytes] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """``put`` for many at once: removals, then one batched durable write.
    ``known``: bytes of some of those blobs, already in memory. ``progress(done, total)`` after
    each file is in place."""
    done = 0

    def one_done(_n: int = 0) -> None:
        nonlocal done
        done += 1
        if done == 1 and after_first is not None:
            after_first()
        if progress is not None:
            progress(done, len(changes))

    writes: list[tuple[str, bytes, int | None]] = []
    for path, oid, mode in changes:
        full = checked_join(vault.root, path)
        if oid is None:
            remove_file(full)
            one_done()
        else:
            data = known.get(oid) if known else None
            data = data if data is not None else blob_bytes(vault, oid)
            assert data is not None
            writes.append((full, data, _file_mode(mode)))
    write_many(writes, one_done, within=vault.root)


def sweep(vault: Vault, paths: Sequence[str]) -> None:
    """Remove the temp files a killed batched write left beside ``paths``."""
    for path in paths:
        try:
            full = checked_join(vault.root, path)
        except UnsafePath:
            continue
        for tmp in tmp_leftovers(full):
            remove_file(tmp)


def put_back(vault: Vault, steps: Sequence[tuple[str, str | None, str | None, int]]) -> list[str]:
    """Undo writes: each (path, blob before, blob written, mode) goes back to its blob before, unless
    someone changed the file since (it holds neither): those paths are returned, left as they are."""
    sweep(vault, [path for path, _b, _a, _m in steps])
    left: list[str] = []
    back: list[Put] = []
    for path, before, after, mode in steps:
        now = current_blob(vault, path)
        if now == before:
            continue
        if now != after:
            left.append(path)
            continue
        back.append((path, before, mode))
    try:
        put_many(vault, back)
    except (UnsafePath, WriteRefused, FileNotFoundError):
        # A symlink appeared on one of the paths since: put the rest back one by one.
        for path, before, mode in back:
            try:
                put(vault, path, before, mode)
            except (UnsafePath, WriteRefused):
                left.append(path)
            except FileNotFoundError:
                pass
    return left


def report_left(left: Sequence[str], what: str = "an interrupted apply") -> None:
    for path in left:
        output.warn(f"{path} changed after {what}; left as it is")
