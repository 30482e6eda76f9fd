"""Updating entries of the git index without ever leaving a lock git cannot tell from a live one.

Git's protocol is: create ``.git/index.lock`` exclusively, write the new index into
it, rename it over ``.git/index``. libgit2 follows it, but a process killed in
between leaves a ``index.lock`` that blocks every ``git add`` until someone deletes
it by hand, and nobody can tell whether a live git process holds it.

Curator writes the new index to ``.git/curator-index.new`` first, records that
file's device and inode in the apply journal, and only then *hard-links* it to
``index.lock`` (``link`` fails if the lock exists, exactly as git's exclusive
create does) and renames the lock over the index. So a ``index.lock`` whose inode
is the one in the journal is Curator's own, and no git process can hold it: git
only ever holds a lock it created itself, which would be another inode, and it
cannot create one while Curator's exists. Recovery removes such a lock and
nothing else.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable

from curator import faults
from curator.errors import GitLocked
from curator.fsutil import fsync_dir, remove_file
from curator.vault import git
from curator.vault.discover import Vault

NEW = "curator-index.new"


def lock_path(vault: Vault) -> str:
    return os.path.join(vault.git_dir, "index.lock")


def new_path(vault: Vault) -> str:
    return os.path.join(vault.git_dir, NEW)


def identity(path: str) -> list[int] | None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    return [st.st_dev, st.st_ino]


def check_unlocked(vault: Vault) -> None:
    if os.path.lexists(lock_path(vault)):
        raise GitLocked(
            "the git index is locked (.git/index.lock exists)",
            hint="another git command is running; if none is, remove .git/index.lock",
        )


def update(
    vault: Vault,
    entries: dict[str, tuple[str, int] | None],
    record: Callable[[list[int]], None],
    fault: str = "apply:index-locked",
) -> None:
    """Point ``entries`` (path → (blob id, mode), or None to drop it) in the git index; leave every other entry.

    ``record(identity)`` must durably note the new index file's identity before it
    becomes the lock (the apply and decision journals do). ``fault`` names the crash
    point while the lock is held.
    """
    import pygit2

    check_unlocked(vault)
    index_file = os.path.join(vault.git_dir, "index")
    new = new_path(vault)
    discard_leftovers(vault)
    if os.path.exists(index_file):
        shutil.copyfile(index_file, new)
    index = pygit2.Index(new)
    if os.path.exists(new):
        index.read(force=True)
    for path, entry in entries.items():
        if entry is None:
            if path in index:
                index.remove(path)
        else:
            index.add(git.index_entry(path, entry[0], entry[1]))
    index.write()  # libgit2 locks curator-index.new.lock here: a name of Curator's own
    with open(new, "rb") as f:
        os.fsync(f.fileno())
    ident = identity(new)
    assert ident is not None
    record(ident)
    try:
        os.link(new, lock_path(vault))
    except FileExistsError:
        remove_file(new)
        check_unlocked(vault)
        raise
    faults.point(fault)
    os.rename(lock_path(vault), index_file)
    remove_file(new)
    fsync_dir(vault.git_dir)


def discard_leftovers(vault: Vault) -> None:
    remove_file(new_path(vault))
    remove_file(new_path(vault) + ".lock")


def release_own_lock(vault: Vault, ident: list[int] | None) -> bool:
    """Remove ``.git/index.lock`` if it is the one Curator linked (same inode); True if it did."""
    if ident is None:
        return False
    lock = lock_path(vault)
    if identity(lock) != list(ident):
        return False
    with contextlib.suppress(FileNotFoundError):
        os.unlink(lock)
    return True
