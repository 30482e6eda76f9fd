"""Reading derived documents (source items) back out of an epoch: by reference, in pages,
and counted. A source item has no file: its text is the one the index keeps for it."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

import apsw

from curator.errors import UsageError
from curator.index import db
from curator.index.attached import PAGE_ANCHOR
from curator.index.db import ATTACHMENT, VAULT, has_table

PAGE_LINES = 200
_ITEM_REF = re.compile(r"[a-z][a-z0-9-]*:\S")


@dataclass
class Derived:
    doc_id: int
    ref: str
    source: str
    type: str
    title: str
    text: str
    link: str | None = None
    date: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    pages: list[int] | None = None
    """Where each page of the item's PDF starts in ``text`` (``Item.files``), when it has one."""


def find(conn: apsw.Connection, ref: str) -> Derived | None:
    """The source item whose reference is ``ref`` (exactly, else ignoring case), or None."""
    row = (
        conn.execute(
            "SELECT id FROM documents WHERE kp_id = ? AND source != ? ORDER BY source LIMIT 1", (ref, VAULT)
        ).fetchone()
        or conn.execute(
            "SELECT k.doc_id FROM doc_keys k JOIN documents d ON d.id = k.doc_id "
            "WHERE k.key = ? AND k.rank = 0 AND d.source != ? ORDER BY d.source LIMIT 1",
            (ref.casefold(), VAULT),
        ).fetchone()
    )
    if row is None:
        return None
    doc_id = int(row[0])
    ref_, source, title, meta_raw, date = db.one(
        conn, "SELECT kp_id, source, title, meta, date FROM documents WHERE id = ?", (doc_id,)
    )
    text = ""
    if has_table(conn, "doc_text"):
        found = conn.execute("SELECT text FROM doc_text WHERE doc_id = ?", (doc_id,)).fetchone()
        text = found[0] if found else ""
    meta = json.loads(meta_raw or "{}")
    tags = [t for (t,) in conn.execute("SELECT tag FROM tags WHERE doc_id = ? ORDER BY tag", (doc_id,))]
    return Derived(
        doc_id,
        ref_,
        source,
        str(meta.get("type") or ""),
        title,
        text,
        meta.get("link"),
        date,
        dict(meta.get("fields") or {}),
        tags,
        [int(s) for s in meta["pages"]] if isinstance(meta.get("pages"), list) else None,
    )


def looks_like_item_ref(ref: str) -> bool:
    """``zotero:KEY`` or ``jsonl:NAME/ID``: a namespace other than a note's own ``kp:``."""
    return bool(_ITEM_REF.match(ref)) and not ref.startswith("kp:")


@dataclass
class ItemPage:
    ref: str
    title: str
    source: str
    type: str
    link: str | None
    date: str | None
    tags: list[str]
    fields: dict[str, Any]
    page: int
    pages: int
    start_line: int
    end_line: int
    lines: list[str]

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.ref,
            "kp_id": self.ref,
            "title": self.title,
            "source": self.source,
            "type": self.type,
            "link": self.link,
            "date": self.date,
            "tags": self.tags,
            "fields": self.fields,
            "page": self.page,
            "pages": self.pages,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "lines": [{"n": self.start_line + i, "text": t} for i, t in enumerate(self.lines)],
        }


def read_page(conn: apsw.Connection, ref: str, page: int = 1, page_lines: int = PAGE_LINES) -> ItemPage | None:
    """Page ``page`` of the source item ``ref`` names, or None when the index has no such item.
    ``zotero:KEY#page=3`` is page 3 of the item's PDF, as a hit in it cites it."""
    base, _, anchor = ref.partition("#")
    asked = PAGE_ANCHOR.match(anchor) if anchor else None
    item = find(conn, ref) or (find(conn, base) if asked else None)
    if item is None:
        return None
    lines = item.text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if asked is not None and item.pages and find(conn, ref) is None:
        page, pages = int(asked.group(1)), len(item.pages)
        if not 1 <= page <= pages:
            raise UsageError(f"{item.ref}'s PDF has {pages} page(s)")
        start = item.pages[page - 1] - 1
        end = item.pages[page] - 1 if page < pages else len(lines)
        chunk = lines[start:end]
    else:
        pages = max(1, math.ceil(len(lines) / page_lines))
        if page > pages:
            raise UsageError(f"{item.ref} has {pages} page(s)")
        start = (page - 1) * page_lines
        chunk = lines[start : start + page_lines]
    return ItemPage(
        item.ref, item.title, item.source, item.type, item.link, item.date, item.tags, item.fields,
        page, pages, start + 1, start + len(chunk), chunk,
    )  # fmt: skip


def existing(conn: apsw.Connection, refs: set[str]) -> set[str]:
    """Which of ``refs`` name a source item in the index."""
    return {ref for ref in refs if find(conn, ref) is not None}


def counts(conn: apsw.Connection) -> dict[str, int]:
    """Documents per source, the vault's notes left out."""
    return {
        s: n
        for s, n in conn.execute(
            "SELECT source, count(*) FROM documents WHERE source NOT IN (?, ?) GROUP BY source ORDER BY source",
            (VAULT, ATTACHMENT),
        )
    }
