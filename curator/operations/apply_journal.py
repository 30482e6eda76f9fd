"""The apply journal: what an apply is about to do, so an interrupted one can be finished or undone.

It lives in the git directory (``journal``); every byte it names is a blob in the object
store, so nothing depends on the work tree surviving. ``recover`` runs under the vault
lock (``recovery``): an apply whose commit the branch reached is finished (files and
index entries brought level with it); any other is undone, file by file, leaving alone
whatever someone changed since.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from curator.operations import gitindex, worktree
from curator.operations import journal as store
from curator.proposals.layout import PROPOSALS_DIR
from curator.proposals.trailers import decision_of
from curator.vault import git
from curator.vault.discover import Vault

if TYPE_CHECKING:
    import pygit2


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
            "steps": [dict(vars(s)) for s in self.steps],  # asdict's deep copy: 0.1 s per save
            "index_lock": self.index_lock,
        }
        store.save(vault, store.APPLY, data)


def _journal(data: dict[str, Any]) -> Journal:
    steps = [Step(**s) for s in data["steps"]]
    return Journal(data["proposal"], data["head"], data["commit"], steps, data.get("index_lock"))


def load(vault: Vault) -> Journal | None:
    """The journal of an apply under way (written before anything else)."""
    return store.load(vault, store.APPLY, _journal)


def clear(vault: Vault) -> None:
    store.clear(vault, store.APPLY)


def rollback(vault: Vault, journal: Journal) -> list[str]:
    """Put back every file the apply touched; files changed since by someone else are left."""
    return worktree.put_back(vault, [(s.path, s.before, s.after, s.mode) for s in journal.steps])


def touched_in_commit(vault: Vault, journal: Journal, commit: pygit2.Commit) -> list[str]:
    paths = [s.path for s in journal.steps]
    folder = f"{PROPOSALS_DIR}/{journal.proposal}"
    try:
        record = commit.tree[folder]
    except KeyError:
        record = None
    if record is not None and record.type_str == "tree":
        stack = [(folder, git.tree(vault.repo, record.id))]
        while stack:
            prefix, tree = stack.pop()
            for entry in tree:
                path = f"{prefix}/{entry.name}"
                if entry.type_str == "tree":
                    stack.append((path, git.tree(vault.repo, entry.id)))
                else:
                    paths.append(path)
    return sorted(set(paths))


def sync_index(vault: Vault, journal: Journal) -> None:
    """Point the touched index entries at what was committed; leave every other entry alone."""
    repo = vault.repo
    commit = git.commit(repo, repo.head.target)
    tree = git.TreeEntries(repo, commit.tree)
    entries: dict[str, tuple[str, int] | None] = {}
    for path in touched_in_commit(vault, journal, commit):
        entries[path] = tree.get(path)

    def record(ident: list[int]) -> None:
        journal.index_lock = ident
        journal.save(vault)

    gitindex.update(vault, entries, record)


def recover(vault: Vault) -> str | None:
    """Finish or undo an apply that was interrupted; returns what was done, if anything."""
    journal = load(vault)
    if journal is None:
        return None
    # A lock Curator linked itself (same inode as the journal records) is removed;
    # any other index.lock belongs to git and is left alone.
    gitindex.release_own_lock(vault, journal.index_lock)
    gitindex.discard_leftovers(vault)
    repo = vault.repo
    committed = False
    if journal.commit and not repo.head_is_unborn:
        head = git.commit(repo, repo.head.target)
        committed = (
            str(head.id) != journal.head
            and decision_of(head.message) == (journal.proposal, "applied")
            and [str(p) for p in head.parent_ids] == ([journal.head] if journal.head else [])
        )
    if committed:
        worktree.sweep(vault, [s.path for s in journal.steps])
        finish = []
        for step in journal.steps:
            now = worktree.current_blob(vault, step.path)
            if now == step.before and now != step.after:
                finish.append((step.path, step.after, step.mode))
        worktree.put_many(vault, finish)
        sync_index(vault, journal)
        clear(vault)
        return f"finished the interrupted apply of {journal.proposal}"
    left = rollback(vault, journal)
    worktree.report_left(left)
    clear(vault)
    if left:
        return f"undid the interrupted apply of {journal.proposal}, but for {len(left)} file(s) changed since"
    return f"undid the interrupted apply of {journal.proposal}"
