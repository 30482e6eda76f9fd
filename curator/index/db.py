"""SQLite through one place: apsw connections, pragmas, sqlite-vec, the schema.

Every connection waits on a busy index instead of failing ("database is
locked"), and every epoch database is in WAL mode so several readers (search,
MCP servers) proceed while one indexer writes.
"""

from __future__ import annotations

import importlib.util
import json
import os
from typing import Any

import apsw

from curator.errors import IndexError_
from curator.vault.globs import compile_glob

BUSY_TIMEOUT_MS = 10_000
SCHEMA_VERSION = 3
"""2: tags keep their spelling and hold the body's ``#tags``; passages carry their body's
boilerplate hash and a table counts the notes each is repeated in. 3: documents carry their
language (``lang``) and whether they are a template note (``template``)."""
VAULT = "vault"
ATTACHMENT = "attachment"
"""The source name of the vault's attachments (PDFs, Word files) whose text is indexed."""
CITE_RANK = 5
"""The doc_keys rank of a source item's citation keys: only ``cite`` links (``@key``) match
them, and ``cite`` links match nothing else, so a note named ``@smith2020.md`` and the item
cited as ``@smith2020`` never stand in for each other."""
"""The source name of the vault's notes (corpora and Zotero have their own)."""
VEC_PENDING, VEC_DONE, VEC_SECRET, VEC_REJECTED, VEC_NONE = 0, 1, 2, 3, 4
"""A passage's vector state: waiting, embedded, withheld (carries a secret), refused, no embedder."""


def _vec_extension() -> str:
    # Found without importing sqlite_vec, which pulls numpy in (a no-change reconcile
    # must stay a stat walk).
    spec = importlib.util.find_spec("sqlite_vec")
    if spec is None or not spec.submodule_search_locations:
        raise IndexError_("the sqlite-vec package is missing", hint="pip install sqlite-vec")
    return os.path.join(next(iter(spec.submodule_search_locations)), "vec0")


def _glob(pattern: Any, path: Any) -> bool:
    return compile_glob(str(pattern)).match(str(path))


def writing(conn: apsw.Connection) -> apsw.Connection:
    """Tune a connection that is about to write a lot: no checkpoint every 4 MB of WAL
    (each one syncs); the writer checkpoints once when it finishes."""
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    return conn


def building(conn: apsw.Connection) -> None:
    """A new epoch that nothing reads yet: no journal and no syncs while it fills, and a
    64 MB page cache. A kill leaves a file that is never swapped in, and is pruned."""
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -65536")


def serving(conn: apsw.Connection) -> None:
    """WAL before readers can see the epoch, so they read while the indexer writes."""
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")


def connect(path: str, *, vectors: bool = True, readonly: bool = False) -> apsw.Connection:
    try:
        conn = apsw.Connection(path, flags=apsw.SQLITE_OPEN_READONLY) if readonly else apsw.Connection(path)
    except apsw.CantOpenError as e:
        raise IndexError_(f"cannot open the index at {path}: {e}") from None
    conn.set_busy_timeout(BUSY_TIMEOUT_MS)
    if vectors:
        conn.enable_load_extension(True)
        conn.load_extension(_vec_extension())
        conn.enable_load_extension(False)
    conn.create_scalar_function("kp_glob", _glob, 2, deterministic=True)  # type: ignore[arg-type]
    return conn


def create_schema(conn: apsw.Connection, *, tokenizer: str, dims: int) -> None:
    with conn:
        conn.execute(
            f"""
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE documents (
                id INTEGER PRIMARY KEY,
                source TEXT NOT NULL,
                path TEXT NOT NULL,
                kp_id TEXT,
                namespace TEXT,
                title TEXT NOT NULL,
                size INTEGER NOT NULL DEFAULT -1,
                mtime_ns INTEGER NOT NULL DEFAULT -1,
                blob TEXT,
                date TEXT,
                meta TEXT NOT NULL DEFAULT '{{}}',
                body_line INTEGER NOT NULL DEFAULT 1,
                complete INTEGER NOT NULL DEFAULT 0,
                lang TEXT,
                template INTEGER NOT NULL DEFAULT 0,
                UNIQUE (source, path)
            );
            CREATE INDEX documents_kp ON documents(kp_id);
            CREATE TABLE tags (doc_id INTEGER NOT NULL, tag TEXT NOT NULL, spelling TEXT NOT NULL);
            CREATE INDEX tags_tag ON tags(tag);
            CREATE INDEX tags_doc ON tags(doc_id);
            CREATE TABLE passages (
                id INTEGER PRIMARY KEY,
                doc_id INTEGER NOT NULL,
                seq INTEGER NOT NULL,
                start_line INTEGER NOT NULL,
                end_line INTEGER NOT NULL,
                breadcrumb TEXT NOT NULL,
                text TEXT NOT NULL,
                hash TEXT NOT NULL,
                vec INTEGER NOT NULL DEFAULT 0,
                note TEXT,
                body_hash TEXT
            );
            CREATE INDEX passages_doc ON passages(doc_id);
            CREATE INDEX passages_pending ON passages(vec) WHERE vec = 0;
            CREATE VIRTUAL TABLE passages_fts USING fts5(
                breadcrumb, body, extra, content='', contentless_delete=1, tokenize='{tokenizer}'
            );
            CREATE TABLE doc_keys (key TEXT NOT NULL, rank INTEGER NOT NULL, doc_id INTEGER NOT NULL);
            CREATE INDEX doc_keys_key ON doc_keys(key, rank);
            CREATE INDEX doc_keys_doc ON doc_keys(doc_id);
            CREATE TABLE links (
                src INTEGER NOT NULL, line INTEGER NOT NULL, kind TEXT NOT NULL,
                target TEXT NOT NULL, key TEXT NOT NULL, heading TEXT, dst INTEGER
            );
            CREATE INDEX links_src ON links(src);
            CREATE INDEX links_dst ON links(dst);
            CREATE TABLE skips (path TEXT PRIMARY KEY, reason TEXT NOT NULL,
                                size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL);
            CREATE TABLE boilerplate (body_hash TEXT PRIMARY KEY, notes INTEGER NOT NULL);
            CREATE TABLE attachment_links (
                src INTEGER NOT NULL, line INTEGER NOT NULL, kind TEXT NOT NULL,
                target TEXT NOT NULL, anchor TEXT, dst INTEGER
            );
            CREATE INDEX attachment_links_src ON attachment_links(src);
            CREATE INDEX attachment_links_dst ON attachment_links(dst);
            """
        )
        ensure_derived(conn)
        # FTS5 flushes its in-memory terms to a new segment every 1 MB by default; fewer,
        # larger segments cost fewer merges on a full build.
        conn.execute("INSERT INTO passages_fts(passages_fts, rank) VALUES ('hashsize', 16777216)")
        if dims:
            conn.execute(
                f"CREATE VIRTUAL TABLE passages_vec USING vec0(embedding float[{dims}] distance_metric=cosine)"
            )
        set_meta(conn, "schema", str(SCHEMA_VERSION))


