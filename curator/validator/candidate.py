"""The candidate: git entries standing for the tree being validated, the git index's
(``index_file.IndexCandidate``) or a commit's (``TreeCandidate``), and the entries of a tree
read one path at a time (``tree_entry``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from curator.vault import git

if TYPE_CHECKING:
    import pygit2

LINK = 0o120000
"""The file mode git gives a symbolic link."""


class Candidate(Protocol):
    """Git entries standing for the tree being validated."""

    def entry(self, path: str) -> tuple[str, int] | None:
        """(blob id, file mode) of ``path``, or None."""

    def paths(self) -> list[str]:
        """Every path, sorted."""

    @property
    def same_on_disk(self) -> frozenset[str]:
        """Paths whose work-tree file holds exactly the entry's blob (may be read from the disk)."""


def tree_entry(tree: pygit2.Tree | None, path: str) -> tuple[str, int] | None:
    """(blob id, mode) of the file at ``path`` in ``tree``; None for no file there (or a folder)."""
    if tree is None:
        return None
    try:
        e = tree[path]
    except (KeyError, ValueError):
        return None
    return (str(e.id), int(e.filemode)) if e.type_str != "tree" else None


class TreeCandidate:
    def __init__(self, repo: pygit2.Repository, tree: pygit2.Tree) -> None:
        self.repo, self.tree = repo, tree
        self._entries = git.TreeEntries(repo, tree)

    def entry(self, path: str) -> tuple[str, int] | None:
        e = self._entries.get(path)
        return e if e is not None and e[1] != git.TREE else None

    def paths(self) -> list[str]:
        return sorted(path for path, _oid, _mode in self.walk())

    def walk(self) -> list[tuple[str, str, int]]:
        """(path, blob id, file mode) of every entry that is not a tree."""
        out: list[tuple[str, str, int]] = []
        stack = [("", self.tree)]
        while stack:
            prefix, tree = stack.pop()
            for e in tree:
                if e.type_str == "tree":
                    stack.append((f"{prefix}{e.name}/", git.tree(self.repo, e.id)))
                else:
                    out.append((prefix + str(e.name), str(e.id), int(e.filemode)))
        return out

    same_on_disk: frozenset[str] = frozenset()  # a commit's tree has no work tree


def delta_paths(diff: pygit2.Diff) -> list[str]:
    """Every path a diff touches, on either side, sorted."""
    paths: set[str] = set()
    for delta in diff.deltas:
        paths.add(delta.old_file.path)
        paths.add(delta.new_file.path)
    return sorted(paths)
