"""Candidates: the notes created since the last digest, each with the time it was created.

The window runs from the last digest's end (the newest digest note in the digest
folder records it in its frontmatter) to the clock: ``since < created <= until``.
A note's creation time is the first configured frontmatter key that holds a date
(``created``, then ``date``), else the commit that added the file, else the
moment the index first saw it. A malformed or future frontmatter date is named
in a warning and the next source is used. Digest notes, ``now.md`` (the anchor,
not news), producer-owned paths, templates (``curator.vault.templates``: what a note is
made from is not news, and its ``{{date}}`` is no summary) and empty notes (no passage)
are never candidates.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from curator import clock
from curator.index.catalog import Record
from curator.index.db import VAULT
from curator.librarian import dates
from curator.settings import Settings
from curator.vault import templates as tmpl
from curator.vault.globs import matches
from curator.vault.note import NotANote, parse
from curator.vault.templates import TemplateFolder

DIGEST_KEY = "digest"
"""The frontmatter mapping that marks a digest note and records its window."""


@dataclass(frozen=True)
class Candidate:
    doc: Record
    created: dt.datetime
    """The instant the window and the age are measured with."""
    day: str
    """The creation date as the digest shows it (YYYY-MM-DD)."""
    origin: str
    """Where the time came from: ``frontmatter:KEY``, ``git`` or ``index``."""


@dataclass(frozen=True)
class Window:
    since: dt.datetime | None
    """The last digest's end; None before the first digest."""
    until: dt.datetime
    last: str | None = None
    """The digest note the window follows."""


@dataclass
class Selection:
    window: Window
    candidates: list[Candidate] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def in_digest_dir(path: str, settings: Settings) -> bool:
    folder = settings.notes.digest_dir.strip("/")
    return path.startswith(folder + "/")


def digest_window(meta: dict[str, Any]) -> tuple[dt.datetime | None, dt.datetime] | None:
    """(since, until) recorded by a digest note's frontmatter; None when it is not a digest."""
    digest = meta.get(DIGEST_KEY)
    if not isinstance(digest, dict) or not isinstance(digest.get("window"), dict):
        return None
    window = digest["window"]
    until = clock.parse_or_none(None if window.get("until") is None else str(window["until"]))
    if until is None:
        return None
    return clock.parse_or_none(None if window.get("since") is None else str(window["since"])), until


def last_digest(root: str, settings: Settings) -> tuple[str | None, dt.datetime | None, list[str]]:
    """The newest digest note in the digest folder: (path, its window's end, warnings).

    Read from the files, not the index: a digest folder the index leaves out (a hidden
    one, an excluded one) still closes the window.
    """
    folder = settings.notes.digest_dir.strip("/")
    best: tuple[dt.datetime, str] | None = None
    warnings = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, *folder.split("/"))):
        dirnames.sort()
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            path = os.path.relpath(full, root).replace(os.sep, "/")
            if os.path.islink(full) or not matches(path, settings.notes.include):
                continue
            try:
                with open(full, "rb") as f:
                    meta = parse(path, f.read(settings.notes.max_bytes)).meta
            except (OSError, NotANote):
                continue
            window = digest_window(meta)
            if window is None:
                if DIGEST_KEY in meta:
                    warnings.append(f"{path}: its digest window cannot be read; it does not count as the last digest")
                continue
            if best is None or (window[1], path) > best:
                best = (window[1], path)
    if best is None:
        return None, None, warnings
    return best[1], best[0], warnings


def _frontmatter_time(
    doc: Record, keys: tuple[str, ...], now: dt.datetime, warn: Callable[[str], None], zone: dt.tzinfo
) -> Candidate | None:
    for key in keys:
        value = doc.meta.get(key)
        if value is None or value == "":
            continue
        try:
            instant, start, day = dates.from_frontmatter(value, zone)
        except ValueError:
            warn(f"{doc.path}: {key}: {str(value)[:60]!r} is not a date")
            continue
        if start > now:
            warn(f"{doc.path}: {key}: {value} is after the digest's clock ({clock.iso(now)})")
            continue
        return Candidate(doc, instant, day, f"frontmatter:{key}")
    return None


AddedTimes = Callable[[], dict[str, int]]
"""Path → the author time of the commit that added it; called only when a note needs it."""


def created_at(
    doc: Record,
    settings: Settings,
    now: dt.datetime,
    added: AddedTimes,
    warn: Callable[[str], None],
    zone: dt.tzinfo,
) -> Candidate | None:
    """The note's creation time by the rules above, a date written without an offset read in
    ``zone`` (the vault's, ``notes.timezone``); None when nothing knows it."""
    found = _frontmatter_time(doc, settings.digest.created_keys, now, warn, zone)
    if found is not None:
        return found
    if doc.source == VAULT and doc.path in added():
        when = clock.from_epoch(added()[doc.path])
        return Candidate(doc, when, dates.day_in(when, zone), "git")
    seen = clock.parse_or_none(doc.seen)
    if seen is not None:
        return Candidate(doc, seen, dates.day_in(seen, zone), "index")
    return None


def excluded(doc: Record, settings: Settings, templates: list[TemplateFolder]) -> bool:
    if doc.source != VAULT:
        return False
    if in_digest_dir(doc.path, settings) or digest_window(doc.meta) is not None:
        return True
    if doc.path == settings.notes.now_note or tmpl.holding(doc.path, templates) is not None:
        return True
    return matches(doc.path, settings.producers.paths)


def _origin(origin: str) -> str:
    if origin.startswith("frontmatter:"):
        return origin.removeprefix("frontmatter:")
    return {"git": "commit time", "index": "first sighting by the index"}[origin]


def select(
    docs: list[Record],
    settings: Settings,
    now: dt.datetime,
    added: AddedTimes,
    since: dt.datetime | None,
    templates: list[TemplateFolder],
) -> Selection:
    """The candidates in (since, now], in document order (source, path); ``templates`` are the
    folders the vault's settings name (``templates.on_disk``)."""
    sel = Selection(Window(since, now))
    undated: list[str] = []
    zone = clock.zone(settings.notes.timezone)
    for doc in docs:
        if excluded(doc, settings, templates) or not doc.passages:
            continue  # a note with nothing in it yet (a new "Untitled") is not news
        problems: list[str] = []
        c = created_at(doc, settings, now, added, problems.append, zone)
        if c is None:
            undated.append(doc.path)
        elif (since is None or c.created > since) and c.created <= now:
            sel.candidates.append(c)
            # Named where it matters: a bad date on a note this digest covers. Older
            # notes are not re-reported on every run.
            sel.warnings.extend(f"{p}; using its {_origin(c.origin)}" for p in problems)
    if undated:
        shown = ", ".join(undated[:5]) + (f" and {len(undated) - 5} more" if len(undated) > 5 else "")
        sel.warnings.append(
            f"{len(undated)} note(s) have no creation time (no date in frontmatter, never committed, "
            f"not seen by the index): {shown}"
        )
    return sel
