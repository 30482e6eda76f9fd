"""Writing documents into an epoch: passages, FTS rows, reused vectors, tags, keys, links."""

from __future__ import annotations

import hashlib
import json
import posixpath
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import apsw

from curator.index import db, sightings
from curator.index.boilerplate import body_hash
from curator.index.db import CITE_RANK, VAULT, VEC_DONE, VEC_NONE, VEC_PENDING, get_json, has_table, set_json
from curator.index.normalise import fts_row

PassageRow = tuple[int, int, int, str, str]
"""(seq, start_line, end_line, breadcrumb, text): a chunker Passage is one."""


@dataclass
class DocInput:
    source: str
    path: str
    title: str
    passages: Sequence[PassageRow]
    """Passages, or the plain tuples they travel between processes as."""
    kp_id: str | None = None
    size: int = -1
    mtime_ns: int = -1
    blob: str | None = None
    date: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    body_line: int = 1
    tags: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    links: list[tuple[int, str, str, str | None]] = field(default_factory=list)
    """(line, kind, target, heading) for links to notes."""
    hashes: list[str] = field(default_factory=list)
    """Each passage's content hash (worked out with the passages when empty)."""
    body_hashes: list[str | None] = field(default_factory=list)
    """Each passage's boilerplate hash (``index.boilerplate``; worked out by the writer when empty)."""
    fts: list[tuple[str, str, str]] = field(default_factory=list)
    """Each passage's FTS columns (breadcrumb, body, extra), worked out by the writer when empty."""
    language: str = "en"
    """The note's language: how its words are stemmed."""
    told: str | None = None
    """The note's language when the note says it or its text tells it (None: ``language`` is the
    default): search prefers notes in the question's language."""
    text: str | None = None
    """A derived document's whole text (a source item has no file to read it from)."""
    cite_keys: list[str] = field(default_factory=list)
    """Citation keys a note's ``@key`` resolves to this document by (source items)."""
    attachment_links: list[tuple[int, str, str, str | None]] = field(default_factory=list)
    """(line, kind, target, anchor) for a note's links to attachments whose text is indexed."""

    # A large reconcile sends sixty thousand passages from worker processes: as plain
    # tuples they pickle and unpickle several times faster than as NamedTuples, and the
    # writer reads them by position.
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["passages"] = [tuple(p) for p in self.passages]
        return state

    @property
    def namespace(self) -> str | None:
        if self.kp_id and ":" in self.kp_id:
            return self.kp_id.split(":", 1)[0]
        return None


def text_hash(embed_text: str) -> str:
    """A passage's content hash: what its vector is kept by across re-chunking."""
    return hashlib.sha1(embed_text.encode("utf-8")).hexdigest()


