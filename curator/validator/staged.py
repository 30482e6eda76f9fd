"""The staged view: the validator reading what a commit will hold, never the work tree.

The pre-commit hook validates the git index (``GIT_INDEX_FILE`` when git sets
one, as ``git commit -a`` and ``git commit PATH`` do) against HEAD; CI validates
each pushed commit's tree against its parent. Both are a ``TreeState``: the same
``RepoState`` the validator always sees, with the "current" files read from git
entries instead of the disk, and proposals read from the entries under
``.kp/proposals/`` instead of their folders. The rules do not know which view
they are given; ``validate_proposal`` and ``check_note`` are the same functions.
The index and which of its files may be read from the disk: ``index_file``; the git entries
standing for either tree: ``candidate``; a proposal read from them: ``staged_proposal``.
"""

from __future__ import annotations

import bisect
import os
import stat
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

from curator import settings as settings_mod
from curator.proposals.layout import owner_of
from curator.proposals.trailers import decision_of
from curator.validator import id_cache
from curator.validator.candidate import LINK, Candidate, TreeCandidate, delta_paths
from curator.validator.index_file import staged_index
from curator.validator.state import GITLINK, RepoState
from curator.vault import git
from curator.vault import kp_id as kp_id_reader
from curator.vault.identity import is_ulid
from curator.vault.paths import is_note_path
from curator.vault.tree import Classified

if TYPE_CHECKING:
    import pygit2

    from curator.settings import Settings
    from curator.vault.discover import Vault
    from curator.vault.tree import Classified


