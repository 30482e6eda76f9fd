"""Typed reads of the vault's git objects, for the modules that read blobs, trees and commits.

pygit2 types ``repo[oid]`` as a plain ``Object``; each helper here says what it expects
and checks it, so a tree where a blob should be is a ``KeyError`` (as for a missing id),
never an ``AttributeError`` deep in a caller. pygit2 itself is imported by the callers
that already hold a repository (it is 140 ms of start-up, which the stat walk avoids).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pygit2


def blob(repo: pygit2.Repository, oid: str | pygit2.Oid) -> bytes:
    """The bytes of blob ``oid``; KeyError when there is no such blob."""
    import pygit2

    obj = repo[oid]
    if not isinstance(obj, pygit2.Blob):
        raise KeyError(str(oid))
    return bytes(obj.data)


def blob_or_none(repo: pygit2.Repository, oid: str | None) -> bytes | None:
    """``blob``, or None for no id, an unknown id or an object that is not a blob."""
    import pygit2

    if oid is None:
        return None
    try:
        obj = repo.get(oid)
    except (ValueError, KeyError):
        return None
    return bytes(obj.data) if isinstance(obj, pygit2.Blob) else None


def tree(repo: pygit2.Repository, oid: str | pygit2.Oid) -> pygit2.Tree:
    import pygit2

    obj = repo[oid]
    if not isinstance(obj, pygit2.Tree):
        raise KeyError(str(oid))
    return obj


def commit(repo: pygit2.Repository, oid: str | pygit2.Oid) -> pygit2.Commit:
    import pygit2

    obj = repo[oid]
    if not isinstance(obj, pygit2.Commit):
        raise KeyError(str(oid))
    return obj


def index_entry(path: str, oid: str, mode: int) -> pygit2.IndexEntry:
    """An index entry for ``path`` at blob ``oid`` with git file ``mode`` (0o100644 and the like)."""
    import pygit2
    from pygit2.enums import FileMode

    return pygit2.IndexEntry(path, pygit2.Oid(hex=oid), FileMode(mode))


TREE = 0o040000
"""The file mode git gives a folder's entry."""


class TreeEntries:
    """Entries of one git tree by path: (object id, file mode), folders included.

    ``tree[path]`` reads and parses every folder on the way in libgit2, each time: 0.6 ms a
    path in a folder of 650 notes, 5 s for a 6,500-note proposal asked about by the manifest,
    path, apply and index steps. So the first ``DIRECT`` paths are looked up one by one (a
    one-note commit in a large vault walks nothing), and the next walks the whole tree once
    into a dict (6,500 entries in 65 ms) that answers every later one.
    """

    DIRECT = 64

    def __init__(self, repo: pygit2.Repository, tree: pygit2.Tree) -> None:
        self.repo, self.tree = repo, tree
        self._asked = 0
        self._all: dict[str, tuple[str, int]] | None = None

    def get(self, path: str) -> tuple[str, int] | None:
        """(id, mode) of the entry at ``path`` (a file, a link, a submodule or a folder), or None."""
        if self._all is None:
            self._asked += 1
            if self._asked <= self.DIRECT:
                try:
                    e = self.tree[path]
                except (KeyError, ValueError):
                    return None
                return str(e.id), int(e.filemode)
            self._all = self._walk()
        return self._all.get(path)

    def _walk(self) -> dict[str, tuple[str, int]]:
        out: dict[str, tuple[str, int]] = {}
        stack = [("", self.tree)]
        while stack:
            prefix, folder = stack.pop()
            for e in folder:
                path = prefix + str(e.name)
                mode = int(e.filemode)
                out[path] = (str(e.id), mode)
                if mode == TREE:
                    stack.append((path + "/", tree(self.repo, e.id)))
        return out
