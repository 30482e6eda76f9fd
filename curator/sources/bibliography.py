"""A bibliographic record (from a Zotero library or a CSL-JSON export) rendered as an item.

The rendered text is what gets chunked, searched and shown by ``curator read``: a header
paragraph (creators, type, venue, date, DOI, URL, citation key, tags, collections), then
``## Abstract`` and ``## Notes`` sections, so a passage's breadcrumb says which part of
the item it is (``Attention Is All You Need › Abstract``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from curator.sources.base import Item
from curator.unsafe import strip_unsafe

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_MARKUP_START = re.compile(r"^([ ]{0,3})(#|```|~~~)")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
PRIMARY_ROLES = ("author", "artist", "director", "performer", "sponsor", "programmer", "inventor", "podcaster")


@dataclass(frozen=True)
class Creator:
    name: str
    role: str = "author"
    family: str = ""
    """The family name alone, where the source says which part it is."""


@dataclass
class Record:
    ref: str
    item_type: str
    """The source's own type name: ``journalArticle`` (Zotero), ``article-journal`` (CSL)."""
    title: str = ""
    creators: list[Creator] = field(default_factory=list)
    date: str = ""
    """As written (``March 2019``)."""
    iso_date: str | None = None
    """Whole or partial ISO (``2019-03``): what --since and --until compare."""
    publication: str = ""
    abstract: str = ""
    tags: list[str] = field(default_factory=list)
    collections: list[str] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    """(title, text) of each child note."""
    doi: str = ""
    url: str = ""
    citekey: str = ""
    link: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Anything else worth keeping in the item's fields (its library, its CSL id)."""
    files: tuple[tuple[str, int, int], ...] = ()
    """(path, size, mtime_ns) of the item's PDF whose text is indexed with it (``Item.files``)."""

    @property
    def year(self) -> str:
        m = _YEAR.search(self.iso_date or self.date)
        return m.group(1) if m and m.group(1) != "0000" else ""


def type_label(item_type: str) -> str:
    """``journalArticle`` or ``article-journal`` as words: ``journal article``."""
    words = _CAMEL.sub(" ", item_type).replace("-", " ").replace("_", " ").lower().split()
    if len(words) == 2 and words[0] == "article":  # CSL puts the kind of article second
        words.reverse()
    return " ".join(words) or "item"


def _clean(text: str) -> str:
    return strip_unsafe(text, keep="").strip()


def _block(text: str) -> str:
    """Free text as lines that the chunker cannot mistake for headings or code fences."""
    lines = [_MARKUP_START.sub(r"\1\\\2", strip_unsafe(line, keep="\t")) for line in text.split("\n")]
    return "\n".join(lines).strip()


def untitled(record: Record) -> str:
    words = [f"Untitled {type_label(record.item_type)}"]
    if record.creators:
        first = record.creators[0]
        words.append(f"by {_clean(first.family or first.name)}")
    if record.year:
        words.append(f"({record.year})")
    return " ".join(words)


def render(record: Record) -> Item:
    title = _clean(record.title) or untitled(record)
    title = " ".join(title.split())
    header: list[str] = []
    names = []
    for c in record.creators:
        name = _clean(c.name)
        if name:
            names.append(name if c.role in PRIMARY_ROLES else f"{name} ({type_label(c.role)})")
    if names:
        header.append("; ".join(names))
    kind = type_label(record.item_type)
    line = kind[:1].upper() + kind[1:]
    for part in (record.publication, record.date):
        if _clean(part):
            line += f" · {_clean(part)}"
    header.append(line)
    if record.doi:
        header.append(f"DOI: {_clean(record.doi)}")
    if record.url:
        header.append(f"URL: {_clean(record.url)}")
    if record.citekey:
        header.append(f"Citation key: @{_clean(record.citekey)}")
    tags = [t for t in (_clean(t) for t in record.tags) if t]
    if tags:
        header.append("Tags: " + " · ".join(tags))
    collections = [c for c in (_clean(c) for c in record.collections) if c]
    if collections:
        header.append("Collections: " + " · ".join(collections))
    parts = [f"# {title}", "\n".join(header)]
    abstract = _block(record.abstract)
    if abstract:
        parts += ["## Abstract", abstract]
    notes = [(_clean(t), _block(x)) for t, x in record.notes]
    notes = [(t, x) for t, x in notes if t or x]
    if notes:
        parts.append("## Notes")
        for n, (note_title, text) in enumerate(notes, start=1):
            parts.append(f"### {' '.join(note_title.split())[:120] or f'Note {n}'}")
            if text:
                parts.append(text)
    fields: dict[str, Any] = {
        "item_type": record.item_type,
        "creators": [{"name": _clean(c.name), "role": c.role} for c in record.creators if _clean(c.name)],
        "date": _clean(record.date) or None,
        "year": record.year or None,
        "publication": _clean(record.publication) or None,
        "doi": _clean(record.doi) or None,
        "url": _clean(record.url) or None,
        "citation_key": _clean(record.citekey) or None,
        "collections": collections,
        "notes": len(notes),
        **record.extra,
    }
    return Item(
        ref=record.ref,
        title=title,
        text="\n\n".join(parts) + "\n",
        link=record.link,
        date=record.iso_date,
        tags=tuple(tags),
        cite_keys=(_clean(record.citekey),) if _clean(record.citekey) else (),
        fields={k: v for k, v in fields.items() if v not in (None, [], "")},
        files=record.files,
    )
