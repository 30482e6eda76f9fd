"""The index's side of search: the SQL behind each ranked list and the filters inside them.

``curator.search`` decides what to rank and how to fuse; the queries it runs live
here, with the rest of the index's SQL.
"""

from __future__ import annotations

import weakref
from functools import lru_cache
from typing import Protocol

import apsw

from curator import redaction
from curator.index import db, template_notes
from curator.vault.globs import compile_glob


class FilterSpec(Protocol):
    """What filters a ranked list (``search.filters.Filters``), read only."""

    @property
    def tags(self) -> tuple[str, ...]: ...
    @property
    def path(self) -> str | None: ...
    @property
    def namespace(self) -> str | None: ...
    @property
    def since(self) -> str | None: ...
    @property
    def until(self) -> str | None: ...
    @property
    def source(self) -> str | None: ...
    @property
    def path_as_shown(self) -> bool: ...
    @property
    def templates(self) -> bool: ...


@lru_cache(maxsize=1 << 16)
def _shown(path: str) -> str:
    return redaction.redact_path(path)[0]


def _glob_shown(pattern: object, path: object) -> bool:
    """The path glob matched against the path as the MCP server shows it, secrets redacted: a
    filter on the real one would tell an agent, one character at a time, what redaction hides."""
    return compile_glob(str(pattern)).match(_shown(str(path)))


_SHOWN: weakref.WeakSet[apsw.Connection] = weakref.WeakSet()


def _functions(conn: apsw.Connection, f: FilterSpec | None) -> None:
    if f is not None and f.path and f.path_as_shown and conn not in _SHOWN:
        conn.create_scalar_function("kp_glob_shown", _glob_shown, 2, deterministic=True)  # type: ignore[arg-type]
        _SHOWN.add(conn)


def hides_templates(conn: apsw.Connection, f: FilterSpec | None) -> bool:
    """Whether template notes leave this search: the index holds some and it did not ask for them."""
    return (f is None or not f.templates) and template_notes.any_in(conn)


def _narrowed(conn: apsw.Connection, f: FilterSpec | None) -> bool:
    active = f is not None and any((f.tags, f.path, f.namespace, f.since, f.until, f.source))
    return active or hides_templates(conn, f)


def any_path_matches(conn: apsw.Connection, f: FilterSpec) -> bool:
    """Whether any document of the index has a path the filter's path glob matches (as the
    legs match it), whatever its other filters."""
    if not f.path:
        return True
    _functions(conn, f)
    glob = "kp_glob_shown(?, path)" if f.path_as_shown else "kp_glob(?, path)"
    return conn.execute(f"SELECT 1 FROM documents WHERE {glob} LIMIT 1", (f.path,)).fetchone() is not None


def condition(f: FilterSpec | None, hide_templates: bool = False) -> tuple[str, list[object]]:
    """A condition on documents ``d`` and its parameters."""
    where: list[str] = ["d.template = 0"] if hide_templates else []
    params: list[object] = []
    if f is None:
        return (" AND ".join(where) or "1"), params
    for tag in f.tags:
        # A nested tag sits under its parent, as in Obsidian: ``area`` finds ``area/topic``
        # too. Tags under ``area`` sort between ``area/`` and ``area0`` ('0' follows '/').
        want = tag.lstrip("#").strip("/").casefold()
        where.append("d.id IN (SELECT doc_id FROM tags WHERE tag = ? OR (tag > ? AND tag < ?))")
        params += [want, want + "/", want + "0"]
    if f.path:
        where.append("kp_glob_shown(?, d.path)" if f.path_as_shown else "kp_glob(?, d.path)")
        params.append(f.path)
    if f.namespace:
        where.append("d.namespace = ?")
        params.append(f.namespace.rstrip(":"))
    if f.since:
        where.append("d.date >= ?")
        params.append(f.since)
    if f.until:
        where.append("d.date <= ? || 'T99'")
        params.append(f.until)
    if f.source:
        where.append("d.source = ?")
        params.append(f.source)
    return (" AND ".join(where) or "1"), params


def _passage_ids(conn: apsw.Connection, f: FilterSpec | None) -> tuple[str, list[object]]:
    cond, params = condition(f, hides_templates(conn, f))
    return f"SELECT p.id FROM passages p JOIN documents d ON d.id = p.doc_id WHERE {cond}", params


def bm25(
    conn: apsw.Connection, match: str, weights: tuple[float, ...], f: FilterSpec | None, depth: int
) -> list[tuple[int, float]]:
    """(passage id, bm25) for an FTS5 MATCH expression, best (most negative) first."""
    _functions(conn, f)
    sql = f"SELECT rowid, bm25(passages_fts, {', '.join(map(str, weights))}) AS s FROM passages_fts WHERE passages_fts MATCH ?"
    params: list[object] = [match]
    if _narrowed(conn, f):
        inner, extra = _passage_ids(conn, f)
        # `+rowid`: the filter's passages are checked against what MATCH finds. As `rowid IN`, FTS5
        # took them as its index and looked each one up in every term's doclist: --path over the
        # 9,000 passages of one powershell-docs version took 1.6 s against 0.04 s, the same rows.
        sql += f" AND +rowid IN ({inner})"
        params += extra
    sql += " ORDER BY s LIMIT ?"
    params.append(depth)
    return [(int(pid), float(s)) for pid, s in conn.execute(sql, params)]