class TreeState(RepoState):
    """A ``RepoState`` whose current files are git entries (the index, or a commit's tree)."""

    commits_onto_head = False
    message = ""
    """The commit's message, for CI's check that a decision is worded as Curator words it."""

    def __init__(
        self,
        vault: Vault,
        settings: Settings,
        candidate: Candidate,
        changed: list[str],
        committed: pygit2.Tree | None,
        name: str = "the staged tree",
        decision: tuple[str, str] | None = None,
    ) -> None:
        super().__init__(vault, settings)
        # What "committed" means here: HEAD for the hook, the parent for a commit CI checks.
        self.__dict__["head_tree"] = committed
        self.entries = candidate
        self.changed = changed
        """Paths whose entry differs between ``against`` and the candidate (either side)."""
        self.candidate = name
        self.decision = decision
        self._kp_cache: dict[str, str | None] = {}

    def share_kp_cache(self, cache: dict[str, str | None]) -> None:
        """Read each note blob's kp_id once across several states (the commits of a range)."""
        self._kp_cache = cache

    def regular(self, path: str) -> str | None:
        """The blob id of ``path`` when the candidate holds a regular file there."""
        e = self.entries.entry(path)
        if e is None or not stat.S_ISREG(e[1]):
            return None
        return e[0]

    def worktree_bytes(self, path: str) -> bytes | None:
        oid = self.regular(path)
        return self.blob(oid) if oid else None

    def lexists(self, path: str) -> bool:
        if self.entries.entry(path) is not None:
            return True
        return bool(self.under(path))

    def symlink_on_path(self, path: str) -> str | None:
        return self._entry_on_path(path, LINK)

    def gitlink_on_path(self, path: str) -> str | None:
        return self._entry_on_path(path, GITLINK)

    def _entry_on_path(self, path: str, mode: int) -> str | None:
        """The first part of ``path`` (``path`` itself at the last) the candidate holds an entry
        at, when that entry has ``mode``: what stands where a folder of the path should be."""
        parts = path.split("/")
        for i in range(1, len(parts) + 1):
            prefix = "/".join(parts[:i])
            e = self.entries.entry(prefix)
            if e is not None:
                return prefix if e[1] == mode else None
        return None

    @cached_property
    def all_paths(self) -> list[str]:
        return self.entries.paths()

    def under(self, folder: str) -> list[str]:
        """Paths inside ``folder`` (sorted)."""
        prefix = folder.rstrip("/") + "/"
        paths = self.all_paths
        i = bisect.bisect_left(paths, prefix)
        j = bisect.bisect_left(paths, prefix[:-1] + "0")  # "0" follows "/" in byte order
        return paths[i:j]

    def size(self, oid: str) -> int:
        return int(self.repo.odb.read_header(oid)[1])

    @cached_property
    def scan(self) -> Classified:
        files = [p for p in self.all_paths if p.split("/", 1)[0] != ".kp"]
        return Classified([], [], [], files)

    @cached_property
    def _include(self) -> tuple[tuple[str, ...], Callable[[str], bool]]:
        """The note judgement of this tree's settings, and the globs it depends on (the key of
        the kept kp_id map)."""
        notes = self.settings.notes
        return (*notes.include, "!", *notes.exclude), lambda path: is_note_path(path, self.settings)

    @cached_property
    def committed_kp_ids(self) -> dict[str, str]:
        """path → kp_id of each note in the committed tree (HEAD, or the parent CI checks against):
        the map ``id_cache`` kept, brought forward by a tree diff, else read from every note."""

        tree = self.head_tree
        if tree is None:
            return {}
        globs, wanted = self._include
        tree_id = str(tree.id)
        kept = id_cache.load(self.vault, globs)
        if kept is not None and kept[0] == tree_id:
            return kept[1]
        old = self._tree(kept[0]) if kept is not None else None
        if kept is not None and old is not None:
            notes = dict(kept[1])
            for path in delta_paths(old.diff_to_tree(tree)):
                notes.pop(path, None)
                kp_id = self._committed_kp_id(path) if wanted(path) else None
                if kp_id:
                    notes[path] = kp_id
        else:
            notes = self._read_committed_kp_ids()
        id_cache.save(self.vault, globs, tree_id, notes)
        return notes

    def _tree(self, oid: str) -> pygit2.Tree | None:
        import pygit2

        try:
            obj = self.repo.get(oid)
        except (ValueError, pygit2.GitError):
            return None
        return obj if isinstance(obj, pygit2.Tree) else None

    def _read_committed_kp_ids(self) -> dict[str, str]:
        """Every committed note's kp_id: from the work tree's first bytes where the index holds the
        committed blob and git finds the file unchanged (``index_file``), else from the blob."""
        assert self.head_tree is not None
        _globs, wanted = self._include
        changed = set(self.changed)
        same = self.entries.same_on_disk
        prefix = os.path.join(self.vault.root, "")
        notes: dict[str, str] = {}
        for path, oid, mode in TreeCandidate(self.repo, self.head_tree).walk():
            if not (stat.S_ISREG(mode) and wanted(path)):
                continue
            on_disk = path in same and path not in changed
            kp_id = kp_id_reader.read_file(prefix + path) if on_disk else self._kp_of_blob(oid)
            if kp_id:
                notes[path] = kp_id
        return notes

    def _committed_kp_id(self, path: str) -> str | None:
        assert self.head_tree is not None
        e = TreeCandidate(self.repo, self.head_tree).entry(path)
        return self._kp_of_blob(e[0]) if e is not None and stat.S_ISREG(e[1]) else None

    def _kp_of_blob(self, oid: str) -> str | None:
        if oid not in self._kp_cache:
            self._kp_cache[oid] = kp_id_reader.read(self.blob(oid) or b"")
        return self._kp_cache[oid]

    @cached_property
    def kp_ids(self) -> dict[str, list[str]]:
        """kp_id → note paths in the candidate: the committed map for every path the candidate
        leaves as committed (same path, same blob), the candidate's blobs for the paths it changes."""
        _globs, wanted = self._include
        changed = set(self.changed)
        found: dict[str, list[str]] = {}
        for path, kp_id in self.committed_kp_ids.items():
            if path not in changed:
                found.setdefault(kp_id, []).append(path)
        for path in self.changed:
            changed_id = self._blob_kp_id(path) if wanted(path) else None
            if changed_id:
                found.setdefault(changed_id, []).append(path)
        for paths in found.values():
            paths.sort()
        return found

    def _blob_kp_id(self, path: str) -> str | None:
        oid = self.regular(path)
        return self._kp_of_blob(oid) if oid is not None else None

    def kp_id_owners(self, kp_id: str, besides: str | None = None) -> list[str]:
        # Each owner is confirmed from the blob the candidate holds: a duplicate reported is one
        # the commit holds, whatever the work tree or the kept map said.
        return [p for p in self.kp_ids.get(kp_id, []) if p != besides and self._blob_kp_id(p) == kp_id]


