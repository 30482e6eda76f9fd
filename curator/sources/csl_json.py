"""A CSL-JSON export (Zotero's own, or Better BibTeX's "Better CSL JSON"): a JSON array
of CSL items, each an item beside the notes.

When an entry's ``id`` is a Zotero item URI (``http://zotero.org/users/1/items/KEY``, as
Zotero exports it), the item is ``zotero:KEY`` with a ``zotero://select`` link, the same
reference a synced ``zotero.sqlite`` gives. Better BibTeX writes the citation key as the
id instead; such an entry is ``csl:NAME/CITEKEY`` and links to
``zotero://select/items/@CITEKEY``, which Better BibTeX answers. The citation key is
``citation-key`` (CSL 1.0.2), else a ``Citation Key:`` line in ``note`` (Zotero's Extra),
else a Better BibTeX id.

An entry that is not an object or has no id is counted and named by its position; a
file that is not JSON, or not a list, is refused with the file named.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from curator.errors import SourceError
from curator.sources.base import Item, Problems
from curator.sources.bibliography import Creator, Record, render
from curator.sources.zotero import extra_fields

_ZOTERO_URI = re.compile(r"zotero\.org/(users|groups)/(?:local/)?([^/]+)/items/([A-Z0-9]{8})$")
ROLES = ("author", "editor", "translator", "container-author", "collection-editor", "director", "composer")


def _str(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return ""


def _name(person: Any) -> str:
    if not isinstance(person, dict):
        return _str(person)
    if _str(person.get("literal")):
        return _str(person["literal"])
    parts = [person.get(k) for k in ("given", "dropping-particle", "non-dropping-particle", "family", "suffix")]
    return " ".join(_str(p) for p in parts if _str(p))


def _date(value: Any) -> tuple[str, str | None]:
    """(as written, partial ISO) from a CSL date: date-parts, raw, literal or a plain string."""
    if isinstance(value, str):
        m = re.search(r"(?<!\d)(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?", value)
        return value, "-".join(g for g in m.groups() if g) if m else None
    if not isinstance(value, dict):
        return "", None
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        nums = [int(p) for p in parts[0][:3] if isinstance(p, int | str) and str(p).isdigit()]
        if nums:
            iso = f"{nums[0]:04d}" + "".join(f"-{n:02d}" for n in nums[1:])
            return _str(value.get("raw")) or iso, iso
    written = _str(value.get("raw")) or _str(value.get("literal"))
    return _date(written) if written else ("", None)


class CslJsonSource:
    kind = "csl-json"

    def __init__(self, name: str, path: str) -> None:
        self.name = name
        self.path = path

    def files(self) -> list[str]:
        return [self.path]

    def _load(self) -> list[Any]:
        try:
            with open(self.path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            raise SourceError(f"no CSL-JSON export at {self.path}") from None
        except IsADirectoryError:
            raise SourceError(f"{self.path} is a folder, not a CSL-JSON export") from None
        except OSError as e:
            raise SourceError(f"cannot read {self.path}: {e.strerror}") from None
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except UnicodeDecodeError as e:
            raise SourceError(f"{self.path} is not UTF-8 (byte {e.start + 1})") from None
        except ValueError as e:
            where = f" at line {e.lineno} column {e.colno}" if isinstance(e, json.JSONDecodeError) else ""
            raise SourceError(f"{self.path} is not JSON{where}", hint="export CSL JSON from Zotero") from None
        except RecursionError:  # json raises it, cleanly, past a thousand nested lists or objects
            raise SourceError(f"{self.path} is JSON nested too deep to read", hint="export CSL JSON from Zotero") from None
        if isinstance(data, dict) and isinstance(data.get("items"), list):
            data = data["items"]
        if not isinstance(data, list):
            raise SourceError(f"{self.path} is not a CSL-JSON export: the top level is not a list of items")
        return data

    def read(self, problems: Problems) -> Iterator[Item]:
        records: dict[str, tuple[int, Record]] = {}
        for n, entry in enumerate(self._load(), start=1):
            if not isinstance(entry, dict):
                problems.add(f"entry {n}: not an object")
                continue
            raw_id = _str(entry.get("id")).strip()
            if not raw_id:
                problems.add(f"entry {n}: no id")
                continue
            record = self._record(raw_id, entry)
            if record.ref in records:
                problems.warn(f"{record.ref} is entry {records[record.ref][0]} and entry {n}: the later one wins")
            records[record.ref] = (n, record)
        for _, record in records.values():
            yield render(record)

    def _record(self, raw_id: str, e: dict[str, Any]) -> Record:
        m = _ZOTERO_URI.search(raw_id)
        note = extra_fields(_str(e.get("note")))
        citekey = _str(e.get("citation-key")) or note.get("citation key", "") or ("" if m else raw_id)
        if m:
            kind, owner, key = m.groups()
            ref = f"zotero:{key}"
            where = "library" if kind == "users" else f"groups/{owner}"
            link: str | None = f"zotero://select/{where}/items/{key}"
        else:
            ref = f"csl:{self.name}/{raw_id}"
            link = f"zotero://select/items/@{citekey}" if citekey else None
        creators = []
        for role in ROLES:
            people = e.get(role)
            for person in people if isinstance(people, list) else []:
                name = _name(person)
                if name:
                    family = _str(person.get("family")) if isinstance(person, dict) else ""
                    creators.append(Creator(name, role, family))
        written, iso = _date(e.get("issued"))
        keywords = _str(e.get("keyword"))
        return Record(
            ref=ref,
            item_type=_str(e.get("type")) or "document",
            title=_str(e.get("title")),
            creators=creators,
            date=written,
            iso_date=iso,
            publication=_str(e.get("container-title")),
            abstract=_str(e.get("abstract")),
            tags=[t.strip() for t in re.split(r"[,;]", keywords) if t.strip()],
            doi=_str(e.get("DOI")),
            url=_str(e.get("URL")),
            citekey=citekey,
            link=link or (_str(e.get("URL")) or None),
            extra={"csl_id": raw_id},
        )
