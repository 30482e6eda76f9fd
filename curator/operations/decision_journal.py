"""The decision journal: what ``decisions.record`` is about to do, so a killed one is finished.

A decision is a commit Curator makes itself; recording one moves the branch, then
writes the new ``events.jsonl`` into the work tree, then points the touched index
entries at the commit. Killed between those steps, the index (and perhaps the work
tree) would still hold the old record while HEAD holds the new one: ``git status``
would show a staged change to ``events.jsonl`` that drops the decision, the
validator would call it a forgery (KP001), and a ``git commit -a`` would undo the
decision. So before the branch moves, the journal (in the git directory) names the
commit and, for every path the commit touches, the index entry before and after;
for ``events.jsonl``, the work-tree blob before and after.

Recovery, run by whichever command next takes the vault lock:

- the commit is HEAD or an ancestor of it: the decision stands, and each index entry
  and the work-tree ``events.jsonl`` that still hold what they held before are
  brought level with it (anything the user changed since is left as it is);
- otherwise the branch never moved: nothing was written, and the journal goes.

The index is written as ``apply`` writes it (``gitindex``): a lock left by a kill is
removed only when it is provably Curator's own, and a lock git holds is never touched.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field

from curator import faults
from curator.errors import GitLocked
from curator.fsutil import remove_file
from curator.operations import gitindex, worktree
from curator.operations import journal as store
from curator.proposals.layout import EVENTS, PROPOSALS_DIR
from curator.vault.discover import Vault


@dataclass
class Journal:
    proposal: str
    event: str
    head: str | None
    commit: str
    index: dict[str, list[list[str | int] | None]] = field(default_factory=dict)
    """path → [index entry before, entry after], each [blob id, mode] or None (no entry)."""
    events_before: str | None = None
    """Blob id of the work tree's events.jsonl before (None: there was none)."""
    events_after: str = ""
    index_lock: list[int] | None = None
    """Device and inode of the index file Curator links to ``.git/index.lock`` (see gitindex)."""

    @property
    def events_path(self) -> str:
        return f"{PROPOSALS_DIR}/{self.proposal}/{EVENTS}"

    def save(self, vault: Vault) -> None:
        store.save(vault, store.DECISION, asdict(self))


def load(vault: Vault) -> Journal | None:
    """The journal of a decision being recorded (written before the branch moves)."""
    return store.load(vault, store.DECISION, lambda data: Journal(**data))


def clear(vault: Vault) -> None:
    store.clear(vault, store.DECISION)


def index_entry(vault: Vault, path: str) -> list[str | int] | None:
    try:
        e = vault.repo.index[path]
    except KeyError:
        return None
    return [str(e.id), int(e.mode)]


def sync(vault: Vault, journal: Journal, fault: str) -> list[str]:
    """Index entries and the work tree's events.jsonl brought level with the decision.

    Only what still holds its value from before the decision is changed; returns the
    paths left alone because someone changed them since.
    """
    left = []
    now = worktree.current_blob(vault, journal.events_path)
    if now == journal.events_before:
        worktree.put(vault, journal.events_path, journal.events_after)
    elif now != journal.events_after:
        left.append(journal.events_path)
    faults.point("decide:after-event")
    _discard_temp_files(vault, journal)
    vault.repo.index.read(force=True)
    entries: dict[str, tuple[str, int] | None] = {}
    for path, (before, after) in sorted(journal.index.items()):
        current = index_entry(vault, path)
        if current == after:
            continue
        if current != before:
            left.append(path)
            continue
        entries[path] = None if after is None else (str(after[0]), int(after[1]))
    if entries:

        def record(ident: list[int]) -> None:
            journal.index_lock = ident
            journal.save(vault)

        gitindex.update(vault, entries, record, fault=fault)
    return left


def _discard_temp_files(vault: Vault, journal: Journal) -> None:
    """The temporary file a write killed halfway leaves beside events.jsonl (see ``fsutil``)."""
    folder = os.path.join(vault.root, PROPOSALS_DIR, journal.proposal)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if name.startswith(f".{EVENTS}.curator-") and name.endswith(".tmp"):
            remove_file(os.path.join(folder, name))


def recover(vault: Vault) -> str | None:
    """Finish a decision whose commit the branch reached, or drop one it never reached."""
    journal = load(vault)
    if journal is None:
        return None
    gitindex.release_own_lock(vault, journal.index_lock)
    gitindex.discard_leftovers(vault)
    repo = vault.repo
    what = f"the {journal.event} decision on {journal.proposal}"
    head = None if repo.head_is_unborn else str(repo.head.target)
    recorded = head is not None and (head == journal.commit or repo.descendant_of(head, journal.commit))
    if not recorded:
        _discard_temp_files(vault, journal)
        clear(vault)
        return f"dropped the interrupted recording of {what}; nothing was recorded"
    try:
        left = sync(vault, journal, fault="decide:recover-index-locked")
    except GitLocked as e:
        raise GitLocked(
            f"Curator was interrupted while recording {what} and must finish it, but the git index is locked",
            hint="let the running git command end (a commit from a hook will not go through), "
            "then run any curator command, e.g. curator status",
        ) from e
    worktree.report_left(left, "an interrupted decision")
    clear(vault)
    return f"finished recording {what}"
