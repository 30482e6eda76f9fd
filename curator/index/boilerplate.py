"""Boilerplate: a passage repeated nearly word for word across many notes (a footer, a template's
section), found when the index is written so that search can keep it from crowding results.

Each passage's body is normalised (link targets and URLs dropped, case folded, ASCII marks,
digits and white space left out) and hashed; a body too short to say anything (under
``MIN_CHARS`` bytes once normalised: an empty section, ``## See also``) is given no hash.
A hash that ``MIN_NOTES`` or more documents share, under as many different breadcrumbs, is
boilerplate; the ``boilerplate`` table holds those hashes with how many documents repeat each,
worked out again after every reconcile that wrote something. A passage repeated under one
breadcrumb is a page's copies (each version of a docs tree keeps ``Get-ChildItem › SYNTAX``):
they stand as one passage in search (``curator.search.copies``) but keep their weight. On the
powershell-docs tree, five versions of most pages, 41,016 of its 60,391 passages were counted
boilerplate before and ranked at half weight; 4,988 are now. What search does with them is ``curator.search.boilerplate``'s.
"""

from __future__ import annotations

import hashlib
import re
import string
from collections.abc import Iterable

import apsw

MIN_NOTES = 5
"""A body repeated in this many documents is boilerplate: nobody writes one paragraph five
times over on purpose, while a footer or a template's section is in every note it was put in."""
MIN_CHARS = 24
"""Normalised bodies shorter than this (in UTF-8 bytes) are never boilerplate (a heading alone,
a stray line)."""

_MD_LINK = re.compile(r"\]\([^()\n]*\)")  # no "(" inside: linear on a line of "[a]("
_URL = re.compile(r"(?:https?|ftp|file)://\S+|mailto:\S+")
_DROP = (string.punctuation + string.digits + string.whitespace).encode("ascii")
"""Left out of the hashed bytes: ASCII marks, digits and white space. Deleting bytes costs a
quarter of what a regular expression over the text does (60,000 passages: 0.25 s, not 1 s)."""


def normalised(text: str) -> bytes:
    """What two copies of a footer have in common though each links its own page, bears its
    own date or wraps its lines its own way: the letters, case folded."""
    text = text.casefold()
    if "](" in text:
        text = _MD_LINK.sub(" ", text)
    if "://" in text or "mailto:" in text:
        text = _URL.sub(" ", text)
    return text.encode("utf-8").translate(None, _DROP)


def body_hash(text: str) -> str | None:
    """A passage body's boilerplate hash, or None when it is too short to be counted."""
    norm = normalised(text)
    if len(norm) < MIN_CHARS:
        return None
    return hashlib.sha1(norm).hexdigest()[:20]


def ensure(conn: apsw.Connection) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS boilerplate (body_hash TEXT PRIMARY KEY, notes INTEGER NOT NULL)")


def refresh(conn: apsw.Connection) -> int:
    """Count again which bodies enough documents repeat; returns how many passages are boilerplate."""
    with conn:
        ensure(conn)
        conn.execute("DELETE FROM boilerplate")
        conn.execute(
            "INSERT INTO boilerplate(body_hash, notes) SELECT body_hash, count(DISTINCT doc_id) FROM passages "
            "WHERE body_hash IS NOT NULL GROUP BY body_hash "
            "HAVING count(DISTINCT doc_id) >= ? AND count(DISTINCT breadcrumb) >= ?",
            (MIN_NOTES, MIN_NOTES),
        )
    row = conn.execute(
        "SELECT count(*) FROM passages WHERE body_hash IN (SELECT body_hash FROM boilerplate)"
    ).fetchone()
    return int(row[0]) if row else 0


def any_in(conn: apsw.Connection) -> bool:
    """Whether the epoch holds any boilerplate (False for one built before it was counted)."""
    try:
        return conn.execute("SELECT 1 FROM boilerplate LIMIT 1").fetchone() is not None
    except apsw.SQLError:
        return False


def groups(conn: apsw.Connection, passage_ids: Iterable[int]) -> dict[int, str]:
    """Of ``passage_ids``, those that are boilerplate, each with its body hash."""
    ids = sorted(set(passage_ids))
    out: dict[int, str] = {}
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ",".join("?" * len(part))
        for pid, h in conn.execute(
            f"SELECT p.id, p.body_hash FROM passages p JOIN boilerplate b ON b.body_hash = p.body_hash "
            f"WHERE p.id IN ({marks})",
            part,
        ):
            out[int(pid)] = str(h)
    return out
