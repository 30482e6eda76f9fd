"""A ref to a note of the vault, resolved safely and read in pages with line numbers.

A ref is a kp_id, a vault-relative path, a file name, a title or an alias. Whatever
it is, it ends at a note *of the vault*: a regular file matched by
``notes.include``, not ignored by git, outside ``.git/`` and ``.kp/``, reached
without a symlink. ``../../etc/passwd``, ``.git/config`` or a note under a
symlinked folder are refused, whether named directly or found through a stale
index row, so ``curator read`` and ``kp_read`` can never show a file that is not
a note.
"""

from __future__ import annotations

import math
import os
import stat
from dataclasses import dataclass
from typing import Any

import apsw

from curator.errors import NotFound, UsageError
from curator.index import reading
from curator.settings import Settings
from curator.vault.anchors import describe, line_of
from curator.vault.discover import Vault
from curator.vault.note import NotANote, parse
from curator.vault.paths import escape_reason, note_refusal
from curator.vault.tree import GitView

PAGE_LINES = 200


def why_not_a_note(vault: Vault, settings: Settings, path: str) -> str | None:
    """Why ``path`` is not a readable note of the vault (None: it is one)."""
    refusal = note_refusal(path, settings)
    if refusal is not None:
        return refusal.reason
    parts = path.split("/")
    for i in range(1, len(parts) + 1):
        prefix = "/".join(parts[:i])
        try:
            mode = os.lstat(vault.abspath(prefix)).st_mode
        except (FileNotFoundError, NotADirectoryError):
            return "no such file in the vault"
        if stat.S_ISLNK(mode):
            return f"the path goes through the symlink {prefix}; notes are regular files"
        if i == len(parts) and not stat.S_ISREG(mode):
            return "not a regular file"

    if GitView(vault).file_ignored(path):
        return "ignored by git, so not part of the vault"
    return None


def resolve(vault: Vault, settings: Settings, ref: str, conn: apsw.Connection | None) -> str:
    """The vault path of the note ``ref`` names; NotFound or UsageError when there is none.

    A path is taken as it is when it names a note; anything else is looked up in
    the index (kp_id, path, stem, title, alias). Either way the result is checked.
    """
    return _resolve(vault, settings, ref, conn)[0]


def _resolve(vault: Vault, settings: Settings, ref: str, conn: apsw.Connection | None) -> tuple[str, list[str]]:
    """``resolve``, with every note the index lookup found (none when ``ref`` is a note's path)."""
    if not ref.strip():
        raise UsageError("the ref is empty", hint="give a kp_id, a vault-relative path, a title or an alias")
    candidate = ref.strip().removeprefix("./")
    direct = why_not_a_note(vault, settings, candidate)
    if direct is None:
        return candidate, []
    found = reading.lookup(conn, ref.strip()) if conn is not None else []
    refused: list[str] = []
    for path in found:
        why = why_not_a_note(vault, settings, path)
        if why is None:
            return path, found
        refused.append(f"{path}: {why}")
    escape = escape_reason(candidate)
    if escape and not found:
        raise UsageError(f"{ref!r} is not a note of the vault: {escape}", hint="refs name notes inside the vault")
    full = vault.abspath(candidate)
    if not found and os.path.lexists(full):
        # A file of the vault that is not a note (kept out, not markdown, a folder, a symlink): say why.
        if os.path.isdir(full) and not os.path.islink(full):
            raise UsageError(f"{ref!r} is a folder, not a note", hint="give a note's path, kp_id or title")
        raise UsageError(f"{ref!r} cannot be read: {direct}")
    if refused:
        raise NotFound(f"{ref!r} names no readable note ({'; '.join(refused)})", hint="run `curator index`")
    if conn is None:
        raise NotFound(
            f"no note {ref!r}", hint="give a vault-relative path, or run `curator index` to look up kp_ids and titles"
        )
    raise NotFound(f"no note {ref!r} (by kp_id, path, file name, title or alias)")


def resolve_with_others(vault: Vault, settings: Settings, ref: str, conn: apsw.Connection) -> tuple[str, list[str]]:
    """The note ``ref`` names, and the other notes it also names (a file name several folders
    hold): the one link resolver picks the nearest the top of the vault."""
    path, found = _resolve(vault, settings, ref, conn)
    return path, [p for p in found if p != path]


@dataclass
class Page:
    path: str
    kp_id: str | None
    title: str
    blob: str
    frontmatter: dict[str, Any]
    page: int
    pages: int
    start_line: int
    end_line: int
    lines: list[str]
    """The page's lines, the first being ``start_line`` of the file."""
    text: str
    """The whole note, for scanners that must see all of it (a key block spanning pages)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "kp_id": self.kp_id,
            "title": self.title,
            "blob": self.blob,
            "frontmatter": self.frontmatter,
            "page": self.page,
            "pages": self.pages,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "lines": [{"n": self.start_line + i, "text": t} for i, t in enumerate(self.lines)],
        }


def read_page(vault: Vault, path: str, page: int = 1, page_lines: int = PAGE_LINES, anchor: str | None = None) -> Page:
    """Page ``page`` (1-based) of the note at ``path`` (already resolved); with ``anchor`` (a
    ``#Heading`` or ``#^block`` as a link writes it), the pages start at the line it names."""
    from curator.index.documents import git_blob_id

    if page < 1:
        raise UsageError("--page starts at 1")
    try:
        # O_NOFOLLOW: a file swapped for a symlink after the checks is still not followed.
        fd = os.open(vault.abspath(path), os.O_RDONLY | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as f:
            raw = f.read()
        note = parse(path, raw)
    except FileNotFoundError:
        raise NotFound(f"{path} is in the index but not in the vault any more", hint="run `curator index`") from None
    except OSError as e:
        raise NotFound(f"{path} cannot be read: {e.strerror}") from None
    except NotANote as e:
        raise NotFound(f"{path} is not a readable note: {e.reason}") from None
    lines = note.text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    first = 0
    if anchor:
        at = line_of(note.text, anchor)
        if at is None:
            raise NotFound(f"{path} has no {describe(anchor)}", hint=f"`curator read {path}` shows the whole note")
        first = at - 1
    pages = max(1, math.ceil((len(lines) - first) / page_lines))
    if page > pages:
        raise UsageError(f"{path} has {pages} page(s)")
    start = first + (page - 1) * page_lines
    chunk = lines[start : start + page_lines]
    meta = {str(k): v for k, v in note.meta.items()}
    return Page(
        path,
        note.kp_id,
        note.title,
        git_blob_id(raw),
        meta,
        page,
        pages,
        start + 1,
        start + len(chunk),
        chunk,
        note.text,
    )
