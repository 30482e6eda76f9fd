"""The git index a commit is made from, and which of its files the work tree still holds.

The staged view must answer for the index's blobs. Reading every note's blob to
find one ``kp_id`` costs ~0.3 ms a note (an object lookup and an inflate: 0.9 s on
3,000 notes), where the first 4 KB of a work-tree file cost ~15 µs. So an entry
whose work-tree file git would call unchanged is read from the disk, and only the
others are inflated from the object store.

Why "unchanged" can be trusted to mean "the staged bytes": it is libgit2's own
answer (``git_diff_index_to_workdir``, what ``git status`` computes), never a
comparison of our own. libgit2 trusts an entry's stat data only when all of it
matches the file: size, mode, mtime, **ctime** (``core.trustctime``, on by
default), inode, uid and gid. An edit that keeps the size and sets the mtime back
(``touch -d``, ``os.utime``) still moves the ctime, which no unprivileged process
can set. Stat data is also only trusted for entries older than the index file
itself (racy git): a file written in the same timestamp tick as the index, or
after it, could match its entry's stat data before and after an edit, so libgit2
hashes such a file through the clean filters and compares blob ids. Any entry it
is not sure of is hashed the same way. What libgit2 calls unchanged without
looking at the file is excluded here: entries marked assume-unchanged
(``git update-index --assume-unchanged``) and skip-worktree (sparse checkouts),
whose work-tree file may differ or be absent; so are conflicted entries.

"Unchanged" means the clean filters turn the file into the staged blob. The
built-in ones libgit2 runs change line endings (the ``kp_id`` reader ignores a CR)
and ``$Id$`` (no well-formed ``kp_id`` holds a ``$``). A ``filter=`` driver
(git-lfs) or ``working-tree-encoding``, which libgit2 does not run, could make a
work-tree file differ from its blob: so an owner of a ``kp_id`` found on disk is
confirmed from its blob before it is reported (``TreeState.kp_id_owners``).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pygit2

    from curator.vault.discover import Vault

# git_index_entry flags (libgit2's git2/index.h): pygit2's IndexEntry does not carry them.
_STAGE_MASK = 0x3000
_VALID = 0x8000  # assume-unchanged
_SKIP_WORKTREE = 1 << 14  # in flags_extended


def index_path(vault: Vault) -> str:
    """The index a commit is being made from: git's ``GIT_INDEX_FILE`` in a hook, else the repository's."""
    explicit = os.environ.get("GIT_INDEX_FILE")
    if explicit:
        return os.path.abspath(explicit)
    return os.path.join(vault.git_dir, "index")


class IndexCandidate:
    """The entries (stage 0) of one git index file."""

    def __init__(self, repo: pygit2.Repository, index: pygit2.Index) -> None:
        self.repo, self.index = repo, index

    @cached_property
    def _table(self) -> _Table:
        return _read(self.index)

    def entry(self, path: str) -> tuple[str, int] | None:
        if "_table" in self.__dict__:
            return self._table.entries.get(path)
        try:  # a commit of a few notes asks for a few paths: no need to read them all
            e = self.index[path]
        except (KeyError, ValueError):
            return None
        return str(e.id), int(e.mode)

    def paths(self) -> list[str]:
        return sorted(self._table.entries)

    def unvouched(self) -> dict[str, tuple[str, int]]:
        """Entries marked assume-unchanged or skip-worktree, path → (blob id, mode).

        libgit2's tree-to-index diff can leave them out (a new file marked
        assume-unchanged is not reported, where ``git diff --cached`` lists it), so
        the staged view compares them with HEAD itself.
        """
        table = self._table
        return {path: table.entries[path] for path in table.unvouched}

    @cached_property
    def same_on_disk(self) -> frozenset[str]:
        """Regular files whose work-tree copy holds the staged blob: ``unchanged_in_worktree`` where
        libgit2 checks the ctime, else none (``core.trustctime=false`` leaves mtime, size and inode,
        which an in-place rewrite that sets the mtime back keeps)."""
        try:
            trust_ctime = self.repo.config.get_bool("core.trustctime")
        except (KeyError, ValueError):
            trust_ctime = True
        return self.unchanged_in_worktree() if trust_ctime else frozenset()

    def unchanged_in_worktree(self) -> frozenset[str]:
        """Regular files libgit2 finds unchanged in the work tree, having checked them (see the module doc)."""
        # libgit2 diffs any index against the work tree (git_diff_index_to_workdir takes both);
        # pygit2 only binds an Index to a repository through repo.index, which is never
        # GIT_INDEX_FILE's. The diff reads; with no UPDATE_INDEX flag it writes nothing.
        self.index._repo = self.repo  # type: ignore[assignment]  # pygit2 declares the field None
        differs: set[str] = set()
        for delta in self.index.diff_to_workdir().deltas:
            differs.add(delta.old_file.path)
            differs.add(delta.new_file.path)
        table = self._table
        return frozenset(
            path
            for path, (_oid, mode) in table.entries.items()
            if stat.S_ISREG(mode) and path not in differs and path not in table.unvouched
        )


@dataclass
class _Table:
    entries: dict[str, tuple[str, int]]
    """path → (blob id, mode) of every stage-0 entry."""
    unvouched: set[str]
    """Entries whose stat data libgit2 never checks (assume-unchanged, skip-worktree)."""


def _read(index: pygit2.Index) -> _Table:
    """Every entry in one pass over libgit2's array: 10 ms for 3,000 entries, where pygit2's
    IndexEntry objects take 22 ms and do not carry the flags."""
    from pygit2.ffi import C, ffi

    entries: dict[str, tuple[str, int]] = {}
    unvouched: set[str] = set()
    ptr = index._index
    get, string, buffer, address = C.git_index_get_byindex, ffi.string, ffi.buffer, ffi.addressof
    for i in range(C.git_index_entrycount(ptr)):
        e = get(ptr, i)
        if e.flags & _STAGE_MASK:
            continue  # a conflict: no stage-0 entry, as index[path] finds none
        path = os.fsdecode(string(e.path))
        entries[path] = (buffer(address(e, "id"))[:].hex(), int(e.mode))
        if e.flags & _VALID or e.flags_extended & _SKIP_WORKTREE:
            unvouched.add(path)
    return _Table(entries, unvouched)


def staged_index(vault: Vault) -> IndexCandidate:
    import pygit2

    return IndexCandidate(vault.repo, pygit2.Index(index_path(vault)))
