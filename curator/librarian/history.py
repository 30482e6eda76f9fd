"""When git added each path: one walk over the history, remembered between runs.

A note without a ``created`` date was created by the commit that added it. Asking
git file by file (``git log --diff-filter=A -- PATH``) walks the whole history once
per note; instead the history is walked once, oldest commit first, and every tree
diff read for the paths it adds, renames and deletes. The result is kept in the
index directory with the commit it describes, so the next run walks only the
commits made since (or walks again when history was rewritten).
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field

import pygit2

from curator.fsutil import write_atomic
from curator.vault.discover import Vault

CACHE_NAME = "librarian-history.json"
CACHE_VERSION = 1
_ADDED = pygit2.enums.DeltaStatus.ADDED
_DELETED = pygit2.enums.DeltaStatus.DELETED
_RENAMED = pygit2.enums.DeltaStatus.RENAMED


@dataclass
class History:
    added: dict[str, int] = field(default_factory=dict)
    """Path → author time (epoch seconds) of the commit that added it, for paths in HEAD."""
    head: str | None = None
    shallow: bool = False
    walked: int = 0
    """Commits read this run (0 when the cache was current)."""


def _load(cache: str | None) -> History | None:
    if cache is None:
        return None
    try:
        with open(cache, encoding="utf-8") as f:
            data = json.load(f)
        if data.get("version") != CACHE_VERSION or not isinstance(data.get("added"), dict):
            return None
        return History({str(k): int(v) for k, v in data["added"].items()}, str(data["head"]), bool(data["shallow"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _save(cache: str | None, h: History) -> None:
    if cache is None:
        return
    data = {"version": CACHE_VERSION, "head": h.head, "shallow": h.shallow, "added": h.added}
    with contextlib.suppress(OSError):  # the cache only saves time
        write_atomic(cache, json.dumps(data, sort_keys=True).encode("utf-8"))


def _diff(repo: pygit2.Repository, commit: pygit2.Commit) -> pygit2.Diff:
    if commit.parent_ids:
        # The first parent only: a merge adds what its other side added, and that
        # side's own commits were walked before it.
        parent = repo[commit.parent_ids[0]].peel(pygit2.Tree)
        return parent.diff_to_tree(commit.tree)
    return commit.tree.diff_to_tree(swap=True)


def _walk(repo: pygit2.Repository, head: pygit2.Oid, hide: str | None, added: dict[str, int]) -> int:
    walker = repo.walk(head, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.REVERSE)
    if hide is not None:
        walker.hide(pygit2.Oid(hex=hide))
    walked = 0
    for commit in walker:
        walked += 1
        when = int(commit.author.time)
        diff = _diff(repo, commit)
        statuses = {d.status for d in diff.deltas}
        if _ADDED in statuses and _DELETED in statuses:
            diff.find_similar()  # a moved note keeps the time it was created
        for d in diff.deltas:
            if d.status == _ADDED:
                added.setdefault(d.new_file.path, when)
            elif d.status == _DELETED:
                added.pop(d.old_file.path, None)
            elif d.status == _RENAMED:
                added.setdefault(d.new_file.path, added.pop(d.old_file.path, when))
    return walked


def added_times(vault: Vault, cache_dir: str | None) -> History:
    """When each path in HEAD was added; empty for a repository without commits."""
    repo = vault.repo
    if repo.head_is_unborn:
        return History()
    head = repo.head.peel(pygit2.Commit).id
    cache = os.path.join(cache_dir, CACHE_NAME) if cache_dir else None
    known = _load(cache)
    shallow = bool(repo.is_shallow)
    if known is not None and known.head == str(head) and known.shallow == shallow:
        return known
    added: dict[str, int] = {}
    hide = None
    if known is not None and known.shallow == shallow and known.head:
        try:
            if repo.descendant_of(head, pygit2.Oid(hex=known.head)):
                added, hide = dict(known.added), known.head
        except (pygit2.GitError, ValueError, KeyError):
            pass  # the cached commit is gone: history was rewritten, walk it all
    h = History(added, str(head), shallow)
    h.walked = _walk(repo, head, hide, added)
    _save(cache, h)
    return h
