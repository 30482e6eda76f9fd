"""Reading the index: the one API that every reader surface calls.

``curator ls``, ``read``, ``relate``, ``status``, the search engine, the MCP tools,
the review UI and the digest read the index through these functions; no SQL lives
outside ``curator/index/`` (``tests/index/test_sql_boundary.py`` holds that).
Every function takes an open connection to the serving epoch
(``curator.index.reader.open_serving``) and returns plain dataclasses.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import apsw

from curator.index import db, neighbours
from curator.index.db import VAULT, VEC_DONE, VEC_PENDING, VEC_REJECTED, VEC_SECRET
from curator.index.neighbours import Neighbour


@dataclass(frozen=True)
class Document:
    id: int
    source: str
    path: str
    kp_id: str | None
    title: str
    blob: str | None
    date: str | None
    passages: int
    complete: bool


@dataclass(frozen=True)
class Passage:
    id: int
    doc_id: int
    source: str
    path: str
    kp_id: str | None
    title: str
    breadcrumb: str
    start_line: int
    end_line: int
    text: str
    link: str | None = None
    """A source item's link (``zotero://select/...``); None for notes."""


@dataclass(frozen=True)
class LinkedNote:
    path: str
    kp_id: str | None
    title: str
    line: int
    """The line in the linking note."""
    anchor: str | None = None
    """What followed ``#`` in the link: a heading, or ``^block-id``."""
    target_line: int | None = None
    """The line of the linked note that the anchor names, when found."""
    candidates: list[str] = field(default_factory=list)
    """Other notes the link's target also names (the linked one was nearest)."""

    @property
    def anchor_missing(self) -> bool:
        """The link names a heading or block the linked note does not have."""
        return self.anchor is not None and self.target_line is None


@dataclass(frozen=True)
class Unresolved:
    target: str
    line: int
    kind: str


@dataclass
class Relations:
    path: str
    kp_id: str | None
    title: str
    links: list[LinkedNote] = field(default_factory=list)
    backlinks: list[LinkedNote] = field(default_factory=list)
    unresolved: list[Unresolved] = field(default_factory=list)
    neighbours: list[Neighbour] = field(default_factory=list)


_DOC = "d.id, d.source, d.path, d.kp_id, d.title, d.blob, d.date, (SELECT count(*) FROM passages p WHERE p.doc_id = d.id), d.complete"


def _document(row: Any) -> Document:
    i, source, path, kp_id, title, blob, date, n, complete = row
    return Document(i, source, path, kp_id, title, blob, date, n, bool(complete))


def documents(conn: apsw.Connection, source: str | None = None) -> list[Document]:
    """Every document (of one source, when given), by source then path."""
    where, params = ("WHERE d.source = ?", (source,)) if source else ("", ())
    rows = conn.execute(f"SELECT {_DOC} FROM documents d {where} ORDER BY d.source, d.path", params)
    return [_document(r) for r in rows]


def document(conn: apsw.Connection, path: str, source: str = VAULT) -> Document | None:
    row = conn.execute(f"SELECT {_DOC} FROM documents d WHERE d.source = ? AND d.path = ?", (source, path)).fetchone()
    return _document(row) if row else None


def lookup(conn: apsw.Connection, ref: str, source: str = VAULT) -> list[str]:
    """Paths of the documents ``ref`` names, best first, by the one link resolver (kp_id,
    path, file name, alias, then title; the nearest the top of the vault first)."""
    if source == VAULT:
        from curator.index import linkgraph

        return list(linkgraph.lookup(conn, ref).candidates)
    rows = conn.execute(
        "SELECT d.path FROM doc_keys k JOIN documents d ON d.id = k.doc_id WHERE k.key = ? AND d.source = ? "
        "ORDER BY k.rank, length(d.path), d.path",
        (ref.casefold(), source),
    )
    return list(dict.fromkeys(r[0] for r in rows))


def passage_count(conn: apsw.Connection) -> int:
    return db.count(conn, "SELECT count(*) FROM passages")


def pending_vectors(conn: apsw.Connection) -> int:
    """Passages still waiting for their vector (a first index embedding, an embedder that was
    down): a hybrid search ranks them by their words alone meanwhile."""
    return db.count(conn, f"SELECT count(*) FROM passages WHERE vec = {VEC_PENDING}")


def dated_documents(conn: apsw.Connection) -> tuple[int, int]:
    """(documents that carry a date, those that carry none): what --since and --until compare,
    and what they leave out whatever the range."""
    row = conn.execute("SELECT count(date), count(*) - count(date) FROM documents").fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


