"""Indexing a corpus source (JSONL) into an epoch: incremental by content hash."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable

import apsw

from curator.index.chunker import chunk
from curator.index.writer import DocInput, Writer, resolve_links
from curator.sources.jsonl import CorpusDoc

BATCH = 1000


def _token(doc: CorpusDoc) -> str:
    return hashlib.sha1(f"{doc.title}\x00{doc.text}".encode()).hexdigest()


def index_corpus(
    conn: apsw.Connection,
    source: str,
    docs: Iterable[CorpusDoc],
    *,
    vectors: bool,
    progress: Callable[[int], None] | None = None,
) -> tuple[int, int, int]:
    """Upsert ``docs`` under ``source``; returns (indexed, unchanged, removed)."""
    writer = Writer(conn, vectors=vectors)
    known = {p: (i, b) for i, p, b in conn.execute("SELECT id, path, blob FROM documents WHERE source = ?", (source,))}
    seen: set[str] = set()
    indexed = unchanged = 0
    batch: list[CorpusDoc] = []

    def flush() -> None:
        nonlocal indexed
        with conn:
            changed = [known[d.id][0] for d in batch if d.id in known]
            reuse = writer.reusable(changed)
            for d in batch:
                title = d.title or d.id
                doc = DocInput(source=source, path=d.id, title=title, blob=_token(d), passages=chunk(d.text, 1, title))
                writer.upsert(doc, reuse, known[d.id][0] if d.id in known else None)
                indexed += 1
        if progress:
            progress(len(batch))
        batch.clear()

    for d in docs:
        if d.id in seen:
            continue
        seen.add(d.id)
        if d.id in known and known[d.id][1] == _token(d):
            unchanged += 1
            continue
        batch.append(d)
        if len(batch) >= BATCH:
            flush()
    if batch:
        flush()
    removed = [i for p, (i, _b) in known.items() if p not in seen]
    with conn:
        for doc_id in removed:
            writer.delete(doc_id)
        resolve_links(conn)
    return indexed, unchanged, len(removed)