def sections_of(conn: apsw.Connection, pids: list[int]) -> dict[int, tuple[int, str]]:
    """Each passage's (document id, breadcrumb): the section of its note it is a piece of."""
    out: dict[int, tuple[int, str]] = {}
    for start in range(0, len(pids), 500):
        chunk = pids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for pid, doc_id, crumb in conn.execute(
            f"SELECT id, doc_id, breadcrumb FROM passages WHERE id IN ({marks})", chunk
        ):
            out[int(pid)] = (int(doc_id), str(crumb))
    return out


def nearest(
    conn: apsw.Connection, query_vec: bytes, f: FilterSpec | None, depth: int
) -> list[tuple[int, float | None]]:
    """(passage id, cosine distance), nearest first."""
    _functions(conn, f)
    if _narrowed(conn, f):
        inner, params = _passage_ids(conn, f)
        rows = db.rows(
            conn,
            f"SELECT rowid, vec_distance_cosine(embedding, ?) AS dist FROM passages_vec WHERE rowid IN ({inner}) "
            "ORDER BY dist LIMIT ?",
            [query_vec, *params, depth],
        )
    else:
        rows = db.rows(
            conn,
            "SELECT rowid, distance FROM passages_vec WHERE embedding MATCH ? AND k = ? ORDER BY distance",
            (query_vec, depth),
        )
    return [(int(pid), float(dist)) for pid, dist in rows]


def linked_documents(
    conn: apsw.Connection, seeds: list[int], f: FilterSpec | None, depth: int
) -> list[tuple[int, int]]:
    """(document id, links) of the notes one link away from the seed passages' notes."""
    _functions(conn, f)
    if not seeds:
        return []
    marks = ",".join("?" * len(seeds))
    seed_docs = [r[0] for r in conn.execute(f"SELECT DISTINCT doc_id FROM passages WHERE id IN ({marks})", seeds)]
    if not seed_docs:
        return []
    dmarks = ",".join("?" * len(seed_docs))
    cond, params = condition(f, hides_templates(conn, f))
    rows = db.rows(
        conn,
        f"""
        SELECT n.doc, count(*) AS c FROM (
            SELECT dst AS doc FROM links WHERE src IN ({dmarks}) AND dst IS NOT NULL
            UNION ALL
            SELECT src AS doc FROM links WHERE dst IN ({dmarks})
        ) n JOIN documents d ON d.id = n.doc
        WHERE n.doc NOT IN ({dmarks}) AND {cond}
        GROUP BY n.doc ORDER BY c DESC, n.doc LIMIT ?
        """,
        [*seed_docs, *seed_docs, *seed_docs, *params, depth],
    )
    return [(int(d), int(c)) for d, c in rows]


NAME_RANKS = (2, 3, 4)
"""The ``doc_keys`` ranks a note is named by: its file name, its title, an alias."""


def named(conn: apsw.Connection, name: str, f: FilterSpec | None) -> list[int]:
    """Notes that ``name`` names as a link would, case aside (file name, then title, then
    alias; the nearest the top of the vault first), within the filters ``f``."""
    _functions(conn, f)
    cond, params = condition(f, hides_templates(conn, f))
    rows = conn.execute(
        "SELECT k.doc_id FROM doc_keys k JOIN documents d ON d.id = k.doc_id "
        f"WHERE k.key = ? AND k.rank IN {NAME_RANKS} AND {cond} ORDER BY k.rank, length(d.path), d.path",
        [name.casefold(), *params],
    )
    return list(dict.fromkeys(int(r[0]) for r in rows))


def best_passage(conn: apsw.Connection, doc_id: int, match: str | None) -> int | None:
    """The document's passage that best matches ``match``, else its first."""
    best = None
    if match:
        best = conn.execute(
            "SELECT f.rowid FROM passages_fts f JOIN passages p ON p.id = f.rowid "
            "WHERE passages_fts MATCH ? AND p.doc_id = ? ORDER BY bm25(passages_fts) LIMIT 1",
            (match, doc_id),
        ).fetchone()
    if best is None:
        best = conn.execute("SELECT id FROM passages WHERE doc_id = ? ORDER BY seq LIMIT 1", (doc_id,)).fetchone()
    return int(best[0]) if best is not None else None


