"""SQL against a private copy of a Zotero library (and of Better BibTeX's database).

The one module outside ``curator/index/`` that runs SQL, and only against Zotero's own
storage, never Curator's index; the Zotero adapter (``curator/sources/zotero.py``) turns
these rows into items. The copy comes from
``curator.sources.snapshot``; the live file is never read in place.

Curator checks the layout it needs (tables and columns of Zotero 5 to 7), not a version
number: a library laid out otherwise is refused with the missing table or column named.
Field names come from the library's own field tables; type-specific fields map to their
base field (a case's ``caseName`` is its title) through Zotero's base-field tables.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import apsw

from curator.errors import SourceError

NEEDED: dict[str, set[str]] = {
    "version": {"schema", "version"},
    "libraries": {"libraryID", "type"},
    "items": {"itemID", "itemTypeID", "libraryID", "key"},
    "itemData": {"itemID", "fieldID", "valueID"},
    "itemDataValues": {"valueID", "value"},
    "itemNotes": {"itemID", "parentItemID", "note", "title"},
    "deletedItems": {"itemID"},
    "creators": {"creatorID", "firstName", "lastName", "fieldMode"},
    "itemCreators": {"itemID", "creatorID", "creatorTypeID", "orderIndex"},
    "creatorTypes": {"creatorTypeID", "creatorType"},
    "tags": {"tagID", "name"},
    "itemTags": {"itemID", "tagID"},
    "collections": {"collectionID", "collectionName", "parentCollectionID", "libraryID"},
    "collectionItems": {"collectionID", "itemID"},
}
# Later Zotero 5 releases fill the *Combined tables (built-in plus custom types and fields)
# at start-up; earlier layouts have only the plain ones.
EITHER = {
    "item types": (("itemTypesCombined", {"itemTypeID", "typeName"}), ("itemTypes", {"itemTypeID", "typeName"})),
    "fields": (("fieldsCombined", {"fieldID", "fieldName"}), ("fields", {"fieldID", "fieldName"})),
}
BASE_MAPPINGS = ("baseFieldMappingsCombined", "baseFieldMappings")


def text(value: Any) -> str:
    """A stored value as text (Zotero stores some numbers as integers)."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _tables(conn: apsw.Connection) -> set[str]:
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _columns(conn: apsw.Connection, table: str) -> set[str]:
    return {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}


