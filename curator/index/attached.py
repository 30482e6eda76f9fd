"""Attachments as the index keeps them, read back: the page a line is on, a page of text as
``curator read`` and ``kp_read`` show it, and the notes that link or embed one (``![[paper.pdf#page=3]]``),
whose links the one link resolver points at the attachment.

An attachment's text is what its extractor read, not its bytes: it is shown from the index
and framed like a note's, and no proposal can change it.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

import apsw

from curator.attachments.all_extractors import for_path
from curator.errors import UsageError
from curator.index import db
from curator.index.db import ATTACHMENT
from curator.index.pages import cite as cite  # kp_read cites the page it shows with it
from curator.index.reading import LinkedNote, Relations
from curator.vault.resolve import Resolver, Target

PAGE_LINES = 200
"""Lines a page of a file without pages of its own (a Word file) shows, as for notes."""
PAGE_ANCHOR = re.compile(r"page=(\d+)$", re.IGNORECASE)


@dataclass
class Attachment:
    doc_id: int
    path: str
    title: str
    type: str
    extractor: str
    text: str
    starts: list[int] | None
    """Each page's first line in ``text`` (1-based); None for a file without pages."""
    notes: list[str] = field(default_factory=list)

    @property
    def page_count(self) -> int:
        if self.starts is not None:
            return len(self.starts)
        return max(1, math.ceil(len(self.lines) / PAGE_LINES))

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n") if self.text else []


def find(conn: apsw.Connection, path: str) -> Attachment | None:
    row = conn.execute(
        "SELECT d.id, d.path, d.title, d.meta, t.text FROM documents d LEFT JOIN doc_text t ON t.doc_id = d.id "
        "WHERE d.source = ? AND d.path = ?",
        (ATTACHMENT, path),
    ).fetchone()
    if row is None:
        return None
    doc_id, path_, title, meta_raw, text = row
    meta: dict[str, Any] = json.loads(meta_raw or "{}")
    starts = meta.get("pages")
    return Attachment(
        int(doc_id),
        path_,
        title,
        str(meta.get("type") or ""),
        str(meta.get("extractor") or ""),
        text or "",
        [int(s) for s in starts] if isinstance(starts, list) else None,
        [str(n) for n in meta.get("notes") or []],
    )


@dataclass
class AttachmentPage:
    path: str
    title: str
    type: str
    extractor: str
    paged: bool
    page: int
    pages: int
    start_line: int
    end_line: int
    lines: list[str]
    notes: list[str]

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "kp_id": None,
            "title": self.title,
            "source": ATTACHMENT,
            "type": self.type,
            "extractor": self.extractor,
            "paged": self.paged,
            "page": self.page,
            "pages": self.pages,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "cite": cite(self.path, self.page if self.paged else None, self.start_line, self.end_line),
            "lines": [{"n": self.start_line + i, "text": t} for i, t in enumerate(self.lines)],
        }


def read_page(conn: apsw.Connection, path: str, page: int = 1) -> AttachmentPage | None:
    """Page ``page`` of the attachment at ``path`` (a PDF's own page; 200 lines of a file
    without pages), or None when the index holds no attachment there."""
    found = find(conn, path)
    if found is None:
        return None
    lines = found.lines
    pages = found.page_count
    if page > pages:
        raise UsageError(f"{path} has {pages} page(s)")
    if found.starts is not None:
        start = found.starts[page - 1]
        end = found.starts[page] - 1 if page < pages else len(lines)
    else:
        start = (page - 1) * PAGE_LINES + 1
        end = min(len(lines), page * PAGE_LINES)
    shown = lines[start - 1 : end]
    return AttachmentPage(
        found.path, found.title, found.type, found.extractor, found.starts is not None,
        page, pages, start, start + len(shown) - 1, shown, found.notes,
    )  # fmt: skip


def relations(conn: apsw.Connection, path: str) -> Relations | None:
    """The notes that link to or embed the attachment at ``path``, each with its line and the
    page it names (``#page=3``, found at that page's first line of the text)."""
    found = find(conn, path)
    if found is None:
        return None
    rel = Relations(found.path, None, found.title)
    for p, k, t, line, anchor in conn.execute(
        "SELECT d.path, d.kp_id, d.title, l.line, l.anchor FROM attachment_links l JOIN documents d ON d.id = l.src "
        "WHERE l.dst = ? ORDER BY d.path, l.line",
        (found.doc_id,),
    ):
        rel.backlinks.append(LinkedNote(p, k, t, line, anchor, _anchor_line(found, anchor)))
    return rel


def _anchor_line(found: Attachment, anchor: str | None) -> int | None:
    m = PAGE_ANCHOR.match(anchor or "")
    if m is None or found.starts is None:
        return None
    page = int(m.group(1))
    return found.starts[page - 1] if 1 <= page <= len(found.starts) else None


def resolve_links(conn: apsw.Connection) -> int:
    """Point every note's link to an attachment at the attachment the one link resolver
    names (the nearest to the linking note, as Obsidian picks); returns how many changed."""
    ids = {p: i for i, p in conn.execute("SELECT id, path FROM documents WHERE source = ?", (ATTACHMENT,))}
    resolver = Resolver(Target(p, None, "") for p in ids)
    changes: list[tuple[int | None, int]] = []
    for rowid, src_path, kind, target, dst in conn.execute(
        "SELECT l.rowid, d.path, l.kind, l.target, l.dst FROM attachment_links l JOIN documents d ON d.id = l.src"
    ):
        found = resolver.resolve_target(target, src_path, relative=kind == "markdown").path
        new = ids.get(found) if found is not None else None
        if new != dst:
            changes.append((new, rowid))
    conn.executemany("UPDATE attachment_links SET dst = ? WHERE rowid = ?", changes)
    return len(changes)


def count(conn: apsw.Connection) -> int:
    return db.count(conn, "SELECT count(*) FROM documents WHERE source = ?", (ATTACHMENT,))


def refused(conn: apsw.Connection, path: str) -> str | None:
    """Why the index holds no text for the file at ``path`` (a scan, too many pages), if it skipped it."""
    row = conn.execute("SELECT reason FROM skips WHERE path = ?", (path,)).fetchone()
    return str(row[0]) if row else None


def page_ref(ref: str) -> tuple[str, int | None] | None:
    """(path, page) of a ref that can name an attachment: ``papers/x.pdf`` (no page asked) or
    ``papers/x.pdf#page=3``, as a hit cites it; None for anything else (a note's ref)."""
    path, _, anchor = ref.strip().partition("#")
    asked = PAGE_ANCHOR.match(anchor) if anchor else None
    if (anchor and asked is None) or for_path(path) is None:
        return None
    return path, int(asked.group(1)) if asked else None
