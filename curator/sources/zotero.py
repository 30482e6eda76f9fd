"""A Zotero library (``zotero.sqlite``): each regular item becomes ``zotero:ITEMKEY``.

Read from a private copy (``snapshot``), never from the live file. An item brings its
title, creators, date, venue, abstract, tags, collections, child notes (HTML to text),
DOI, URL and citation key; items in the trash, attachments, annotations, standalone notes
and feed items are left out. Its link is ``zotero://select/library/items/KEY`` (or
``.../groups/ID/items/KEY`` for a group library).

The SQL here reads Zotero's own schema in the copy, not Curator's index. Curator checks
the layout it needs (tables and columns of Zotero 5 to 7), not a version number: a
library whose layout differs is refused with the missing table or column named. Field
names come from the library's own field tables, and type-specific fields count as their
base field (a case's ``caseName`` is its title), as Zotero's schema maps them.

The citation key is Zotero's ``citationKey`` field where the schema has one, else a
``Citation Key:`` line in Extra (how Better BibTeX pins keys), else Better BibTeX's own
database (``better-bibtex.sqlite`` beside the library, table ``citationkey``).
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import apsw

from curator.errors import SourceError
from curator.sources.base import Item, Problems
from curator.sources.bibliography import Creator, Record, render
from curator.sources.snapshot import snapshot

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
# Zotero 5.0.80 and later fill the *Combined tables (built-in plus custom types and
# fields) at start-up; earlier layouts have only the plain ones.
EITHER = {
    "item types": (("itemTypesCombined", {"itemTypeID", "typeName"}), ("itemTypes", {"itemTypeID", "typeName"})),
    "fields": (("fieldsCombined", {"fieldID", "fieldName"}), ("fields", {"fieldID", "fieldName"})),
}
BASE_MAPPINGS = ("baseFieldMappingsCombined", "baseFieldMappings")
NOT_ITEMS = ("note", "attachment", "annotation")
_EXTRA_LINE = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?)\s*:\s*(\S.*?)\s*$")
_ZOTERO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?: (.*))?$", re.S)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def parse_date(raw: str) -> tuple[str, str | None]:
    """Zotero's stored date (``2019-03-00 March 2019``) as (as written, partial ISO date)."""
    m = _ZOTERO_DATE.match(raw.strip())
    if not m:
        year = re.search(r"(?<!\d)(\d{4})(?!\d)", raw)
        return raw.strip(), year.group(1) if year else None
    y, mo, d, written = m.groups()
    iso = None if y == "0000" else y + (f"-{mo}" if mo != "00" else "") + (f"-{d}" if mo != "00" and d != "00" else "")
    return (written or iso or "").strip(), iso


def extra_fields(extra: str) -> dict[str, str]:
    """``Key: value`` lines of an item's Extra field, keys lower-cased (the first of each wins)."""
    found: dict[str, str] = {}
    for line in extra.splitlines():
        m = _EXTRA_LINE.match(line)
        if m:
            found.setdefault(m.group(1).strip().lower(), m.group(2))
    return found


class Layout:
    """The tables and columns this copy has, checked against what Curator reads."""

    def __init__(self, conn: apsw.Connection, path: str) -> None:
        self.tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "version" not in self.tables or "items" not in self.tables:
            raise SourceError(f"{path} has no Zotero tables (no version or items table): not a Zotero library")
        row = conn.execute("SELECT version FROM version WHERE schema = 'userdata'").fetchone()
        self.userdata = int(row[0]) if row and str(row[0]).isdigit() else None
        for table, columns in NEEDED.items():
            self._require(conn, path, table, columns)
        self.chosen: dict[str, str] = {}
        for what, options in EITHER.items():
            for table, columns in options:
                usable = table in self.tables and columns <= self.columns(conn, table)
                if usable and conn.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone():
                    self.chosen[what] = table
                    break
            else:
                self._refuse(path, f"no table of {what} ({' or '.join(t for t, _ in options)})")
        self.base = next((t for t in BASE_MAPPINGS if t in self.tables), None)

    @staticmethod
    def columns(conn: apsw.Connection, table: str) -> set[str]:
        return {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}

    def _require(self, conn: apsw.Connection, path: str, table: str, columns: set[str]) -> None:
        if table not in self.tables:
            self._refuse(path, f"no {table} table")
        missing = sorted(columns - self.columns(conn, table))
        if missing:
            self._refuse(path, f"no column {table}.{missing[0]}")

    def _refuse(self, path: str, what: str) -> None:
        version = f"userdata version {self.userdata}" if self.userdata is not None else "no userdata version"
        raise SourceError(
            f"{path} has a Zotero schema Curator does not know ({version}: {what})",
            hint="Curator reads libraries of Zotero 5 to 7; open this one in a current Zotero to upgrade it",
        )


