"""The apply journal: what an apply is about to do, so an interrupted one can be finished
or undone. It lives in the git directory; every byte it names is a blob in the object
store, so nothing depends on the work tree surviving."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from curator import output
from curator.errors import WriteRefused
from curator.fsutil import remove_file, tmp_leftovers, write_atomic, write_many
from curator.operations.recovery import APPLY_JOURNAL as NAME
from curator.operations.recovery import clear_journal, read_journal, write_journal
from curator.vault.discover import Vault


@dataclass
class Step:
    path: str
    before: str | None
    """Blob id of the work-tree file before the apply (None: it did not exist)."""
    after: str | None
    """Blob id the apply writes (None: it removes the file)."""
    commit: str | None = None
    """Blob id that goes into the commit (differs from ``after`` when the user has edits)."""
    mode: int = 0o100644
    in_commit: bool = True


@dataclass
class Journal:
    proposal: str
    head: str | None
    commit: bool
    steps: list[Step] = field(default_factory=list)
    index_lock: list[int] | None = None
    """Device and inode of the index file Curator links to ``.git/index.lock`` (see gitindex)."""
    blobs: dict[str, bytes] = field(default_factory=dict, repr=False)
    """Bytes of blobs the apply just made, by id, so they are not read back (never saved)."""

    def save(self, vault: Vault) -> None:
        data = {
            "proposal": self.proposal,
            "head": self.head,
            "commit": self.commit,
            "steps": [asdict(s) for s in self.steps],
            "index_lock": self.index_lock,
        }
        write_journal(vault, NAME, data)


def _journal(data: dict[str, Any]) -> Journal:
    steps = [Step(**s) for s in data["steps"]]
    return Journal(data["proposal"], data["head"], data["commit"], steps, data.get("index_lock"))


def load(vault: Vault) -> Journal | None:
    """The journal of an apply under way (written before anything else)."""
    return read_journal(vault, NAME, _journal)


def clear(vault: Vault) -> None:
    clear_journal(vault, NAME)


def blob_bytes(vault: Vault, oid: str | None) -> bytes | None:
    if oid is None:
        return None
    return bytes(vault.repo[oid].data)


def current_blob(vault: Vault, path: str) -> str | None:
    import pygit2

    from curator.vault.paths import UnsafePath, checked_join

    try:
        with open(checked_join(vault.root, path), "rb") as f:
            return str(pygit2.hash(f.read()))
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError, UnsafePath):
        return None


def put(vault: Vault, path: str, oid: str | None, mode: int = 0o100644) -> None:
    from curator.vault.paths import checked_join

    # Checked again where the path is joined: a symlink may have appeared since validation.
    full = checked_join(vault.root, path)
    if oid is None:
        remove_file(full)
    else:
        data = blob_bytes(vault, oid)
        assert data is not None
        write_atomic(full, data, 0o755 if mode == 0o100755 else None, within=vault.root)


def put_many(
    vault: Vault,
    changes: Sequence[tuple[str, str | None, int]],
    after_first: Callable[[], None] | None = None,
    known: dict[str, bytes] | None = None,
) -> None:
    """``put`` for many (path, blob id, mode) at once: removals, then one batched durable write.
    ``known``: bytes of some of those blobs, already in memory."""
    from curator.vault.paths import checked_join

    done = 0

    def one_done(_n: int = 0) -> None:
        nonlocal done
        done += 1
        if done == 1 and after_first is not None:
            after_first()

    writes: list[tuple[str, bytes, int | None]] = []
    for path, oid, mode in changes:
        # Checked again where the path is joined: a symlink may have appeared since validation.
        full = checked_join(vault.root, path)
        if oid is None:
            remove_file(full)
            one_done()
        else:
            data = known.get(oid) if known else None
            data = data if data is not None else blob_bytes(vault, oid)
            assert data is not None
            writes.append((full, data, 0o755 if mode == 0o100755 else None))
    write_many(writes, one_done, within=vault.root)


def sweep(vault: Vault, journal: Journal) -> None:
    """Remove the temp files a killed batched write left beside the journal's paths."""
    from curator.vault.paths import UnsafePath, checked_join

    for step in journal.steps:
        try:
            full = checked_join(vault.root, step.path)
        except UnsafePath:
            continue
        for tmp in tmp_leftovers(full):
            remove_file(tmp)


def rollback(vault: Vault, journal: Journal) -> list[str]:
    """Put back every file the apply touched; files changed since by someone else are left."""
    from curator.vault.paths import UnsafePath

    sweep(vault, journal)
    left: list[str] = []
    back: list[tuple[str, str | None, int]] = []
    for step in journal.steps:
        now = current_blob(vault, step.path)
        if now == step.before:
            continue
        if now != step.after:
            left.append(step.path)
            continue
        back.append((step.path, step.before, step.mode))
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


def report_left(left: list[str]) -> None:
    for path in left:
        output.warn(f"{path} changed after an interrupted apply; left as it is")
