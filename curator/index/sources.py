"""Syncing the configured sources into an epoch: their items as derived documents.

A source is read again only when one of its files changed size or mtime, its config entry
changed, or a sync was asked for by name; otherwise a sync costs a stat per file. A read
that fails (missing, corrupt, locked past copying, an unknown schema) is reported with the
file named, and the items already indexed from that source keep serving. A source no
longer in the config leaves the index. What each source last did is kept in the epoch's
``meta`` table, for ``curator sources ls``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

import apsw

from curator import clock
from curator.errors import SourceError
from curator.index import db
from curator.index.db import ATTACHMENT, VAULT
from curator.index.writer import Writer, resolve_links
from curator.settings import Settings
from curator.sources.all_sources import open_source
from curator.sources.base import Problems

STATE_KEY = "sources"
SCRATCH = "scratch"
"""The folder under the index directory where copies of locked libraries are made."""
Progress = Callable[[str, int, int], None]


@dataclass
class SourceReport:
    name: str
    type: str
    path: str
    read: bool = False
    """Read this time (else its files and config had not changed)."""
    indexed: int = 0
    unchanged: int = 0
    removed: int = 0
    items: int = 0
    error: str | None = None
    problems: Problems = field(default_factory=Problems)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "path": self.path,
            "read": self.read,
            "indexed": self.indexed,
            "unchanged": self.unchanged,
            "removed": self.removed,
            "items": self.items,
            "error": self.error,
            "problems": self.problems.to_json(),
            "seconds": round(self.seconds, 3),
        }


@dataclass
class SyncReport:
    sources: list[SourceReport] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    """Sources no longer in the config, whose items left the index."""
    wrote: bool = False


def _stamp(files: list[str]) -> list[list[Any]]:
    out: list[list[Any]] = []
    for path in files:
        try:
            st = os.stat(path)
            out.append([path, st.st_size, st.st_mtime_ns])
        except OSError:
            out.append([path, None, None])
    return out


def _files(saved: dict[str, Any]) -> list[str]:
    return [str(entry[0]) for entry in saved.get("stamp") or [] if entry]


def _now() -> str:
    return clock.iso()


def state_of(conn: apsw.Connection) -> dict[str, Any]:
    state = db.get_json(conn, STATE_KEY, {})
    return state if isinstance(state, dict) else {}


def _problems(saved: dict[str, Any]) -> Problems:
    p = saved.get("problems") or {}
    return Problems(p.get("count", 0), list(p.get("named", [])), list(p.get("warnings", [])), p.get("warning_count", 0))


def sync_sources(
    conn: apsw.Connection,
    vault_root: str,
    settings: Settings,
    index_dir: str,
    *,
    force: Collection[str] | bool = False,
    progress: Progress | None = None,
) -> SyncReport:
    """Bring every configured source's items up to date in ``conn`` (the writer lock held).

    A source whose config entry and files are as they were costs a stat per file: not even
    its adapter is loaded."""
    state = state_of(conn)
    before = dict(state)
    report = SyncReport()
    vectors = db.has_vectors(conn)
    scratch = os.path.join(index_dir, SCRATCH)
    for src in settings.sources:
        config = json.loads(json.dumps(dataclasses.asdict(src)))  # as the state keeps it
        saved = state.get(src.name) or {}
        asked = force is True or (not isinstance(force, bool) and src.name in force)
        if not asked and saved.get("config") == config and saved.get("stamp") == _stamp(_files(saved)):
            rep = SourceReport(src.name, src.type, str(saved.get("path", "")))
            rep.items, rep.error, rep.problems = saved.get("items", 0), saved.get("error"), _problems(saved)
            report.sources.append(rep)
            continue
        from curator.index.attachment import limits_of
        from curator.index.corpus import index_items

        adapter = open_source(src, vault_root, scratch)
        stamp = _stamp(adapter.files())
        rep = SourceReport(src.name, src.type, adapter.path, read=True)
        report.sources.append(rep)
        started = time.perf_counter()
        expected = int(saved.get("items", 0))
        done = [0]

        def tick(n: int, name: str = src.name, expected: int = expected, done: list[int] = done) -> None:
            done[0] += n
            if progress:
                progress(f"reading {name}", done[0], max(expected, done[0]))

        try:
            rep.indexed, rep.unchanged, rep.removed = index_items(
                conn,
                src.name,
                src.type,
                adapter.read(rep.problems),
                vectors=vectors,
                progress=tick,
                resolve=False,
                limits=limits_of(settings),
            )
        except SourceError as e:
            rep.error = str(e)
        rep.seconds = time.perf_counter() - started
        rep.items = db.count(conn, "SELECT count(*) FROM documents WHERE source = ?", (src.name,))
        report.wrote = report.wrote or bool(rep.indexed or rep.removed)
        state[src.name] = {
            "type": src.type,
            "path": adapter.path,
            "config": config,
            "stamp": stamp,
            "items": rep.items,
            "error": rep.error,
            "problems": rep.problems.to_json(),
            "synced": saved.get("synced") if rep.error else _now(),
            "tried": _now(),
        }
    configured = {s.name for s in settings.sources}
    held = [
        r[0]
        for r in conn.execute("SELECT DISTINCT source FROM documents WHERE source NOT IN (?, ?)", (VAULT, ATTACHMENT))
    ]
    report.dropped = sorted({name for name in [*held, *state] if name not in configured})
    if report.dropped:
        writer = Writer(conn, vectors=vectors)
        with conn:
            for name in report.dropped:
                for (doc_id,) in db.rows(conn, "SELECT id FROM documents WHERE source = ?", (name,)):
                    writer.delete(int(doc_id))
                state.pop(name, None)
        report.wrote = report.wrote or bool(set(report.dropped) & set(held))
    if report.wrote:
        with conn:
            resolve_links(conn)
    if state != before:
        with conn:
            db.set_json(conn, STATE_KEY, state)
        report.wrote = True
    return report