def ensure_derived(conn: apsw.Connection) -> None:
    """The table of derived documents' text (a source item has no file to read it from).
    Created on first use in an epoch built before sources existed: additive, so the epoch
    stays valid for older and newer Curator alike."""
    conn.execute("CREATE TABLE IF NOT EXISTS doc_text (doc_id INTEGER PRIMARY KEY, text TEXT NOT NULL)")


def has_table(conn: apsw.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone() is not None


Row = tuple[Any, ...]
"""A row as Curator reads it: SQLite's values are dynamically typed, so each caller converts the
columns it knows (``int(row[0])``); apsw's own union type says nothing more."""


def rows(conn: apsw.Connection, sql: str, params: Any = ()) -> list[Row]:
    return [tuple(r) for r in conn.execute(sql, params).fetchall()]


def one(conn: apsw.Connection, sql: str, params: Any = ()) -> Row:
    """The one row of a query that always has one (an aggregate, a lookup of a known key)."""
    row = conn.execute(sql, params).fetchone()
    if row is None:
        raise apsw.CorruptError(f"no row where the index must hold one ({sql.split(' FROM ')[0]})")
    return tuple(row)


def scalar(conn: apsw.Connection, sql: str, params: Any = ()) -> Any:
    return one(conn, sql, params)[0]


def count(conn: apsw.Connection, sql: str, params: Any = ()) -> int:
    """An aggregate's integer (``count(*)``, ``max(id)``); 0 for NULL."""
    return int(scalar(conn, sql, params) or 0)


def get_meta(conn: apsw.Connection, key: str, default: str | None = None) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else default


def set_meta(conn: apsw.Connection, key: str, value: str) -> None:
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value)
    )


def get_json(conn: apsw.Connection, key: str, default: Any = None) -> Any:
    raw = get_meta(conn, key)
    return json.loads(raw) if raw is not None else default


def set_json(conn: apsw.Connection, key: str, value: Any) -> None:
    set_meta(conn, key, json.dumps(value, sort_keys=True))


def has_vectors(conn: apsw.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'passages_vec'").fetchone() is not None


CORRUPT = (apsw.CorruptError, apsw.NotADBError, apsw.SQLError)


# SQLite's codes for a write the file system refused: the shared-memory file could not grow
# (the first thing a reader of a WAL database does, so a full disk fails a search too), a page
# could not be written, synced or truncated. The disk is full or failing; the file is not damaged.
_WRITE_REFUSED = frozenset(
    apsw.mapping_extended_result_codes[f"SQLITE_IOERR_{name}"]
    for name in ("SHMSIZE", "SHMOPEN", "SHMMAP", "WRITE", "FSYNC", "DIR_FSYNC", "TRUNCATE", "MMAP")
)


def out_of_room(e: BaseException) -> bool:
    """SQLite's word that it could not write (a full disk), which is never damage to the file."""
    return isinstance(e, apsw.FullError) or (
        isinstance(e, apsw.IOError) and getattr(e, "extendedresult", None) in _WRITE_REFUSED
    )


def is_corruption(e: BaseException) -> bool:
    """SQLite's own word that the file is damaged (not a busy lock or a bad query)."""
    if isinstance(e, apsw.CorruptError | apsw.NotADBError):
        return True
    text = str(e).lower()
    return isinstance(e, apsw.SQLError) and ("malformed" in text or "corrupt" in text)


def passage_count(conn: apsw.Connection) -> int:
    return count(conn, "SELECT count(*) FROM passages")


def embed_rate(conn: apsw.Connection) -> float | None:
    """Passages a second the last embedding run managed (None before one ran long enough)."""
    raw = get_meta(conn, "embed_rate")
    try:
        return float(raw) if raw else None
    except ValueError:
        return None
