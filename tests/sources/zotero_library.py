"""A Zotero library for tests: a real ``zotero.sqlite`` laid out as Zotero lays it out.

Written from Zotero's own schema (``resource/schema/userdata.sql`` for the user tables,
the item-type and field tables Zotero fills from ``schema.json``), but only the tables
and columns Curator reads. Item types, fields, base-field mappings and creator types are
named as Zotero names them. ``zotero=6`` writes the plain type and field tables and no
``citationKey`` field (keys live in Extra or Better BibTeX); ``zotero=7`` adds the
``*Combined`` tables, the ``citationKey`` field, annotations and collections in the trash.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import apsw

KEY_CHARS = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ"
ITEM_TYPES = [
    "note", "book", "bookSection", "journalArticle", "conferencePaper", "case", "webpage", "attachment",
    "annotation",
]  # fmt: skip
FIELDS = [
    "title", "abstractNote", "date", "publicationTitle", "bookTitle", "proceedingsTitle", "caseName",
    "dateDecided", "websiteTitle", "DOI", "url", "extra", "volume", "pages", "publisher", "citationKey",
]  # fmt: skip
# (itemType, base field, type-specific field), as schema.json maps them
BASE_FIELDS = [
    ("bookSection", "publicationTitle", "bookTitle"),
    ("conferencePaper", "publicationTitle", "proceedingsTitle"),
    ("webpage", "publicationTitle", "websiteTitle"),
    ("case", "title", "caseName"),
    ("case", "date", "dateDecided"),
]
CREATOR_TYPES = ["author", "editor", "contributor", "bookAuthor"]

TABLES = """
CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL);
CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL,
    filesEditable INT NOT NULL);
CREATE TABLE groups (groupID INTEGER PRIMARY KEY, libraryID INT NOT NULL UNIQUE, name TEXT NOT NULL,
    description TEXT NOT NULL, version INT NOT NULL);
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL, libraryID INT NOT NULL,
    key TEXT NOT NULL, UNIQUE (libraryID, key));
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE TABLE itemNotes (itemID INTEGER PRIMARY KEY, parentItemID INT, note TEXT, title TEXT);
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT, contentType TEXT,
    path TEXT);
CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE itemTags (itemID INT NOT NULL, tagID INT NOT NULL, type INT NOT NULL, PRIMARY KEY (itemID, tagID));
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT,
    UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL, creatorTypeID INT NOT NULL DEFAULT 1,
    orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex));
CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL,
    parentCollectionID INT DEFAULT NULL, libraryID INT NOT NULL, key TEXT NOT NULL, UNIQUE (libraryID, key));
CREATE TABLE collectionItems (collectionID INT NOT NULL, itemID INT NOT NULL, orderIndex INT NOT NULL DEFAULT 0,
    PRIMARY KEY (collectionID, itemID));
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT, display INT DEFAULT 1);
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE baseFieldMappings (itemTypeID INT, baseFieldID INT, fieldID INT,
    PRIMARY KEY (itemTypeID, baseFieldID, fieldID));
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
"""
ZOTERO7_TABLES = """
CREATE TABLE itemTypesCombined (itemTypeID INT NOT NULL, typeName TEXT NOT NULL, display INT DEFAULT 1 NOT NULL,
    custom INT NOT NULL, PRIMARY KEY (itemTypeID));
CREATE TABLE fieldsCombined (fieldID INT NOT NULL, fieldName TEXT NOT NULL, label TEXT, fieldFormatID INT,
    custom INT NOT NULL, PRIMARY KEY (fieldID));
CREATE TABLE baseFieldMappingsCombined (itemTypeID INT, baseFieldID INT, fieldID INT,
    PRIMARY KEY (itemTypeID, baseFieldID, fieldID));