class Writer:
    def __init__(self, conn: apsw.Connection, *, vectors: bool) -> None:
        self.conn = conn
        self.vectors = vectors
        fp = get_json(conn, "fingerprint") or {}
        self.mode: str = fp.get("normalisation", {}).get("mode", "fold+stem")
        self.languages: set[str] = set()
        self.told: set[str] = set()
        """The languages notes said or told (``DocInput.told``), for ``save_languages``."""
        # Passage ids are handed out here so a document's rows go in with executemany.
        self.next_id = db.count(conn, "SELECT max(id) FROM passages") + 1
        sightings.ensure(conn)
        self.texts = has_table(conn, "doc_text")
        self.attachments = has_table(conn, "attachment_links")
        self._cleared: set[int] = set()
        """Documents ``clear`` emptied ahead of their ``upsert``."""

    def reusable(self, doc_ids: Iterable[int]) -> dict[str, bytes]:
        """Vectors of the given documents' passages, by content hash, to keep across re-chunking."""
        if not self.vectors:
            return {}
        found: dict[str, bytes] = {}
        for doc_id in doc_ids:
            for h, emb in self.conn.execute(
                "SELECT p.hash, v.embedding FROM passages p JOIN passages_vec v ON v.rowid = p.id WHERE p.doc_id = ?",
                (doc_id,),
            ):
                found[h] = emb
        return found

    def _clear(self, doc_id: int) -> None:
        c = self.conn
        ids = [r[0] for r in c.execute("SELECT id FROM passages WHERE doc_id = ?", (doc_id,))]
        for pid in ids:
            c.execute("DELETE FROM passages_fts WHERE rowid = ?", (pid,))
            if self.vectors:
                c.execute("DELETE FROM passages_vec WHERE rowid = ?", (pid,))
        c.execute("DELETE FROM passages WHERE doc_id = ?", (doc_id,))
        c.execute("DELETE FROM tags WHERE doc_id = ?", (doc_id,))
        c.execute("DELETE FROM doc_keys WHERE doc_id = ?", (doc_id,))
        c.execute("DELETE FROM links WHERE src = ?", (doc_id,))
        if self.texts:
            c.execute("DELETE FROM doc_text WHERE doc_id = ?", (doc_id,))
        if self.attachments:
            c.execute("DELETE FROM attachment_links WHERE src = ?", (doc_id,))

    def clear(self, doc_ids: Iterable[int]) -> None:
        """Empty these documents' rows ahead of a batch that writes them again (``upsert``). An
        FTS5 delete between inserts of one transaction flushes the terms pending in memory to a
        segment of their own first: a batch of changed notes, each deleted then written, took
        4.3x as long in FTS5 as its deletes all done first (2,000 notes: 0.49 s against 0.11 s)."""
        for doc_id in doc_ids:
            self._clear(doc_id)
            self._cleared.add(doc_id)

    def delete(self, doc_id: int) -> None:
        self._clear(doc_id)
        self.conn.execute(
            "DELETE FROM sightings WHERE (source, path) IN (SELECT source, path FROM documents WHERE id = ?)", (doc_id,)
        )
        self.conn.execute("DELETE FROM documents WHERE id = ?", (doc_id,))
        self.conn.execute("UPDATE links SET dst = NULL WHERE dst = ?", (doc_id,))
        if self.attachments:
            self.conn.execute("UPDATE attachment_links SET dst = NULL WHERE dst = ?", (doc_id,))

    def touch(self, doc_id: int, size: int, mtime_ns: int) -> None:
        self.conn.execute("UPDATE documents SET size = ?, mtime_ns = ? WHERE id = ?", (size, mtime_ns, doc_id))

    def upsert(self, doc: DocInput, reuse: dict[str, bytes], existing: int | None) -> tuple[int, int]:
        """Write ``doc`` (``existing``: its document id when it is indexed already);
        returns (passages written, vectors reused)."""
        c = self.conn
        texts = [f"{crumb}\n{text}" for _seq, _start, _end, crumb, text in doc.passages]
        hashes = doc.hashes or [text_hash(t) for t in texts]
        bodies = doc.body_hashes or [body_hash(text) for _s, _a, _b, _crumb, text in doc.passages]
        columns = doc.fts or [fts_row(crumb, text, doc.language, self.mode) for _s, _a, _b, crumb, text in doc.passages]
        self.languages.add(doc.language)
        if doc.told:
            self.told.add(doc.told)
        reused = sum(1 for h in hashes if h in reuse) if self.vectors else 0
        complete = 0 if self.vectors and reused < len(hashes) else 1
        row = (
            doc.kp_id,
            doc.namespace,
            doc.title,
            doc.size,
            doc.mtime_ns,
            doc.blob,
            doc.date,
            json.dumps(doc.meta, ensure_ascii=False, default=str, sort_keys=True),
            doc.body_line,
            complete,
            doc.told,
        )
        if existing is not None:
            if existing in self._cleared:
                self._cleared.discard(existing)
            else:
                self._clear(existing)
            c.execute(
                "UPDATE documents SET kp_id=?, namespace=?, title=?, size=?, mtime_ns=?, blob=?, date=?, meta=?, "
                "body_line=?, complete=?, lang=? WHERE id=?",
                (*row, existing),
            )
            doc_id = existing
        else:
            c.execute(
                "INSERT INTO documents(source, path, kp_id, namespace, title, size, mtime_ns, blob, date, meta, "
                "body_line, complete, lang) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (doc.source, doc.path, *row),
            )
            doc_id = c.last_insert_rowid()
            sightings.record(c, doc.source, doc.path)
        first = self.next_id
        self.next_id += len(doc.passages)
        rows, fts, vecs = [], [], []
        for n, ((seq, start, end, crumb, text), h, body) in enumerate(zip(doc.passages, hashes, bodies, strict=True)):
            pid = first + n
            vec = VEC_NONE
            if self.vectors:
                vec = VEC_DONE if h in reuse else VEC_PENDING
                if vec == VEC_DONE:
                    vecs.append((pid, reuse[h]))
            rows.append((pid, doc_id, seq, start, end, crumb, text, h, vec, body))
            fts.append((pid, *columns[n]))
        c.executemany(
            "INSERT INTO passages(id, doc_id, seq, start_line, end_line, breadcrumb, text, hash, vec, body_hash) "
            "VALUES (?,?,?,?,?,?,?,?,?,?)",
            rows,
        )
        c.executemany("INSERT INTO passages_fts(rowid, breadcrumb, body, extra) VALUES (?, ?, ?, ?)", fts)
        if vecs:
            c.executemany("INSERT INTO passages_vec(rowid, embedding) VALUES (?, ?)", vecs)
        spelt: dict[str, str] = {}
        for t in doc.tags:
            spelt.setdefault(t.casefold(), t)
        c.executemany(
            "INSERT INTO tags(doc_id, tag, spelling) VALUES (?, ?, ?)", [(doc_id, t, s) for t, s in spelt.items()]
        )
        c.executemany(
            "INSERT INTO doc_keys(key, rank, doc_id) VALUES (?, ?, ?)",
            [(key, rank, doc_id) for key, rank in _keys(doc)],
        )
        if doc.text is not None:
            c.execute("INSERT INTO doc_text(doc_id, text) VALUES (?, ?)", (doc_id, doc.text))
        c.executemany(
            "INSERT INTO links(src, line, kind, target, key, heading) VALUES (?, ?, ?, ?, ?, ?)",
            [(doc_id, line, kind, target, target.casefold(), heading) for line, kind, target, heading in doc.links],
        )
        if doc.attachment_links and self.attachments:
            c.executemany(
                "INSERT INTO attachment_links(src, line, kind, target, anchor) VALUES (?, ?, ?, ?, ?)",
                [(doc_id, line, kind, target, anchor) for line, kind, target, anchor in doc.attachment_links],
            )
        return len(doc.passages), reused