_PASSAGE = (
    "p.id, p.doc_id, d.source, d.path, d.kp_id, d.title, p.breadcrumb, p.start_line, p.end_line, p.text, "
    f"CASE WHEN d.source != '{VAULT}' THEN json_extract(d.meta, '$.link') END "
    "FROM passages p JOIN documents d ON d.id = p.doc_id"
)


def passage(conn: apsw.Connection, pid: int) -> Passage | None:
    row = conn.execute(f"SELECT {_PASSAGE} WHERE p.id = ?", (pid,)).fetchone()
    return Passage(*row) if row else None


def passages_of(conn: apsw.Connection, doc_id: int) -> list[Passage]:
    return [Passage(*r) for r in conn.execute(f"SELECT {_PASSAGE} WHERE p.doc_id = ? ORDER BY p.seq", (doc_id,))]


def note_body_hashes(conn: apsw.Connection, pids: list[int]) -> dict[int, tuple[int, str]]:
    """Each passage of a vault note among ``pids`` → (its document, the hash of its normalised
    body: ``index.boilerplate``); one too short to say anything has none and is left out."""
    out: dict[int, tuple[int, str]] = {}
    for start in range(0, len(pids), 500):
        part = pids[start : start + 500]
        marks = ",".join("?" * len(part))
        for pid, doc, h in conn.execute(
            f"SELECT p.id, p.doc_id, p.body_hash FROM passages p JOIN documents d ON d.id = p.doc_id "
            f"WHERE p.id IN ({marks}) AND d.source = ? AND p.body_hash IS NOT NULL",
            [*part, VAULT],
        ):
            out[int(pid)] = (int(doc), str(h))
    return out


def same_document(conn: apsw.Connection, a: int, b: int) -> bool:
    return db.count(conn, "SELECT count(DISTINCT doc_id) FROM passages WHERE id IN (?, ?)", (a, b)) == 1


def vector_of(conn: apsw.Connection, pid: int) -> bytes | None:
    if not db.has_vectors(conn):
        return None
    row = conn.execute("SELECT embedding FROM passages_vec WHERE rowid = ?", (pid,)).fetchone()
    return bytes(row[0]) if row else None


def relations(conn: apsw.Connection, path: str, limit: int = 20, source: str = VAULT) -> Relations | None:
    """Links, backlinks, unresolved links and one-hop neighbours of the vault note at ``path``
    (or of a source item, ``path`` its reference and ``source`` its source)."""
    doc = document(conn, path, source)
    if doc is None:
        return None
    rel = Relations(doc.path, doc.kp_id, doc.title)
    from curator.index import linkgraph

    graph = None
    for p, k, t, line, target, kind, anchor, dst in conn.execute(
        "SELECT d.path, d.kp_id, d.title, l.line, l.target, l.kind, l.heading, l.dst FROM links l "
        "JOIN documents d ON d.id = l.dst WHERE l.src = ? ORDER BY l.line, d.path",
        (doc.id,),
    ):
        graph = graph or linkgraph.load(conn)
        found = graph.resolver.resolve_target(target, doc.path, relative=kind == "markdown")
        others = [c for c in found.candidates if c != p]
        rel.links.append(LinkedNote(p, k, t, line, anchor, linkgraph.anchor_line(conn, dst, anchor), others))
    for p, k, t, line, anchor in conn.execute(
        "SELECT d.path, d.kp_id, d.title, l.line, l.heading FROM links l JOIN documents d ON d.id = l.src "
        "WHERE l.dst = ? ORDER BY d.path, l.line",
        (doc.id,),
    ):
        rel.backlinks.append(LinkedNote(p, k, t, line, anchor, linkgraph.anchor_line(conn, doc.id, anchor)))
    rel.unresolved = [
        Unresolved(*r)
        for r in conn.execute(
            # an @word no source item answers may be a mention, not a citation: not a broken link
            "SELECT target, line, kind FROM links WHERE src = ? AND dst IS NULL AND kind != 'cite' ORDER BY line",
            (doc.id,),
        )
    ]
    # Neighbours: notes that share a link target with this one, or are linked from the same
    # notes, each shared note weighed by how rare it is (a hub says little).
    rel.neighbours = neighbours.of(conn, doc.id, limit)
    return rel


@dataclass
class Counts:
    documents: int
    passages: int
    embedded: int
    pending_embeddings: int
    lexical_only_secrets: int
    rejected_by_embedder: int
    incomplete_documents: int
    links: int
    unresolved_links: int
    skipped_files: int


