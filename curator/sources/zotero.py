"""A Zotero library (``zotero.sqlite``): each regular item becomes ``zotero:ITEMKEY``.

Read from a private copy (``curator.sources.snapshot``), never from the live file, through
the queries in ``curator.sources.zotero_db`` (all of Curator's SQL lives in the index
package). An item brings its title, creators, date, venue, abstract, tags, collections,
child notes (HTML to text), DOI, URL and citation key; items in the trash, attachments,
annotations, standalone notes and feed items are left out. Its link is
``zotero://select/library/items/KEY`` (``.../groups/ID/items/KEY`` in a group library).

The citation key is Zotero's ``citationKey`` field where the schema has one, else a
``Citation Key:`` line in Extra (how Better BibTeX pins keys), else Better BibTeX's own
database (``better-bibtex.sqlite`` beside the library, table ``citationkey``).
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Iterator

import apsw

from curator.errors import SourceError
from curator.sources.base import Item, Problems
from curator.sources.bibliography import Creator, Record, render
from curator.sources.html import to_text
from curator.sources.snapshot import snapshot
from curator.sources.zotero_db import Library, better_bibtex_keys

NOT_ITEMS = ("note", "attachment", "annotation")
_EXTRA_LINE = re.compile(r"^\s*([A-Za-z][A-Za-z ]*?)\s*:\s*(\S.*?)\s*$")
_ZOTERO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?: (.*))?$", re.S)


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


def _bbt_keys(path: str, scratch: str | None, problems: Problems) -> dict[tuple[int, str], str]:
    """Better BibTeX's citation keys by (libraryID, item key), when its database is there."""
    if not os.path.exists(path):
        return {}
    try:
        with snapshot(path, "Better BibTeX database", scratch) as conn:
            keys = better_bibtex_keys(conn)
    except (SourceError, apsw.Error) as e:
        problems.warn(f"Better BibTeX's database was not read: {e}")
        return {}
    if keys is None:
        problems.warn(f"{path} has no citationkey table: citation keys come from Zotero alone")
        return {}
    return keys


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
        attachments: bool = False,
    ) -> None:
        self.name = name
        self.path = path
        self.notes = notes
        self.collections = collections
        self.better_bibtex = better_bibtex or os.path.join(os.path.dirname(path), "better-bibtex.sqlite")
        self.scratch = scratch
        self.attachments = attachments

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
        lib = Library(conn, self.path)
        types = lib.item_types()
        field_names = lib.fields()
        base = {(t, f): field_names[b] for t, b, f in lib.base_fields() if b in field_names}
        libraries = lib.libraries()
        groups = lib.groups()
        trashed = lib.trashed()
        items: dict[int, tuple[str, int, int, str]] = {}
        seen_keys: set[str] = set()
        for item_id, type_id, library, key in lib.items():
            type_name = types.get(type_id, "")
            if item_id in trashed or type_name in NOT_ITEMS or libraries.get(library) == "feed" or not key:
                continue
            if key in seen_keys:
                problems.warn(f"item key {key} is in two libraries; the one in library {library} is left out")
                continue
            seen_keys.add(key)
            items[item_id] = (type_name or "document", type_id, library, key)
        values: dict[int, dict[str, str]] = defaultdict(dict)
        for item_id, field_id, value in lib.values():
            name = field_names.get(field_id)
            if item_id not in items or name is None:
                continue
            values[item_id][name] = value
            base_name = base.get((items[item_id][1], field_id))
            if base_name:
                values[item_id].setdefault(base_name, value)
        roles = lib.creator_types()
        creators: dict[int, list[Creator]] = defaultdict(list)
        for item_id, first, last, mode, role in lib.creators():
            name = last if mode == 1 or not first else f"{first} {last}".strip()
            if item_id in items and name:
                creators[item_id].append(Creator(name, roles.get(role, "author"), last))
        tags: dict[int, list[str]] = defaultdict(list)
        for item_id, name in lib.tags():
            if item_id in items and name:
                tags[item_id].append(name)
        in_collections = self._collections(lib, items, problems)
        notes = self._notes(lib, types, trashed, items) if self.notes else {}
        pdfs = self._pdfs(lib, trashed, items, problems) if self.attachments else {}
        for item_id, (type_name, _type_id, library, key) in items.items():
            paths = in_collections.get(item_id, [])
            if self.collections and not any(self._selected(p) for p in paths):
                continue
            v = values.get(item_id, {})
            extra = extra_fields(v.get("extra", ""))
            written, iso = parse_date(v.get("date", ""))
            citekey = (
                v.get("citationKey") or extra.get("citation key") or bbt.get((library, key)) or extra.get("bibtex", "")
            )
            gid = groups.get(library)
            in_group = libraries.get(library) == "group" and gid is not None
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
                link=f"zotero://select/groups/{gid}/items/{key}"
                if in_group
                else f"zotero://select/library/items/{key}",
                extra={"key": key, "library": "group" if in_group else libraries.get(library, "user")},
                files=pdfs.get(item_id, ()),
            )

    def _selected(self, path: str) -> bool:
        return any(path == c or path.startswith(c.rstrip("/") + "/") for c in self.collections)

    def _collections(
        self, lib: Library, items: dict[int, tuple[str, int, int, str]], problems: Problems
    ) -> dict[int, list[str]]:
        rows = {cid: (name, parent) for cid, name, parent in lib.collections()}

        def path_of(cid: int) -> str | None:
            names: list[str] = []
            seen: set[int] = set()
            at: int | None = cid
            while at is not None and at not in seen:
                if at not in rows:
                    return None  # under a collection in the trash
                seen.add(at)
                names.append(rows[at][0])
                at = rows[at][1]
            return "/".join(reversed(names))

        paths = {cid: path_of(cid) for cid in rows}
        for wanted in self.collections:
            if not any(p and (p == wanted or p.startswith(wanted.rstrip("/") + "/")) for p in paths.values()):
                problems.warn(f"collection {wanted!r} is not in the library")
        out: dict[int, list[str]] = defaultdict(list)
        for cid, item_id in lib.collection_items():
            path = paths.get(cid)
            if item_id in items and path:
                out[item_id].append(path)
        return {i: sorted(set(p)) for i, p in out.items()}

    def _pdfs(
        self, lib: Library, trashed: set[int], items: dict[int, tuple[str, int, int, str]], problems: Problems
    ) -> dict[int, tuple[tuple[str, int, int], ...]]:
        """Each item's first PDF in Zotero's storage folder (``storage/ATTACHMENTKEY/NAME`` beside the
        library), as (path, size, mtime_ns): the one Zotero opens when the item is double-clicked."""
        storage = os.path.join(os.path.dirname(self.path), "storage")
        out: dict[int, tuple[tuple[str, int, int], ...]] = {}
        missing = 0
        for parent, att_id, key, content_type, name in lib.stored_files():
            if parent not in items or parent in out or att_id in trashed:
                continue
            if content_type != "application/pdf" and not name.casefold().endswith(".pdf"):
                continue
            # A name is a file in the attachment's own folder: never a path that leaves it.
            if not name or name != os.path.basename(name) or name in (".", "..") or "/" in key or key in (".", ".."):
                continue
            path = os.path.join(storage, key, name)
            try:
                st = os.stat(path)
            except OSError:
                missing += 1  # not downloaded (Zotero syncs files apart from items), or removed
                continue
            out[parent] = ((path, st.st_size, st.st_mtime_ns),)
        if missing:
            problems.warn(f"{missing} item(s) have a PDF that is not in {storage}: indexed without its text")
        return out

    @staticmethod
    def _notes(
        lib: Library, types: dict[int, str], trashed: set[int], items: dict[int, tuple[str, int, int, str]]
    ) -> dict[int, list[tuple[str, str]]]:
        out: dict[int, list[tuple[str, str]]] = defaultdict(list)
        for parent, note_id, html, title in lib.child_notes([i for i, n in types.items() if n == "note"]):
            if parent not in items or note_id in trashed:
                continue
            body = to_text(html)
            heading = title.strip() or (body.split("\n", 1)[0] if body else "")
            rest = body[len(heading) :].lstrip() if body.startswith(heading) else body
            # Zotero titles a note by its first line; a note of one line keeps it as text too,
            # or the chunker would see a heading with nothing under it.
            out[parent].append((heading, rest or body))
        return out