def notes_of(conn: apsw.Connection, pids: list[int], languages: bool) -> dict[int, tuple[int, str | None]]:
    """Each passage's (document id, the document's language or None); ``languages``: whether
    this epoch keeps documents' languages (one built before did not)."""
    out: dict[int, tuple[int, str | None]] = {}
    column = "d.lang" if languages else "NULL"
    for start in range(0, len(pids), 500):
        chunk = pids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for pid, doc_id, lang in conn.execute(
            f"SELECT p.id, p.doc_id, {column} FROM passages p JOIN documents d ON d.id = p.doc_id WHERE p.id IN ({marks})",
            chunk,
        ):
            out[int(pid)] = (int(doc_id), lang if isinstance(lang, str) else None)
    return out


UNTOLD = ""
"""The language key of the notes whose language is not known, in ``notes_holding`` and
``notes_per_language``."""


def notes_holding(conn: apsw.Connection, match: str) -> dict[str, int]:
    """Language → how many of its notes have a passage matching ``match`` (``UNTOLD``: the
    notes of no known language)."""
    return {
        str(lang or UNTOLD): int(n)
        for lang, n in conn.execute(
            "SELECT d.lang, COUNT(DISTINCT d.id) FROM passages_fts f JOIN passages p ON p.id = f.rowid "
            "JOIN documents d ON d.id = p.doc_id WHERE passages_fts MATCH ? GROUP BY d.lang",
            (match,),
        )
    }


def notes_per_language(conn: apsw.Connection) -> dict[str, int]:
    """Language → how many notes of the index are in it (``UNTOLD``: of no known language)."""
    return {
        str(lang or UNTOLD): int(n) for lang, n in conn.execute("SELECT lang, COUNT(*) FROM documents GROUP BY lang")
    }


TRANSLATION_KEYS = ("permalink", "translationKey")
"""Frontmatter keys that say which page a note is a translation of: the notes that share one
in different languages are one page's translations (Obsidian Publish's and Jekyll's
``permalink``, kept alike in each language's copy; Hugo's ``translationKey``)."""


def _translation_key() -> str:
    """A note's translation key in SQL: the first of ``TRANSLATION_KEYS`` whose value is a string
    with something in it, or a whole number (Hugo takes ``translationKey: 42``); a list says no one
    page, and an empty ``permalink`` none."""
    each = (
        f"nullif(trim(CASE WHEN json_type(d.meta, '$.{key}') IN ('text', 'integer') "
        f"THEN CAST(json_extract(d.meta, '$.{key}') AS TEXT) END), '')"
        for key in TRANSLATION_KEYS
    )
    return f"coalesce({', '.join(each)})"


def translations(
    conn: apsw.Connection, doc_ids: list[int], languages: list[str], f: FilterSpec | None
) -> dict[int, list[tuple[int, str]]]:
    """Each vault note of ``doc_ids`` that shares a translation key (``TRANSLATION_KEYS``) with vault
    notes told in one of ``languages`` and within the filters ``f`` → those notes (id, language),
    by id."""
    if not doc_ids or not languages:
        return {}
    _functions(conn, f)
    cond, params = condition(f, hides_templates(conn, f))
    key = _translation_key()
    out: dict[int, list[tuple[int, str]]] = {}
    for start in range(0, len(doc_ids), 500):
        chunk = doc_ids[start : start + 500]
        # Each side's keys worked out once (MATERIALIZED), then joined: as one join, SQLite read
        # every target note's meta again for each note found (a lexical search on the help vault
        # took 19 ms more at the median, 135 ms more at the 90th percentile; now 3 ms and 5 ms).
        rows = conn.execute(
            f"WITH src(id, key) AS MATERIALIZED (SELECT d.id, {key} FROM documents d "
            f"WHERE d.id IN ({','.join('?' * len(chunk))}) AND d.source = ?), "
            f"ours(id, lang, key) AS MATERIALIZED (SELECT d.id, d.lang, {key} FROM documents d "
            f"WHERE d.source = ? AND d.lang IN ({','.join('?' * len(languages))}) AND {cond}) "
            "SELECT src.id, ours.id, ours.lang FROM src JOIN ours ON ours.key = src.key "
            "WHERE src.key IS NOT NULL AND ours.id != src.id ORDER BY src.id, ours.id",
            [*chunk, db.VAULT, db.VAULT, *languages, *params],
        )
        for src, doc, lang in rows:
            out.setdefault(int(src), []).append((int(doc), str(lang)))
    return out


def passages_in_order(conn: apsw.Connection, doc_ids: list[int]) -> dict[int, list[int]]:
    """Each document's passages, first to last."""
    out: dict[int, list[int]] = {}
    for start in range(0, len(doc_ids), 500):
        chunk = doc_ids[start : start + 500]
        for doc, pid in conn.execute(
            f"SELECT doc_id, id FROM passages WHERE doc_id IN ({','.join('?' * len(chunk))}) ORDER BY doc_id, seq",
            chunk,
        ):
            out.setdefault(int(doc), []).append(int(pid))
    return out
