"""The kp_ids of the last committed tree the staged view read, kept in the git directory.

A commit that adds a note must show its ``kp_id`` is nobody else's, which means
knowing every note's ``kp_id`` in the tree being committed. Every path the commit
does not change holds HEAD's blob, so that is HEAD's kp_id map less the changed
paths plus their staged blobs'. HEAD's map is kept here between commits, keyed by
its tree id and the notes' include globs, and brought forward with a tree-to-tree
diff when HEAD moves (a commit changes a few entries; libgit2 skips unchanged
subtrees by id). So a new note in a 3,000-note vault costs one small file read and
the inflate of the blobs the commit changes, where reading every note's head from
the disk cost ~80 ms of CPU and inflating every blob ~1 s.

It is derived data, like the stat cache in ``.git/index`` the hook already trusts:
anything unreadable, of another version or for other globs is rebuilt, a write
that fails is ignored, and an owner the map names is confirmed from its blob before
it is reported (``TreeState.kp_id_owners``), so a stale or doctored file can never
make a note's kp_id look taken. Written without fsync: a cache lost to a power cut
is rebuilt.
"""

from __future__ import annotations

import contextlib
import json
import os

from curator.fsutil import write_atomic
from curator.vault.discover import Vault

NAME = "curator-kp-ids.json"
VERSION = 1


def path_of(vault: Vault) -> str:
    return os.path.join(vault.git_dir, NAME)


def load(vault: Vault, include: tuple[str, ...]) -> tuple[str, dict[str, str]] | None:
    """(tree id, path → kp_id) last saved for these include globs, or None."""
    try:
        with open(path_of(vault), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != VERSION or data.get("include") != list(include):
        return None
    tree, notes = data.get("tree"), data.get("notes")
    if not isinstance(tree, str) or not isinstance(notes, dict):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in notes.items()):
        return None
    return tree, notes


def save(vault: Vault, include: tuple[str, ...], tree: str, notes: dict[str, str]) -> None:
    data = {"version": VERSION, "include": list(include), "tree": tree, "notes": notes}
    path = path_of(vault)

    # The one atomic write (an unpredictable temp name, never through a planted symlink).
    with contextlib.suppress(OSError):  # a read-only git directory (a CI checkout): the next run rebuilds it
        write_atomic(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
