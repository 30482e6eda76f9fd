"""The Source port: something canonical beside the vault that Curator reads and never writes.

A source turns a file outside the notes (a Zotero library, a CSL-JSON export, a JSONL
corpus) into **items**: derived documents, each with its own reference
(``zotero:ITEMKEY``, ``jsonl:NAME/ID``), rendered text, metadata and a change token. The
index stores them beside notes; nothing is ever written back.

An adapter is a class with ``kind``, ``files()`` and ``read()``; ``all_sources.SOURCES``
maps each configured ``type`` to one.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

NAMED_LIMIT = 20
"""How many problems a read names one by one; the rest are counted."""


@dataclass(frozen=True)
class Item:
    """One derived document."""

    ref: str
    """Its reference: kp_id, citation and ``curator read`` argument (``zotero:ABCD2345``)."""
    title: str
    text: str
    """The rendered text: what is chunked, searched and shown by ``curator read``."""
    link: str | None = None
    """Where a person opens it: ``zotero://select/...``, or the item's own URL."""
    date: str | None = None
    """A whole or partial ISO date (``2021``, ``2021-03``, ``2021-03-15``) for --since/--until."""
    tags: tuple[str, ...] = ()
    cite_keys: tuple[str, ...] = ()
    """Citation keys a note's ``@key`` resolves to this item by."""
    fields: Mapping[str, Any] = field(default_factory=dict)
    """What the source says about it (creators, DOI, url, commit ...): kept and shown."""
    files: tuple[tuple[str, int, int], ...] = ()
    """(path, size, mtime_ns) of a file whose text belongs to the item (a Zotero item's PDF): read
    by the extractor port when the item is indexed, its pages cited as ``zotero:KEY#page=3``."""

    @property
    def token(self) -> str:
        """The change token: an item whose token is unchanged is not re-chunked."""
        payload: list[Any] = [self.ref, self.title, self.text, self.link, self.date, self.tags, self.cite_keys]
        payload.append(self.fields)
        if self.files:  # a new or changed PDF changes the item; without one the token is as it was
            payload.append(self.files)
        raw = json.dumps(payload, ensure_ascii=False, sort_keys=True, default=str)
        return hashlib.sha1(raw.encode("utf-8")).hexdigest()


@dataclass
class Problems:
    """What a read found wrong without failing: every one counted, the first few named."""

    count: int = 0
    named: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    warning_count: int = 0

    def add(self, what: str) -> None:
        self.count += 1
        if len(self.named) < NAMED_LIMIT:
            self.named.append(what)

    def warn(self, what: str) -> None:
        self.warning_count += 1
        if len(self.warnings) < NAMED_LIMIT:
            self.warnings.append(what)

    def to_json(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "named": self.named,
            "warnings": self.warnings,
            "warning_count": self.warning_count,
        }


class Source(Protocol):
    """A read-only source of items."""

    kind: str
    """The ``type`` in the config: zotero, csl-json, jsonl."""
    name: str
    path: str

    def files(self) -> list[str]:
        """The files whose size and mtime decide whether the source must be read again."""
        ...

    def read(self, problems: Problems) -> Iterator[Item]:
        """Every item; raises SourceError (naming the file) when the source cannot be read."""
        ...


def resolve_path(vault_root: str, configured: str) -> str:
    """``~`` expanded; a relative path is taken from the vault root."""
    path = os.path.expanduser(configured)
    if not os.path.isabs(path):
        path = os.path.join(vault_root, path)
    return os.path.normpath(path)