class Library:
    """A checked Zotero library copy: its layout verified, its rows read out as plain values."""

    def __init__(self, conn: apsw.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self.tables = _tables(conn)
        if "version" not in self.tables or "items" not in self.tables:
            raise SourceError(f"{path} has no Zotero tables (no version or items table): not a Zotero library")
        row = conn.execute("SELECT version FROM version WHERE schema = 'userdata'").fetchone()
        self.userdata = int(row[0]) if row and str(row[0]).isdigit() else None
        for table, columns in NEEDED.items():
            if table not in self.tables:
                self._refuse(f"no {table} table")
            missing = sorted(columns - _columns(conn, table))
            if missing:
                self._refuse(f"no column {table}.{missing[0]}")
        self.chosen: dict[str, str] = {}
        for what, options in EITHER.items():
            for table, columns in options:
                usable = table in self.tables and columns <= _columns(conn, table)
                if usable and conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone():
                    self.chosen[what] = table
                    break
            else:
                self._refuse(f"no table of {what} ({' or '.join(t for t, _ in options)})")
        self.base = next((t for t in BASE_MAPPINGS if t in self.tables), None)

    def _refuse(self, what: str) -> None:
        version = f"userdata version {self.userdata}" if self.userdata is not None else "no userdata version"
        raise SourceError(
            f"{self.path} has a Zotero schema Curator does not know ({version}: {what})",
            hint="Curator reads libraries of Zotero 5 to 7; open this one in a current Zotero to upgrade it",
        )

    def item_types(self) -> dict[int, str]:
        return {
            i: text(n) for i, n in self.conn.execute(f"SELECT itemTypeID, typeName FROM {self.chosen['item types']}")
        }

    def fields(self) -> dict[int, str]:
        return {i: text(n) for i, n in self.conn.execute(f"SELECT fieldID, fieldName FROM {self.chosen['fields']}")}

    def base_fields(self) -> list[tuple[int, int, int]]:
        """(item type, base field, type-specific field)."""
        if not self.base:
            return []
        return list(self.conn.execute(f"SELECT itemTypeID, baseFieldID, fieldID FROM {self.base}"))

    def creator_types(self) -> dict[int, str]:
        return {i: text(n) for i, n in self.conn.execute("SELECT creatorTypeID, creatorType FROM creatorTypes")}

    def libraries(self) -> dict[int, str]:
        return {i: text(t) for i, t in self.conn.execute("SELECT libraryID, type FROM libraries")}

    def groups(self) -> dict[int, int]:
        """Group id by library id."""
        if "groups" not in self.tables:
            return {}
        return {lib: gid for gid, lib in self.conn.execute("SELECT groupID, libraryID FROM groups")}

    def trashed(self) -> set[int]:
        return {r[0] for r in self.conn.execute("SELECT itemID FROM deletedItems")}

    def items(self) -> list[tuple[int, int, int, str]]:
        """(itemID, itemTypeID, libraryID, key) of every item, notes and attachments included."""
        return [
            (i, t, lib, text(k))
            for i, t, lib, k in self.conn.execute("SELECT itemID, itemTypeID, libraryID, key FROM items")
        ]

    def values(self) -> Iterator[tuple[int, int, str]]:
        """(itemID, fieldID, value) of every field of every item."""
        for item_id, field_id, value in self.conn.execute(
            "SELECT d.itemID, d.fieldID, v.value FROM itemData d JOIN itemDataValues v ON v.valueID = d.valueID"
        ):
            yield item_id, field_id, text(value)

    def creators(self) -> Iterator[tuple[int, str, str, int, int]]:
        """(itemID, first name, last name, field mode, creator type), in each item's order."""
        for item_id, first, last, mode, role in self.conn.execute(
            "SELECT ic.itemID, c.firstName, c.lastName, c.fieldMode, ic.creatorTypeID FROM itemCreators ic "
            "JOIN creators c ON c.creatorID = ic.creatorID ORDER BY ic.itemID, ic.orderIndex"
        ):
            yield item_id, text(first).strip(), text(last).strip(), int(mode or 0), role

    def tags(self) -> Iterator[tuple[int, str]]:
        for item_id, name in self.conn.execute(
            "SELECT it.itemID, t.name FROM itemTags it JOIN tags t ON t.tagID = it.tagID ORDER BY t.name"
        ):
            yield item_id, text(name)

    def collections(self) -> list[tuple[int, str, int | None]]:
        """(collectionID, name, parent) of every collection not in the trash."""
        gone: set[int] = set()
        if "deletedCollections" in self.tables:
            gone = {r[0] for r in self.conn.execute("SELECT collectionID FROM deletedCollections")}
        rows = self.conn.execute("SELECT collectionID, collectionName, parentCollectionID FROM collections")
        return [(i, text(n), p) for i, n, p in rows if i not in gone]

    def collection_items(self) -> list[tuple[int, int]]:
        """(collectionID, itemID)."""
        return list(self.conn.execute("SELECT collectionID, itemID FROM collectionItems"))

    def child_notes(self, note_types: list[int]) -> Iterator[tuple[int, int, str, str]]:
        """(parent itemID, note itemID, HTML, title) of every note that has a parent."""
        if not note_types:
            return
        for parent, note_id, html, title in self.conn.execute(
            "SELECT n.parentItemID, n.itemID, n.note, n.title FROM itemNotes n JOIN items i ON i.itemID = n.itemID "
            f"WHERE i.itemTypeID IN ({','.join('?' * len(note_types))}) AND n.parentItemID IS NOT NULL "
            "ORDER BY n.parentItemID, n.itemID",
            note_types,
        ):
            yield parent, note_id, text(html), text(title)


    def stored_files(self) -> Iterator[tuple[int, int, str, str, str]]:
        """(parent itemID, attachment itemID, attachment key, content type, name) of every file
        Zotero stores in its storage folder (``storage:NAME``) for an item, oldest first."""
        if "itemAttachments" not in self.tables:
            return
        for parent, att_id, key, content_type, path in self.conn.execute(
            "SELECT a.parentItemID, a.itemID, i.key, a.contentType, a.path FROM itemAttachments a "
            "JOIN items i ON i.itemID = a.itemID WHERE a.parentItemID IS NOT NULL AND a.path LIKE 'storage:%' "
            "ORDER BY a.parentItemID, a.itemID"
        ):
            yield parent, att_id, text(key), text(content_type), text(path).removeprefix("storage:")


def better_bibtex_keys(conn: apsw.Connection) -> dict[tuple[int, str], str] | None:
    """Better BibTeX's citation keys by (libraryID, item key); None without its table."""
    if "citationkey" not in _tables(conn):
        return None
    return {
        (int(lib or 1), text(key)): text(cite)
        for lib, key, cite in conn.execute("SELECT libraryID, itemKey, citationKey FROM citationkey")
        if key and cite
    }