CREATE TABLE deletedCollections (collectionID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
"""
USERDATA = {6: 113, 7: 122}
"""The userdata versions written; Curator checks the layout, not these numbers."""


def item_key(n: int) -> str:
    """The n-th key in Zotero's alphabet (eight characters, no 0, 1 or O)."""
    chars = []
    for _ in range(8):
        n, r = divmod(n, len(KEY_CHARS))
        chars.append(KEY_CHARS[r])
    return "".join(reversed(chars))


class ZoteroLibrary:
    def __init__(self, path: Path, *, zotero: int = 7) -> None:
        self.path = path
        self.zotero = zotero
        self.conn = apsw.Connection(str(path))
        self.conn.execute("PRAGMA synchronous = OFF")  # a test library need not survive a power cut
        self._ids = itertools.count(1)
        self._keys = itertools.count(1000)
        with self.conn:
            self.conn.execute(TABLES)
            if zotero >= 7:
                self.conn.execute(ZOTERO7_TABLES)
            self.conn.execute("INSERT INTO version VALUES ('userdata', ?), ('system', 32)", (USERDATA[zotero],))
            self.conn.execute("INSERT INTO libraries VALUES (1, 'user', 1, 1)")
            types = ITEM_TYPES if zotero >= 7 else [t for t in ITEM_TYPES if t != "annotation"]
            fields = FIELDS if zotero >= 7 else [f for f in FIELDS if f != "citationKey"]
            self.types = {name: n for n, name in enumerate(types, start=1)}
            self.fields = {name: n for n, name in enumerate(fields, start=1)}
            self.creator_types = {name: n for n, name in enumerate(CREATOR_TYPES, start=1)}
            for name, n in self.types.items():
                self.conn.execute("INSERT INTO itemTypes (itemTypeID, typeName) VALUES (?, ?)", (n, name))
                if zotero >= 7:
                    self.conn.execute("INSERT INTO itemTypesCombined VALUES (?, ?, 1, 0)", (n, name))
            for name, n in self.fields.items():
                self.conn.execute("INSERT INTO fields (fieldID, fieldName) VALUES (?, ?)", (n, name))
                if zotero >= 7:
                    self.conn.execute("INSERT INTO fieldsCombined VALUES (?, ?, NULL, NULL, 0)", (n, name))
            for item_type, base, specific in BASE_FIELDS:
                row = (self.types[item_type], self.fields[base], self.fields[specific])
                self.conn.execute("INSERT INTO baseFieldMappings VALUES (?, ?, ?)", row)
                if zotero >= 7:
                    self.conn.execute("INSERT INTO baseFieldMappingsCombined VALUES (?, ?, ?)", row)
            for name, n in self.creator_types.items():
                self.conn.execute("INSERT INTO creatorTypes VALUES (?, ?)", (n, name))

    # --- building -------------------------------------------------------------------------

    def add_group(self, group_id: int, name: str) -> int:
        lib = self.conn.execute("SELECT max(libraryID) + 1 FROM libraries").fetchone()[0]
        with self.conn:
            self.conn.execute("INSERT INTO libraries VALUES (?, 'group', 1, 1)", (lib,))
            self.conn.execute("INSERT INTO groups VALUES (?, ?, ?, '', 0)", (group_id, lib, name))
        return int(lib)

    def add_collection(self, name: str, parent: int | None = None, *, trashed: bool = False) -> int:
        cid = next(self._ids)
        with self.conn:
            self.conn.execute(
                "INSERT INTO collections VALUES (?, ?, ?, 1, ?)", (cid, name, parent, item_key(next(self._keys)))
            )
            if trashed:
                self.conn.execute("INSERT INTO deletedCollections (collectionID) VALUES (?)", (cid,))
        return cid

    def _new_item(self, item_type: str, key: str | None, library: int) -> tuple[int, str]:
        item_id = next(self._ids)
        key = key or item_key(next(self._keys))
        self.conn.execute("INSERT INTO items VALUES (?, ?, ?, ?)", (item_id, self.types[item_type], library, key))
        return item_id, key

    def _value(self, value: object) -> int:
        row = self.conn.execute("SELECT valueID FROM itemDataValues WHERE value = ?", (value,)).fetchone()
        if row:
            return int(row[0])
        self.conn.execute("INSERT INTO itemDataValues (value) VALUES (?)", (value,))
        return int(self.conn.last_insert_rowid())

    def add_item(
        self,
        item_type: str,
        fields: dict[str, object],
        *,
        key: str | None = None,
        creators: list[tuple[str, str] | tuple[str, str, str]] = (),  # type: ignore[assignment]
        tags: list[str] = (),  # type: ignore[assignment]
        collections: list[int] = (),  # type: ignore[assignment]
        notes: list[str] = (),  # type: ignore[assignment]
        trashed: bool = False,
        library: int = 1,
    ) -> str:
        """An item; ``creators`` are (first, last, role) or (single-field name, role)."""
        with self.conn:
            item_id, key = self._new_item(item_type, key, library)
            for name, value in fields.items():
                self.conn.execute(
                    "INSERT INTO itemData VALUES (?, ?, ?)", (item_id, self.fields[name], self._value(value))
                )
            for order, creator in enumerate(creators):
                if len(creator) == 3:
                    first, last, role = creator  # type: ignore[misc]
                    mode = 0
                else:
                    (last, role), first, mode = creator, "", 1  # type: ignore[misc]
                self.conn.execute(
                    "INSERT OR IGNORE INTO creators (firstName, lastName, fieldMode) VALUES (?, ?, ?)",
                    (first, last, mode),
                )
                cid = self.conn.execute(
                    "SELECT creatorID FROM creators WHERE firstName = ? AND lastName = ? AND fieldMode = ?",
                    (first, last, mode),
                ).fetchone()[0]
                self.conn.execute(
                    "INSERT INTO itemCreators VALUES (?, ?, ?, ?)", (item_id, cid, self.creator_types[role], order)
                )
            for tag in tags:
                self.conn.execute("INSERT OR IGNORE INTO tags (name) VALUES (?)", (tag,))
                tid = self.conn.execute("SELECT tagID FROM tags WHERE name = ?", (tag,)).fetchone()[0]
                self.conn.execute("INSERT INTO itemTags VALUES (?, ?, 0)", (item_id, tid))
            for cid in collections:
                self.conn.execute("INSERT INTO collectionItems VALUES (?, ?, 0)", (cid, item_id))
            if trashed:
                self.conn.execute("INSERT INTO deletedItems (itemID) VALUES (?)", (item_id,))
        for html in notes:
            self.add_note(key, html)
        return key

    def _id(self, key: str) -> int:
        return int(self.conn.execute("SELECT itemID FROM items WHERE key = ?", (key,)).fetchone()[0])

    def add_note(self, parent: str | None, html: str, *, trashed: bool = False, title: str | None = None) -> str:
        with self.conn:
            item_id, key = self._new_item("note", None, 1)
            parent_id = self._id(parent) if parent else None
            self.conn.execute("INSERT INTO itemNotes VALUES (?, ?, ?, ?)", (item_id, parent_id, html, title or ""))
            if trashed:
                self.conn.execute("INSERT INTO deletedItems (itemID) VALUES (?)", (item_id,))
        return key

    def add_attachment(self, parent: str, title: str) -> str:
        with self.conn:
            item_id, key = self._new_item("attachment", None, 1)
            self.conn.execute(
                "INSERT INTO itemAttachments VALUES (?, ?, 0, 'application/pdf', 'storage:paper.pdf')",
                (item_id, self._id(parent)),
            )
            self.conn.execute(
                "INSERT INTO itemData VALUES (?, ?, ?)", (item_id, self.fields["title"], self._value(title))
            )
        return key

    # --- editing, as Zotero would ---------------------------------------------------------

    def set_field(self, key: str, field: str, value: object) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT OR REPLACE INTO itemData VALUES (?, ?, ?)",
                (self._id(key), self.fields[field], self._value(value)),
            )

    def trash(self, key: str) -> None:
        with self.conn:
            self.conn.execute("INSERT INTO deletedItems (itemID) VALUES (?)", (self._id(key),))

    def close(self) -> None:
        self.conn.close()


def better_bibtex(path: Path, keys: dict[str, str], library: int = 1) -> None:
    """Better BibTeX's database: its ``citationkey`` table, item key to citation key."""
    conn = apsw.Connection(str(path))
    with conn:
        conn.execute(
            "CREATE TABLE citationkey (itemID NOT NULL, itemKey NOT NULL, libraryID NOT NULL, citationKey NOT NULL,"
            " pinned DEFAULT 0, lastPinned, PRIMARY KEY (itemID))"
        )
        for n, (item, cite) in enumerate(keys.items(), start=1):
            conn.execute("INSERT INTO citationkey VALUES (?, ?, ?, ?, 0, NULL)", (n, item, library, cite))
    conn.close()