def save_languages(conn: apsw.Connection, written: set[str], told: Collection[str] = ()) -> None:
    """Add the languages of the notes just written to those the query side stems for, and
    the languages notes said or told to those search may prefer (``told``)."""

    known = set(get_json(conn, "languages", []))
    if not written <= known:
        set_json(conn, "languages", sorted(known | written))
    said = set(get_json(conn, "told_languages", []))
    if not set(told) <= said:
        set_json(conn, "told_languages", sorted(said | set(told)))


def _keys(doc: DocInput) -> list[tuple[str, int]]:
    keys: list[tuple[str, int]] = []
    if doc.kp_id:
        keys.append((doc.kp_id.casefold(), 0))
    if doc.source != VAULT:
        # A source item answers its own reference and its citation keys: never a note's
        # [[Title]] or [[stem]], which stay the vault's.
        keys.extend((f"@{c}".casefold(), CITE_RANK) for c in doc.cite_keys)
        return list(dict.fromkeys(keys))
    path = doc.path.casefold()
    keys.append((path, 1))
    stem_path = posixpath.splitext(path)[0]
    if stem_path != path:
        keys.append((stem_path, 1))
    keys.append((posixpath.basename(stem_path), 2))
    keys.append((doc.title.casefold(), 3))
    keys.extend((a.casefold(), 4) for a in doc.aliases)
    return list(dict.fromkeys(keys))


def resolve_links(conn: apsw.Connection) -> int:
    """Point every link at the note the one resolver (``curator.vault.resolve``) names,
    nearest to the linking note first, else at the source item of that reference
    (``[[zotero:KEY]]``); a citation (``@key``) at the source item with that citation key.
    Returns how many links changed target.

    Resolution depends on every note (a new note nearer the linking one takes the link
    over), so all links are looked at; only those whose target changed are written.
    A note wins over a source item of the same reference (a producer may give its notes
    the ids of the items they render, zotero:ITEMKEY).
    """
    from curator.index import linkgraph

    graph = linkgraph.load(conn)
    cache: dict[tuple[str, str, str], int | None] = {}
    changes: list[tuple[int | None, int]] = []
    for rowid, src_path, kind, target, dst in conn.execute(
        "SELECT l.rowid, d.path, l.kind, l.target, l.dst FROM links l JOIN documents d ON d.id = l.src"
    ):
        key = (posixpath.dirname(src_path), target, kind)
        if key not in cache:
            if kind == "cite":
                cache[key] = graph.cites.get(target.casefold())
            else:
                found = graph.resolver.resolve_target(target, src_path, relative=kind == "markdown").path
                cache[key] = graph.ids[found] if found is not None else graph.other_ids.get(target.casefold())
        if cache[key] != dst:
            changes.append((cache[key], rowid))
    conn.executemany("UPDATE links SET dst = ? WHERE rowid = ?", changes)
    return len(changes)