def counts(conn: apsw.Connection) -> Counts:
    def one(sql: str) -> int:
        return db.count(conn, sql)

    by_vec = {int(v): int(n) for v, n in db.rows(conn, "SELECT vec, count(*) FROM passages GROUP BY vec")}
    return Counts(
        documents=one("SELECT count(*) FROM documents"),
        passages=sum(by_vec.values()),
        embedded=by_vec.get(VEC_DONE, 0),
        pending_embeddings=by_vec.get(VEC_PENDING, 0),
        lexical_only_secrets=by_vec.get(VEC_SECRET, 0),
        rejected_by_embedder=by_vec.get(VEC_REJECTED, 0),
        incomplete_documents=one("SELECT count(*) FROM documents WHERE complete = 0"),
        links=one("SELECT count(*) FROM links"),
        unresolved_links=one("SELECT count(*) FROM links WHERE dst IS NULL AND kind != 'cite'"),
        skipped_files=one("SELECT count(*) FROM skips"),
    )


def withheld(conn: apsw.Connection) -> dict[str, dict[str, int]]:
    """What the leak scanner kept from a remote embedder, counted by kind, never the secret.

    ``passages``: passages left lexical-only; ``queries``: searches not sent to the embedder.
    """
    passages: Counter[str] = Counter()
    for (note,) in conn.execute("SELECT note FROM passages WHERE vec = ?", (VEC_SECRET,)):
        for kind in (note or "secret").split(", "):
            passages[kind] += 1
    queries = db.get_json(conn, "withheld_queries", {}) or {}
    return {"passages": dict(sorted(passages.items())), "queries": dict(sorted(queries.items()))}


def record_withheld_query(conn: apsw.Connection, kinds: list[str]) -> None:
    """Count a query kept from a remote embedder (by kind): ``curator status`` shows it."""
    with conn:
        seen = db.get_json(conn, "withheld_queries", {}) or {}
        for kind in kinds:
            seen[kind] = int(seen.get(kind, 0)) + 1
        db.set_json(conn, "withheld_queries", seen)


def remote_usage(conn: apsw.Connection) -> tuple[int, int]:
    usage = json.loads(db.get_meta(conn, "remote_usage") or '{"calls": 0, "tokens": 0}')
    return int(usage["calls"]), int(usage["tokens"])


def last_reconcile(conn: apsw.Connection) -> tuple[str | None, float]:
    return db.get_meta(conn, "last_reconcile"), float(db.get_meta(conn, "last_reconcile_seconds") or 0)


def fingerprint(conn: apsw.Connection) -> dict[str, Any]:
    return dict(db.get_json(conn, "fingerprint"))


@dataclass(frozen=True)
class CardRow:
    path: str
    kp_id: str | None
    title: str
    date: str | None


def tag_counts(conn: apsw.Connection, limit: int) -> list[tuple[str, int]]:
    rows = conn.execute(
        "SELECT t.tag, count(DISTINCT t.doc_id) AS n FROM tags t JOIN documents d ON d.id = t.doc_id "
        "WHERE d.source = ? GROUP BY t.tag ORDER BY n DESC, t.tag LIMIT ?",
        (VAULT, limit),
    )
    return [(str(t), int(n)) for t, n in rows]


def tag_spellings(conn: apsw.Connection, tags: list[str]) -> dict[str, list[str]]:
    """How the notes spell each of ``tags`` (casefolded, as the index keeps them), sorted.

    Whether a tag is a secret can depend on its case: an AWS key casefolded is no longer
    an AWS key to the leak scanner, yet upper-casing it gives the key back.
    """

    if not tags:
        return {}
    wanted = sorted(set(tags))
    marks = ", ".join("?" * len(wanted))
    rows = conn.execute(
        "SELECT DISTINCT t.tag, t.spelling FROM tags t JOIN documents d ON d.id = t.doc_id "
        f"WHERE d.source = ? AND t.tag IN ({marks})",
        (VAULT, *wanted),
    )
    found: dict[str, set[str]] = {t: set() for t in wanted}
    for tag, spelling in rows:
        found[str(tag)].add(str(spelling))
    return {t: sorted(s) for t, s in found.items()}


def recent(conn: apsw.Connection, limit: int) -> list[CardRow]:
    """Vault notes by date (newest first; undated last), then path: a deterministic order."""
    rows = conn.execute(
        "SELECT path, kp_id, title, date FROM documents WHERE source = ? "
        "ORDER BY date IS NULL, date DESC, path LIMIT ?",
        (VAULT, limit),
    )
    return [CardRow(*r) for r in rows]


def vault_paths(conn: apsw.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT path FROM documents WHERE source = ? ORDER BY path", (VAULT,))]