def _bbt_keys(path: str, scratch: str | None, problems: Problems) -> dict[tuple[int, str], str]:
    """Better BibTeX's citation keys by (libraryID, item key), when its database is there."""
    if not os.path.exists(path):
        return {}
    try:
        with snapshot(path, "Better BibTeX database", scratch) as conn:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "citationkey" not in tables:
                problems.warn(f"{path} has no citationkey table: citation keys come from Zotero alone")
                return {}
            return {
                (int(lib or 1), _text(key)): _text(cite)
                for lib, key, cite in conn.execute("SELECT libraryID, itemKey, citationKey FROM citationkey")
                if key and cite
            }
    except (SourceError, apsw.Error) as e:
        problems.warn(f"Better BibTeX's database was not read: {e}")
        return {}


class ZoteroSource:
    kind = "zotero"

    def __init__(
        self,
        name: str,
        path: str,
        *,
        notes: bool = True,
        collections: tuple[str, ...] = (),
        better_bibtex: str | None = None,
        scratch: str | None = None,
    ) -> None:
        self.name = name
        self.path = path
        self.notes = notes
        self.collections = collections
        self.better_bibtex = better_bibtex or os.path.join(os.path.dirname(path), "better-bibtex.sqlite")
        self.scratch = scratch

    def files(self) -> list[str]:
        return [self.path, self.path + "-wal", self.better_bibtex]

    def read(self, problems: Problems) -> Iterator[Item]:
        bbt = _bbt_keys(self.better_bibtex, self.scratch, problems)
        with snapshot(self.path, "Zotero library", self.scratch) as conn:
            try:
                records = list(self._records(conn, bbt, problems))
            except (apsw.CorruptError, apsw.NotADBError) as e:
                raise SourceError(f"{self.path} is corrupt ({e}); the Zotero library cannot be read") from None
        for record in records:
            yield render(record)

    def _records(self, conn: apsw.Connection, bbt: dict[tuple[int, str], str], problems: Problems) -> Iterator[Record]:
        layout = Layout(conn, self.path)
        types = {
            i: _text(n) for i, n in conn.execute(f"SELECT itemTypeID, typeName FROM {layout.chosen['item types']}")
        }
        field_names = {
            i: _text(n) for i, n in conn.execute(f"SELECT fieldID, fieldName FROM {layout.chosen['fields']}")
        }
        base: dict[tuple[int, int], str] = {}
        if layout.base:
            for t, b, f in conn.execute(f"SELECT itemTypeID, baseFieldID, fieldID FROM {layout.base}"):
                if b in field_names:
                    base[(t, f)] = field_names[b]
        libraries = {i: _text(t) for i, t in conn.execute("SELECT libraryID, type FROM libraries")}
        groups: dict[int, int] = {}
        if "groups" in layout.tables:
            groups = {lib: gid for gid, lib in conn.execute("SELECT groupID, libraryID FROM groups")}
        deleted = {r[0] for r in conn.execute("SELECT itemID FROM deletedItems")}
        items: dict[int, tuple[str, int, int, str]] = {}
        seen_keys: dict[str, int] = {}
        for item_id, type_id, lib, key in conn.execute("SELECT itemID, itemTypeID, libraryID, key FROM items"):
            type_name = types.get(type_id, "")
            if item_id in deleted or type_name in NOT_ITEMS or libraries.get(lib) == "feed" or not key:
                continue
            key = _text(key)
            if key in seen_keys:
                problems.warn(f"item key {key} is in two libraries; the one in library {lib} is left out")
                continue
            seen_keys[key] = lib
            items[item_id] = (type_name or "document", type_id, lib, key)
        values: dict[int, dict[str, str]] = defaultdict(dict)
        for item_id, field_id, value in conn.execute(
            "SELECT d.itemID, d.fieldID, v.value FROM itemData d JOIN itemDataValues v ON v.valueID = d.valueID"
        ):
            if item_id not in items:
                continue
            name = field_names.get(field_id)
            if name is None:
                continue
            text = _text(value)
            values[item_id][name] = text
            base_name = base.get((items[item_id][1], field_id))
            if base_name:
                values[item_id].setdefault(base_name, text)
        creators = self._creators(conn, items)
        tags: dict[int, list[str]] = defaultdict(list)
        for item_id, name in conn.execute(
            "SELECT it.itemID, t.name FROM itemTags it JOIN tags t ON t.tagID = it.tagID ORDER BY t.name"
        ):
            if item_id in items and _text(name):
                tags[item_id].append(_text(name))
        in_collections = self._collections(conn, layout, items, problems)
        notes = self._notes(conn, types, deleted, items) if self.notes else {}
        for item_id, (type_name, _type_id, lib, key) in items.items():
            paths = in_collections.get(item_id, [])
            if self.collections and not any(self._selected(p) for p in paths):
                continue
            v = values.get(item_id, {})
            extra = extra_fields(v.get("extra", ""))
            written, iso = parse_date(v.get("date", ""))
            citekey = (
                v.get("citationKey") or extra.get("citation key") or bbt.get((lib, key)) or extra.get("bibtex", "")
            )
            gid = groups.get(lib)
            link = (
                f"zotero://select/groups/{gid}/items/{key}"
                if libraries.get(lib) == "group" and gid is not None
                else f"zotero://select/library/items/{key}"
            )
            yield Record(
                ref=f"zotero:{key}",
                item_type=type_name,
                title=v.get("title", ""),
                creators=creators.get(item_id, []),
                date=written,
                iso_date=iso,
                publication=v.get("publicationTitle", ""),
                abstract=v.get("abstractNote", ""),
                tags=tags.get(item_id, []),
                collections=paths,
                notes=notes.get(item_id, []),
                doi=v.get("DOI") or extra.get("doi", ""),
                url=v.get("url", ""),
                citekey=citekey.strip(),
                link=link,
                extra={"key": key, "library": "group" if gid is not None else libraries.get(lib, "user")},
            )

    def _selected(self, path: str) -> bool:
        return any(path == c or path.startswith(c.rstrip("/") + "/") for c in self.collections)

    def _creators(self, conn: apsw.Connection, items: dict[int, Any]) -> dict[int, list[Creator]]:
        roles = {i: _text(n) for i, n in conn.execute("SELECT creatorTypeID, creatorType FROM creatorTypes")}
        out: dict[int, list[Creator]] = defaultdict(list)
        for item_id, first, last, mode, role in conn.execute(
            "SELECT ic.itemID, c.firstName, c.lastName, c.fieldMode, ic.creatorTypeID FROM itemCreators ic "
            "JOIN creators c ON c.creatorID = ic.creatorID ORDER BY ic.itemID, ic.orderIndex"
        ):
            if item_id not in items:
                continue
            first, last = _text(first).strip(), _text(last).strip()
            name = last if mode == 1 or not first else f"{first} {last}".strip()
            if name:
                out[item_id].append(Creator(name, roles.get(role, "author"), last))
        return out

    def _collections(
        self, conn: apsw.Connection, layout: Layout, items: dict[int, Any], problems: Problems
    ) -> dict[int, list[str]]:
        gone: set[int] = set()
        if "deletedCollections" in layout.tables:
            gone = {r[0] for r in conn.execute("SELECT collectionID FROM deletedCollections")}
        rows = {i: (_text(n), p) for i, n, p in conn.execute(
            "SELECT collectionID, collectionName, parentCollectionID FROM collections"
        )}  # fmt: skip

        def path_of(cid: int) -> str | None:
            names: list[str] = []
            seen: set[int] = set()
            while cid is not None and cid in rows and cid not in seen:
                if cid in gone:
                    return None
                seen.add(cid)
                names.append(rows[cid][0])
                cid = rows[cid][1]
            return "/".join(reversed(names))

        paths = {cid: path_of(cid) for cid in rows}
        for wanted in self.collections:
            if not any(p and (p == wanted or p.startswith(wanted.rstrip("/") + "/")) for p in paths.values()):
                problems.warn(f"collection {wanted!r} is not in the library")
        out: dict[int, list[str]] = defaultdict(list)
        for cid, item_id in conn.execute("SELECT collectionID, itemID FROM collectionItems"):
            path = paths.get(cid)
            if item_id in items and path:
                out[item_id].append(path)
        return {i: sorted(set(p)) for i, p in out.items()}

    @staticmethod
    def _notes(
        conn: apsw.Connection, types: dict[int, str], deleted: set[int], items: dict[int, Any]
    ) -> dict[int, list[tuple[str, str]]]:
        from curator.sources.html import to_text

        note_types = [i for i, n in types.items() if n == "note"]
        out: dict[int, list[tuple[str, str]]] = defaultdict(list)
        if not note_types:
            return out
        for parent, note_id, html, title in conn.execute(
            "SELECT n.parentItemID, n.itemID, n.note, n.title FROM itemNotes n JOIN items i ON i.itemID = n.itemID "
            f"WHERE i.itemTypeID IN ({','.join('?' * len(note_types))}) AND n.parentItemID IS NOT NULL "
            "ORDER BY n.parentItemID, n.itemID",
            note_types,
        ):
            if parent in items and note_id not in deleted:
                text = to_text(_text(html))
                heading = _text(title).strip() or (text.split("\n", 1)[0] if text else "")
                rest = text[len(heading) :].lstrip() if text.startswith(heading) else text
                # Zotero titles a note by its first line; a note of one line keeps it as text too,
                # or the chunker would see a heading with nothing under it.
                out[parent].append((heading, rest or text))
        return out
