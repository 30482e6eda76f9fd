"""Whether the serving epoch already holds the vault as it is: a stat walk against the
stats the index stored, and the files that decide git's view of the tree. Nothing is
read beyond stats, nothing written: an unchanged vault costs this and no more."""

from __future__ import annotations

import os

import apsw

from curator.index import db
from curator.index.db import ATTACHMENT
from curator.index.db import VAULT as SOURCE
from curator.index.versions import LINKS_VERSION
from curator.vault.discover import Vault
from curator.vault.tree import walk


def sentinels_of(vault: Vault) -> list[object]:
    """Stats of what decides git's view of the tree besides the files themselves."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    paths = [
        os.path.join(vault.git_dir, "index"),
        os.path.join(vault.git_dir, "info", "exclude"),
        os.path.join(vault.root, ".kp", "config.yaml"),
        os.path.join(xdg, "git", "ignore"),
        os.path.join(home, ".gitconfig"),
    ]
    out: list[object] = []
    for p in paths:
        try:
            st = os.stat(p)
            out.append([st.st_size, st.st_mtime_ns])
        except OSError:
            out.append(None)
    return out


def _stored_stats(conn: apsw.Connection) -> tuple[dict[str, tuple[int, int]], set[str]]:
    stats = {
        p: (s, m)
        for p, s, m in conn.execute(
            "SELECT path, size, mtime_ns FROM documents WHERE source IN (?, ?)", (SOURCE, ATTACHMENT)
        )
    }
    unsized: set[str] = set()
    for p, s, m in conn.execute("SELECT path, size, mtime_ns FROM skips"):
        if s >= 0:
            stats[p] = (s, m)
        else:
            unsized.add(p)
    return stats, unsized


def unchanged(vault: Vault, conn: apsw.Connection, sentinels: list[object]) -> bool:
    if db.get_json(conn, "walk.sentinels") != sentinels or db.get_meta(conn, "links.version") != str(LINKS_VERSION):
        return False
    pruned = set(db.get_json(conn, "walk.pruned", []))
    w = walk(vault.root, lambda d: d in pruned)
    stats, unsized = _stored_stats(conn)
    if len(w.files) != len(stats):
        return False
    for f in w.files:
        if stats.get(f.path) != (f.size, f.mtime_ns):
            return False
    walk_unsized = {s.path for s in w.skips}
    stored_unsized = {p for p in unsized if not (p.endswith("/") and p[:-1] in pruned)}
    return walk_unsized == stored_unsized
