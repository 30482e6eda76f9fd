"""Which indexed notes are templates (``curator.vault.templates``): they leave search.

A template's placeholders (``<% tp.file.title %>``, ``{{date}}``) and headings stand for every
note made from it, so it matches every question and comes first for none of the right reasons.
Its document stays indexed (links to it resolve, ``read`` and ``relate`` find it); its
passages are kept out of both legs of search unless a search asks for templates.
"""

from __future__ import annotations

import apsw

from curator.index import db
from curator.index.db import VAULT
from curator.vault import templates

META = "template_notes"
"""How many notes of the index are templates (0 or missing: search filters nothing)."""


def mark(conn: apsw.Connection, root: str) -> int:
    """Flag the vault's notes that sit in a template folder the vault's settings name (or one
    named like it), and unflag the others; returns how many are templates. Every note is looked
    at, since a change of the settings moves notes in or out without any note changing."""
    found = templates.on_disk(root)
    changes: list[tuple[int, int]] = []
    count = 0
    for doc_id, path, flag in conn.execute("SELECT id, path, template FROM documents WHERE source = ?", (VAULT,)):
        want = 1 if templates.holding(str(path), found) is not None else 0
        count += want
        if want != flag:
            changes.append((want, int(doc_id)))
    conn.executemany("UPDATE documents SET template = ? WHERE id = ?", changes)
    if count or db.get_meta(conn, META) not in (None, "0"):
        db.set_meta(conn, META, str(count))
    return count


def any_in(conn: apsw.Connection) -> bool:
    """Whether the index holds template notes (the search filter costs nothing otherwise)."""
    return db.get_meta(conn, META) not in (None, "0")
