"""``now.md``: the note the person keeps current, which the digest is scored against.

It is read from the vault (not the index): the anchor is whatever the file says
now. Its vector is the mean of its passages' vectors, taken from the serving
epoch when the index holds every one of the file's passages as they are now (by
content hash), and embedded with the epoch's own recorded model otherwise: when
the index never held it, or holds an older text because it could not catch up.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from curator.embedders import all_embedders
from curator.embedders import base as embedders
from curator.index.chunker import chunk
from curator.index.normalise import query_terms
from curator.index.writer import text_hash
from curator.librarian.scoring import mean_unit
from curator.settings import Settings
from curator.vault.discover import Vault
from curator.vault.markdown import code_flags, heading
from curator.vault.note import NotANote, parse


@dataclass
class Anchor:
    path: str
    why_not: str | None = None
    """Why it cannot anchor the digest (missing, empty, unreadable); None when it can."""
    title: str = ""
    body: str = ""
    body_line: int = 1
    terms: list[str] = field(default_factory=list)


def load(vault: Vault, settings: Settings) -> Anchor:
    path = settings.notes.now_note
    a = Anchor(path)
    full = vault.abspath(path)
    root = os.path.realpath(vault.root)
    if os.path.lexists(full) and not os.path.realpath(full).startswith(root + os.sep):
        a.why_not = f"{path} points outside the vault"
        return a
    try:
        with open(full, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        a.why_not = f"there is no {path}"
        return a
    except OSError as e:
        a.why_not = f"{path} cannot be read ({e.strerror})"
        return a
    try:
        note = parse(path, raw)
    except NotANote as e:
        a.why_not = f"{path} cannot be read ({e.reason})"
        return a
    a.title, a.body, a.body_line = note.title, note.body, note.body_line
    if not _has_prose(note.body):
        a.why_not = f"{path} is empty"
        return a
    a.terms = query_terms(note.body)
    return a


def _has_prose(body: str) -> bool:
    """Anything but headings and blank lines: a now.md holding only "# Now" says nothing."""
    lines = body.split("\n")
    for line, is_code in zip(lines, code_flags(lines, body), strict=True):
        if (is_code or heading(line) is None) and any(ch.isalnum() for ch in line):
            return True
    return False


def texts(anchor: Anchor) -> list[str]:
    """What the embedder reads of now.md: its passages, chunked as the index chunks a note."""
    return [p.embed_text for p in chunk(anchor.body, anchor.body_line, anchor.title)]


def hashes(anchor: Anchor) -> list[str]:
    """The content hashes the index keeps now.md's passage vectors by."""
    return [text_hash(t) for t in texts(anchor)]


def embed(anchor: Anchor, spec: embedders.EmbedderSpec) -> list[float] | None:
    """now.md's vector computed with the epoch's model; EmbedderError when it is unavailable."""
    wanted = texts(anchor)
    if not wanted:
        return None
    embedder = all_embedders.create(spec, few=sum(map(len, wanted)) <= embedders.FEW_CHARS)
    return mean_unit(embedder.embed(wanted))
