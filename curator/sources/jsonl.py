"""A JSONL corpus: one document per line, each an item ``jsonl:NAME/ID``.

A line is a JSON object with ``_id`` or ``id``, ``text``, and optionally ``title``,
``source``, ``url`` and ``commit`` (all kept and shown). This is also how ``curator bench``
reads a BEIR corpus. Gzip is recognised by its magic bytes, a byte-order mark is dropped.

Bad lines never stop a read: each is counted and named by its line number (not JSON, not
an object, no id, no text, not UTF-8, longer than the size limit). When an id appears
twice the later line wins and a warning names both lines; that takes a first pass over
the file for the ids, so the item written is always the one that wins, and a vector is
never computed for a line that loses.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from curator.errors import SourceError
from curator.sources.base import Item, Problems
from curator.unsafe import first_unsafe

DEFAULT_MAX_ITEM_BYTES = 10 * 1024 * 1024
BOM = b"\xef\xbb\xbf"
OPTIONAL = ("source", "url", "commit")


@dataclass(frozen=True)
class Entry:
    """One valid line."""

    id: str
    title: str
    text: str
    line: int
    source: str | None = None
    url: str | None = None
    commit: str | None = None


def _open(path: str) -> IO[bytes]:
    try:
        with open(path, "rb") as probe:
            gzipped = probe.read(2) == b"\x1f\x8b"
        if gzipped:
            return gzip.open(path, "rb")  # type: ignore[return-value]
        return open(path, "rb")
    except FileNotFoundError:
        raise SourceError(f"no corpus at {path}") from None
    except IsADirectoryError:
        raise SourceError(f"{path} is a folder, not a JSONL file") from None
    except OSError as e:
        raise SourceError(f"cannot read {path}: {e.strerror}") from None


def _scalar(value: Any, key: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(f"{key} is not a string")
    return str(value)


def _parse(raw: bytes, no: int, max_bytes: int) -> Entry:
    """An entry, or ValueError saying what is wrong with the line."""
    if len(raw) > max_bytes:
        raise ValueError(f"{len(raw) / 1e6:.1f} MB, over the {max_bytes} byte limit (max_item_bytes)")
    if raw.startswith(BOM):
        raw = raw[len(BOM) :]
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"not UTF-8 (byte {e.start + 1})") from None
    try:
        data = json.loads(line)
    except ValueError as e:
        raise ValueError(f"not JSON ({getattr(e, 'msg', e)} at column {getattr(e, 'colno', '?')})") from None
    except RecursionError:  # json raises it, cleanly, past a thousand nested lists or objects
        raise ValueError("JSON nested too deep to read") from None
    if not isinstance(data, dict):
        raise ValueError(f"a JSON {type(data).__name__}, not an object")
    raw_id = data.get("_id", data.get("id"))
    if raw_id is None:
        raise ValueError("no _id or id")
    doc_id = _scalar(raw_id, "the id")
    if not doc_id or not doc_id.strip():
        raise ValueError("an empty id")
    if first_unsafe(doc_id) is not None:
        raise ValueError("the id has control characters")
    text = data.get("text")
    if not isinstance(text, str):
        raise ValueError("no text" if text is None else "text is not a string")
    title = _scalar(data.get("title"), "title") or ""
    extra = {k: _scalar(data.get(k), k) for k in OPTIONAL}
    return Entry(doc_id, title, text, no, **extra)


def _lines(path: str) -> Iterator[tuple[int, bytes]]:
    with _open(path) as f:
        try:
            yield from enumerate(f, start=1)
        except (OSError, EOFError, gzip.BadGzipFile) as e:
            raise SourceError(f"{path} cannot be read to the end: {e}") from None


def entries(path: str, problems: Problems, max_bytes: int = DEFAULT_MAX_ITEM_BYTES) -> Iterator[Entry]:
    """Every valid line whose id is not repeated further down, in file order."""
    last: dict[str, int] = {}
    first: dict[str, int] = {}
    for no, raw in _lines(path):
        if not raw.strip() or raw.strip() == BOM:
            continue
        try:
            entry = _parse(raw, no, max_bytes)
        except ValueError as e:
            problems.add(f"line {no}: {e}")
            continue
        if entry.id in last:
            problems.warn(f"id {entry.id!r} on line {first[entry.id]} appears again on line {no}: the later line wins")
        else:
            first[entry.id] = no
        last[entry.id] = no
    for no, raw in _lines(path):
        if not raw.strip():
            continue
        try:
            entry = _parse(raw, no, max_bytes)
        except ValueError:
            continue  # counted on the first pass
        if last.get(entry.id) == no:
            yield entry


class JsonlSource:
    kind = "jsonl"

    def __init__(self, name: str, path: str, *, max_item_bytes: int = DEFAULT_MAX_ITEM_BYTES) -> None:
        self.name = name
        self.path = path
        self.max_item_bytes = max_item_bytes

    def files(self) -> list[str]:
        return [self.path]

    def ref(self, doc_id: str) -> str:
        return f"jsonl:{self.name}/{doc_id}"

    def read(self, problems: Problems) -> Iterator[Item]:
        if os.path.isdir(self.path):
            raise SourceError(f"{self.path} is a folder, not a JSONL file")
        for e in entries(self.path, problems, self.max_item_bytes):
            fields = {"id": e.id, **{k: getattr(e, k) for k in OPTIONAL if getattr(e, k) is not None}}
            yield Item(ref=self.ref(e.id), title=e.title or e.id, text=e.text, link=e.url, fields=fields)
