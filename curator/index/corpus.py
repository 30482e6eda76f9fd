"""Writing a source's items into an epoch as derived documents: incremental by change token.

An item whose token is what the index holds is not touched. A changed item is re-chunked,
and its passages whose text did not change keep their vectors (by content hash), so an
edited abstract re-embeds the abstract's passage and nothing else. Items the source no
longer has are removed, but only after the source was read to the end: a read that fails
halfway removes nothing.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

import apsw

from curator.attachments import sandbox
from curator.attachments.all_extractors import for_path
from curator.attachments.base import Extraction, Limits, Unextractable
from curator.index.attachment import paged
from curator.index.chunker import chunk
from curator.index.db import ensure_derived
from curator.index.writer import DocInput, Writer, resolve_links, save_languages
from curator.sources.base import Item

BATCH = 1000


def doc_input(source: str, kind: str, item: Item, pdf: Extraction | Unextractable | None = None) -> DocInput:
    """The item as a document; ``pdf``, its file's text (``Item.files``), follows the item's own
    text, page by page, each page's first line kept in ``meta.pages`` for its citations."""
    meta: dict[str, Any] = {"source": source, "type": kind, "link": item.link, "fields": dict(item.fields)}
    passages = chunk(item.text, 1, item.title)
    text = item.text
    if item.files and isinstance(pdf, Extraction):
        own = item.text.rstrip("\n").split("\n")
        lines, starts, more = paged(pdf, item.title, len(own) + 2, len(passages))
        text = "\n".join([*own, "", *lines]) + "\n"
        passages += more
        meta |= {"pages": starts, "attachment": os.path.basename(item.files[0][0]), "extractor": pdf.extractor}
    elif item.files and isinstance(pdf, Unextractable):
        meta["attachment_skipped"] = f"{os.path.basename(item.files[0][0])}: {pdf.reason}"
    return DocInput(
        source=source,
        path=item.ref,
        title=item.title,
        kp_id=item.ref,
        blob=item.token,
        date=item.date,
        meta=meta,
        tags=list(item.tags),
        passages=passages,
        text=text,
        cite_keys=list(item.cite_keys),
    )


def _read_files(items: list[Item], limits: Limits) -> dict[str, Extraction | Unextractable]:
    """The text of each item's first file, by the item's reference, read by one sandboxed child."""
    wanted = [item for item in items if item.files]
    if not wanted:
        return {}
    out: dict[str, Extraction | Unextractable] = {}
    work: list[sandbox.Work] = []
    refs: list[str] = []
    for item in wanted:
        path = item.files[0][0]
        extractor = for_path(path)
        if extractor is None:
            out[item.ref] = Unextractable("no text extractor for this kind of file")
            continue
        try:
            with open(path, "rb") as f:
                work.append((extractor, f.read()))
        except OSError as e:
            out[item.ref] = Unextractable(f"cannot read: {e.strerror}")
            continue
        refs.append(item.ref)
    out.update(zip(refs, sandbox.extract_many(work, limits), strict=True))
    return out


def index_items(
    conn: apsw.Connection,
    source: str,
    kind: str,
    items: Iterable[Item],
    *,
    vectors: bool,
    progress: Callable[[int], None] | None = None,
    resolve: bool = True,
    limits: Limits | None = None,
) -> tuple[int, int, int]:
    """Upsert ``items`` as documents of ``source``; returns (indexed, unchanged, removed).
    An item's files (a Zotero item's PDF) are read in the sandbox, held to ``limits``."""
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
            pdfs = _read_files(batch, limits or Limits())
            writer.clear(known[i.ref][0] for i in batch if i.ref in known)
            for item in batch:
                doc = doc_input(source, kind, item, pdfs.get(item.ref))
                writer.upsert(doc, reuse, known[item.ref][0] if item.ref in known else None)
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
