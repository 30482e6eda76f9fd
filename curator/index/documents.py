"""A note file as an index document: parsed, chunked, its links listed."""

from __future__ import annotations

import hashlib

from curator.index.chunker import chunk
from curator.index.writer import DocInput
from curator.settings import Settings
from curator.vault.links import extract
from curator.vault.note import parse
from curator.vault.resolve import is_note_link

SOURCE = "vault"


def git_blob_id(raw: bytes) -> str:
    """The git blob id of ``raw``: the change token, computed without a repository."""
    return hashlib.sha1(b"blob %d\x00" % len(raw) + raw).hexdigest()


def from_note(path: str, raw: bytes, size: int, mtime_ns: int, settings: Settings) -> DocInput:
    """Raises NotANote for files that cannot be notes (binary, not UTF-8)."""
    note = parse(path, raw)
    include = tuple(settings.notes.include)
    links = [
        (link.line, link.kind, link.target, link.heading)
        for link in extract(note.body, note.body_line, path)
        if is_note_link(link, include)
    ]
    meta = {k: v for k, v in note.meta.items() if isinstance(k, str)}
    return DocInput(
        source=SOURCE,
        path=path,
        title=note.title,
        passages=chunk(note.body, note.body_line, note.title),
        kp_id=note.kp_id,
        size=size,
        mtime_ns=mtime_ns,
        blob=git_blob_id(raw),
        date=note.created,
        meta=meta,
        body_line=note.body_line,
        tags=note.tags,
        aliases=note.aliases,
        links=links,
    )