def staged_state(vault: Vault) -> TreeState:
    """The index a commit is being made from, against HEAD."""
    import pygit2

    repo = vault.repo
    candidate = staged_index(vault)
    index = candidate.index
    head = None if repo.head_is_unborn else repo.head.peel(pygit2.Commit).tree
    if head is None:
        changed = candidate.paths()
    else:
        found = set(delta_paths(head.diff_to_index(index)))
        committed = TreeCandidate(repo, head)
        found.update(path for path, e in candidate.unvouched().items() if committed.entry(path) != e)
        changed = sorted(found)
    settings = settings_mod.parse(_bytes_of(repo, candidate.entry(".kp/config.yaml")))
    return TreeState(vault, settings, candidate, changed, head)


def commit_state(vault: Vault, commit: pygit2.Commit, settings: Settings | None = None) -> TreeState:
    """One commit's tree against its first parent, with the decision its trailers name, judged
    by ``settings`` (a range's base config: ``validator.history``) or else by the tree's own."""

    repo = vault.repo
    tree = commit.tree
    candidate = TreeCandidate(repo, tree)
    parent: pygit2.Tree | None = None
    if commit.parents:
        parent = commit.parents[0].tree
        changed = delta_paths(parent.diff_to_tree(tree))
    else:
        changed = candidate.paths()
    settings = settings or settings_mod.parse(_bytes_of(repo, candidate.entry(".kp/config.yaml")))
    name = f"commit {str(commit.id)[:12]}"
    state = TreeState(vault, settings, candidate, changed, parent, name=name, decision=decision_of(commit.message))
    state.message = commit.message
    return state


def merge_state(vault: Vault, commit: pygit2.Commit, settings: Settings | None = None) -> TreeState:
    """A merge commit's tree, judged on what the merge itself introduces: the paths it holds
    differently from every one of its parents. A path that comes from one parent is that
    parent's history, which is checked commit by commit; a path no parent holds so (a
    conflict resolved by hand, or an edit slipped into a ``--no-verify`` merge) is checked as
    any commit's change is, against the first parent. A merge never records a decision (Curator
    makes none), so trailers on it claim nothing."""
    repo = vault.repo
    tree = commit.tree
    candidate = TreeCandidate(repo, tree)
    parents = [p.tree for p in commit.parents]
    differing = [set(delta_paths(parent.diff_to_tree(tree))) for parent in parents]
    changed = sorted(set.intersection(*differing)) if differing else candidate.paths()
    settings = settings or settings_mod.parse(_bytes_of(repo, candidate.entry(".kp/config.yaml")))
    name = f"merge commit {str(commit.id)[:12]}"
    return TreeState(vault, settings, candidate, changed, parents[0] if parents else None, name=name)


def _bytes_of(repo: pygit2.Repository, entry: tuple[str, int] | None) -> bytes:
    if entry is None or not stat.S_ISREG(entry[1]):
        return b""
    return git.blob(repo, entry[0])


def targets(state: TreeState, names: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """Proposals and notes to check: everything the candidate changes, plus any named (vault-relative)."""

    ids: set[str] = set()
    notes: set[str] = set()
    for name in [*state.changed, *names]:
        path = name.replace(os.sep, "/").removeprefix("./")
        if is_ulid(path):
            ids.add(path)
            continue
        owner = owner_of(path)
        if owner is not None:
            ids.add(owner)
        elif is_note_path(path, state.settings) and state.entries.entry(path) is not None:
            notes.add(path)
    return sorted(ids), sorted(notes)
