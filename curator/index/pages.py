"""Where a passage is: the page of an attachment (or of a source item's PDF) a line is on, and
the citation a hit carries (``path:12-20``, ``paper.pdf#page=3``, ``zotero:KEY#page=3``).

Apart from ``curator.index.attached`` so that a search, which cites every hit, does not load
the attachment readers' registry and the link resolver that reading an attachment needs.
"""

from __future__ import annotations

import bisect
import json

import apsw

from curator.index.db import ATTACHMENT, VAULT


def page_of(starts: list[int] | None, line: int) -> int | None:
    """The page that line ``line`` of the extracted text is on; None for a file without pages
    (or a line before its first page: a Zotero item's own text, before its PDF's)."""
    if not starts or line < starts[0]:
        return None
    return bisect.bisect_right(starts, line)


def cite(path: str, page: int | None, start: int, end: int) -> str:
    """``paper.pdf#page=3`` (Obsidian opens a PDF at that page); a file without pages is cited
    by the lines of its text, as a note is."""
    return f"{path}#page={page}" if page is not None else f"{path}:{start}-{end}"


def cite_of(source: str, path: str, starts: list[int] | None, start: int, end: int) -> str:
    """What a passage of a document cites: a note's lines, an attachment's page (or lines), a
    source item's reference, with the page of its PDF when the passage is in it
    (``zotero:KEY#page=3``)."""
    if source == VAULT:
        return f"{path}:{start}-{end}"
    page = page_of(starts, start)
    if source == ATTACHMENT:
        return cite(path, page, start, end)
    return f"{path}#page={page}" if page is not None else path


def pages_of(conn: apsw.Connection, doc_id: int) -> list[int] | None:
    """The page starts of the document ``doc_id``: an attachment's, or a source item's PDF's (None
    for a document without pages: a note, a Word file, an item without a PDF)."""
    row = conn.execute("SELECT json_extract(meta, '$.pages') FROM documents WHERE id = ?", (doc_id,)).fetchone()
    if row is None or row[0] is None:
        return None
    starts = json.loads(row[0])
    return [int(s) for s in starts] if isinstance(starts, list) else None
