"""When the index first saw each document: the last resort for a note's creation time.

A note without a ``created`` date that git has never committed (a new, untracked
file) still needs a time for the librarian's window. The writer records the moment
a document first enters an epoch; rebuilding the epoch starts these over.

The table is created on first use rather than in the schema, so epochs built
before it existed gain it on their next reconcile: no migration, nothing rebuilt.
"""

from __future__ import annotations

import apsw

from curator import clock


def ensure(conn: apsw.Connection) -> None:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS sightings (source TEXT NOT NULL, path TEXT NOT NULL, at TEXT NOT NULL, "
        "PRIMARY KEY (source, path))"
    )


def record(conn: apsw.Connection, source: str, path: str) -> None:
    """Note that (source, path) is in the index now, unless it was seen before."""
    at = clock.iso()
    conn.execute("INSERT OR IGNORE INTO sightings(source, path, at) VALUES (?, ?, ?)", (source, path, at))


def read(conn: apsw.Connection) -> dict[tuple[str, str], str]:
    """(source, path) → the UTC time it was first indexed; empty for an epoch without the table."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'sightings'").fetchone() is None:
        return {}
    return {(s, p): at for s, p, at in conn.execute("SELECT source, path, at FROM sightings")}
