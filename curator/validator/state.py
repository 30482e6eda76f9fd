"""The repository as the validator sees it: read-only, lazy, shared across proposals.

Read-only means nothing is written at all, not even loose objects: libgit2's
``applies()`` stores post-image blobs even when only checking, so the validator
decides applicability with Curator's strict hunk engine (checked against
``git apply`` and libgit2 by the differential tests) and ``curator apply`` asks
libgit2 again before it writes.

One ``RepoState`` serves a whole ``curator validate`` run, so a queue of 200
proposals walks the vault for identities once, not 200 times.
"""

from __future__ import annotations

import os
import stat
from functools import cached_property
from typing import TYPE_CHECKING

from curator.errors import UsageError
from curator.proposals.filters import clean
from curator.settings import Settings
from curator.vault import git
from curator.vault import kp_id as kp_id_reader
from curator.vault.discover import Vault
from curator.vault.paths import is_note_path, same_file_key, symlink_on_path
from curator.vault.tree import GitView, scan, walk

if TYPE_CHECKING:
    import pygit2

    from curator.vault.tree import Classified

GITLINK = 0o160000
"""The file mode git gives a submodule's entry."""



class RepoState:
    candidate = "the work tree"
    """What is being validated, as findings name it (the hook's view: "the staged tree")."""
    decision: tuple[str, str] | None = None
    """(proposal, event) named by the trailers of the commit being checked (CI's view only)."""
    commits_onto_head = True
    """Apply commits this tree's changes onto HEAD's (the work tree's view): what HEAD holds at a
    path counts, though the work tree no longer has it. A staged tree or a commit is what it is."""

    def __init__(
        self,
        vault: Vault,
        settings: Settings,
        overlay: dict[str, bytes | None] | None = None,
        against: str = "HEAD",
        blobs: dict[str, bytes] | None = None,
    ) -> None:
        self.vault = vault
        self.settings = settings
        # The commit that "committed" means: HEAD for the pre-commit hook, the commit
        # before a push for CI (which checks out the pushed commit itself).
        self.against = against
        # Paths to see as if they held other bytes (None: absent). `curator propose`
        # validates work-tree edits as they will be once the files are restored.
        self.overlay = overlay or {}
        # Blobs a proposal being staged will add to the object store once it is valid:
        # a rejected one must not leave loose objects behind.
        self.pending_blobs = blobs or {}

    @cached_property
    def repo(self) -> pygit2.Repository:
        return self.vault.repo

    @cached_property
    def head_tree(self) -> pygit2.Tree | None:
        import pygit2

        try:
            if self.against == "HEAD":
                if self.repo.head_is_unborn:
                    return None
                return self.repo.head.peel().tree
            return self.repo.revparse_single(self.against).peel(pygit2.Commit).tree
        except (KeyError, ValueError, pygit2.GitError):
            if self.against != "HEAD":
                raise UsageError(f"--against {self.against}: no such commit in this repository") from None
            return None

    @cached_property
    def head_commit_id(self) -> str | None:
        import pygit2

        try:
            return None if self.repo.head_is_unborn else str(self.repo.head.target)
        except pygit2.GitError:
            return None

    @cached_property
    def head_entries(self) -> git.TreeEntries | None:
        """HEAD's tree (``--against``'s) by path, shared by every rule and by apply: one walk of
        it for a large proposal, not a libgit2 lookup per path."""
        tree = self.head_tree
        return None if tree is None else git.TreeEntries(self.repo, tree)

    def head_entry(self, path: str) -> tuple[str, int] | None:
        """(object id, file mode) of what HEAD holds at ``path`` (a folder included), or None."""
        entries = self.head_entries
        return None if entries is None else entries.get(path)

    def head_blob_id(self, path: str) -> str | None:
        entry = self.head_entry(path)
        return entry[0] if entry is not None and entry[1] not in (git.TREE, GITLINK) else None

    def head_mode(self, path: str) -> int | None:
        """HEAD's file mode at ``path`` (None: HEAD holds nothing there)."""
        entry = self.head_entry(path)
        return None if entry is None else entry[1]

    def head_bytes(self, path: str) -> bytes | None:
        oid = self.head_blob_id(path)
        return self.blob(oid) if oid else None

    def head_has_dir(self, path: str) -> bool:
        return self.head_mode(path) == git.TREE

    def blob(self, oid: str) -> bytes | None:
        if oid in self.pending_blobs:
            return self.pending_blobs[oid]
        return git.blob_or_none(self.repo, oid)

    def has_commit(self, oid: str) -> bool:
        try:
            obj = self.repo.get(oid)
        except (ValueError, KeyError):
            return False
        return obj is not None and obj.type_str == "commit"

    def worktree_bytes(self, path: str) -> bytes | None:
        if path in self.overlay:
            return self.overlay[path]
        full = self.vault.abspath(path)
        try:
            st = os.lstat(full)
        except (FileNotFoundError, NotADirectoryError):
            return None
        if not stat.S_ISREG(st.st_mode):
            return None
        with open(full, "rb") as f:
            return f.read()

    def worktree_clean(self, path: str) -> bytes | None:
        """The work-tree file as ``git add`` would store it (git's clean filters, e.g. CRLF to LF)."""
        raw = self.worktree_bytes(path)
        return None if raw is None else self.clean(path, raw)

    def clean(self, path: str, data: bytes) -> bytes:
        """``data`` as ``git add`` would store it at ``path`` now (a blob committed with CRLF
        before ``eol=lf`` was set comes out LF, as ``git add --renormalize`` would make it)."""

        return clean(self.repo, path, data)

    def lexists(self, path: str) -> bool:
        if path in self.overlay:
            return self.overlay[path] is not None
        return os.path.lexists(self.vault.abspath(path))

    def is_file(self, path: str) -> bool:
        """Whether ``path`` is a file (not a folder) in the work tree as the proposal would meet it."""
        if path in self.overlay:
            return self.overlay[path] is not None
        try:
            return not stat.S_ISDIR(os.lstat(self.vault.abspath(path)).st_mode)
        except (FileNotFoundError, NotADirectoryError):
            return False

    def symlink_on_path(self, path: str) -> str | None:
        """The first component of ``path`` (itself included) that is a symlink in the work tree."""
        return symlink_on_path(self.vault.root, path, self._kinds)

    @cached_property
    def _kinds(self) -> dict[str, bool | None]:
        """What each path prefix asked about was: the state is one moment of the work tree."""
        return {}

    @cached_property
    def _git_index(self) -> pygit2.Index | None:
        import pygit2

        try:
            index: pygit2.Index = self.repo.index
        except pygit2.GitError:
            return None
        return index

    def git_ignored(self, path: str) -> bool:
        """Whether git ignores ``path`` (its ``.gitignore`` files, ``info/exclude``, the user's
        excludes file): the same judgement the tree walk and ``kp_read`` make."""
        return GitView(self.vault).file_ignored(path)

    def gitlink_on_path(self, path: str) -> str | None:
        """The first component of ``path`` (itself included) that is a submodule: a gitlink in the
        git index or in HEAD, or a folder of the work tree holding a repository of its own."""
        parts = path.split("/")
        for i in range(1, len(parts) + 1):
            prefix = "/".join(parts[:i])
            folder = i < len(parts)
            found = self._gitlinks.get((prefix, folder))
            if found is None:
                found = self._gitlinks[(prefix, folder)] = self._is_gitlink(prefix, folder)
            if found:
                return prefix
        return None

    @cached_property
    def _gitlinks(self) -> dict[tuple[str, bool], bool]:
        """Each (prefix, whether it is a folder on the way) judged: the notes of one folder share
        their folders' answers (an adopt proposal's 6,500 paths asked the git index, HEAD and
        the file system about the same few folders again and again)."""
        return {}

    def _is_gitlink(self, prefix: str, folder: bool) -> bool:
        index = self._git_index
        try:
            if index is not None and index[prefix].mode == GITLINK:
                return True
        except (KeyError, ValueError):
            pass
        if self.head_mode(prefix) == GITLINK:
            return True
        return folder and os.path.lexists(os.path.join(self.vault.abspath(prefix), ".git"))

    @cached_property
    def scan(self) -> Classified:
        # Paths are all the rules ask of it (case clashes, existing files).
        return scan(self.vault, self.settings, sizes=False)

    @cached_property
    def vault_files(self) -> list[str]:
        return self.scan.files

    @cached_property
    def same_file_keys(self) -> dict[str, str]:
        """Each vault file by ``same_file_key``: the file a new path would be on some system."""
        return {same_file_key(p): p for p in self.vault_files}

    @cached_property
    def kp_ids(self) -> dict[str, list[str]]:
        """kp_id → note paths in the work tree.

        A plain stat walk and the first bytes of each note: identity is only needed
        when a proposal creates or identifies a note, and asking git about every
        path costs more than reading them. An owner git ignores is not in the vault,
        so the few paths that claim a wanted id are confirmed with git by the caller.
        """

        # A create has had its paths checked against the scan already: its files are the
        # walk, git-filtered, so the owners' confirmation below has nothing left to drop.
        paths = (
            self.scan.files if "scan" in self.__dict__ else [f.path for f in walk(self.vault.root, sizes=False).files]
        )
        found: dict[str, list[str]] = {}
        prefix = os.path.join(self.vault.root, "")
        for path in paths:
            if is_note_path(path, self.settings):
                kp_id = kp_id_reader.read_file(prefix + path if os.sep == "/" else self.vault.abspath(path))
                if kp_id:
                    found.setdefault(kp_id, []).append(path)
        return found

    def kp_id_owners(self, kp_id: str, besides: str | None = None) -> list[str]:
        owners = [p for p in self.kp_ids.get(kp_id, []) if p != besides]
        if not owners:
            return []

        git = GitView(self.vault)
        return [p for p in owners if not git.file_ignored(p)]
