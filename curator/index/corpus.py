"""Writing a source's items into an epoch as derived documents: incremental by change token.

An item whose token is what the index holds is not touched. A changed item is re-chunked,
and its passages whose text did not change keep their vectors (by content hash), so an
edited abstract re-embeds the abstract's passage and nothing else. Items the source no
longer has are removed, but only after the source was read to the end: a read that fails
halfway removes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import apsw

from curator.index.chunker import chunk
from curator.index.db import ensure_derived
from curator.index.writer import DocInput, Writer, resolve_links, save_languages
from curator.sources.base import Item

BATCH = 1000


def doc_input(source: str, kind: str, item: Item) -> DocInput:
    meta: dict[str, Any] = {"source": source, "type": kind, "link": item.link, "fields": dict(item.fields)}
    return DocInput(
        source=source,
        path=item.ref,
        title=item.title,
        kp_id=item.ref,
        blob=item.token,
        date=item.date,
        meta=meta,
        tags=list(item.tags),
        passages=chunk(item.text, 1, item.title),
        text=item.text,
        cite_keys=list(item.cite_keys),
    )


def index_items(
    conn: apsw.Connection,
    source: str,
    kind: str,
    items: Iterable[Item],
    *,
    vectors: bool,
    progress: Callable[[int], None] | None = None,
    resolve: bool = True,
) -> tuple[int, int, int]:
    """Upsert ``items`` as documents of ``source``; returns (indexed, unchanged, removed)."""
    with conn:
        ensure_derived(conn)
    writer = Writer(conn, vectors=vectors)
    known = {p: (i, b) for i, p, b in conn.execute("SELECT id, path, blob FROM documents WHERE source = ?", (source,))}
    seen: set[str] = set()
    indexed = unchanged = 0
    batch: list[Item] = []

    def flush() -> None:
        nonlocal indexed
        with conn:
            reuse = writer.reusable([known[i.ref][0] for i in batch if i.ref in known])
            for item in batch:
                writer.upsert(doc_input(source, kind, item), reuse, known[item.ref][0] if item.ref in known else None)
                indexed += 1
        if progress:
            progress(len(batch))
        batch.clear()

    for item in items:
        if item.ref in seen:
            continue  # an adapter yields each reference once; this guards the index's uniqueness
        seen.add(item.ref)
        if item.ref in known and known[item.ref][1] == item.token:
            unchanged += 1
            continue
        batch.append(item)
        if len(batch) >= BATCH:
            flush()
    if batch:
        flush()
    removed = [i for p, (i, _b) in known.items() if p not in seen]
    with conn:
        for doc_id in removed:
            writer.delete(doc_id)
        if resolve and (indexed or removed):
            resolve_links(conn)
        save_languages(conn, writer.languages)
    return indexed, unchanged, len(removed)
