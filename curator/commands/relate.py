"""``curator relate REF``: links, backlinks, unresolved links and one-hop neighbours."""

from __future__ import annotations

from typing import Any

from curator import output
from curator.app import App
from curator.errors import NotFound


def collect(conn: Any, path: str) -> dict[str, Any]:
    row = conn.execute("SELECT id, kp_id, title FROM documents WHERE source = 'vault' AND path = ?", (path,)).fetchone()
    if row is None:
        raise NotFound(f"{path} is not in the index", hint="run `curator index`")
    doc_id, kp_id, title = row

    def note(r: Any) -> dict[str, Any]:
        return {"path": r[0], "kp_id": r[1], "title": r[2], "line": r[3]}

    links = [
        note(r)
        for r in conn.execute(
            "SELECT d.path, d.kp_id, d.title, l.line FROM links l JOIN documents d ON d.id = l.dst "
            "WHERE l.src = ? ORDER BY l.line, d.path",
            (doc_id,),
        )
    ]
    backlinks = [
        note(r)
        for r in conn.execute(
            "SELECT d.path, d.kp_id, d.title, l.line FROM links l JOIN documents d ON d.id = l.src "
            "WHERE l.dst = ? ORDER BY d.path, l.line",
            (doc_id,),
        )
    ]
    unresolved = [
        {"target": t, "line": n, "kind": k}
        for t, n, k in conn.execute(
            "SELECT target, line, kind FROM links WHERE src = ? AND dst IS NULL ORDER BY line", (doc_id,)
        )
    ]
    # Neighbours: notes that share a link target with this one, or are linked from the same notes.
    neighbours = [
        {"path": p, "kp_id": k, "title": t, "shared": n}
        for p, k, t, n in conn.execute(
            """
        SELECT d.path, d.kp_id, d.title, count(*) AS n FROM (
            SELECT o.src AS doc FROM links mine JOIN links o ON o.dst = mine.dst
            WHERE mine.src = ?1 AND mine.dst IS NOT NULL AND o.src != ?1
            UNION ALL
            SELECT o.dst AS doc FROM links mine JOIN links o ON o.src = mine.src
            WHERE mine.dst = ?1 AND o.dst IS NOT NULL AND o.dst != ?1
        ) x JOIN documents d ON d.id = x.doc
        WHERE x.doc NOT IN (SELECT dst FROM links WHERE src = ?1 AND dst IS NOT NULL)
          AND x.doc NOT IN (SELECT src FROM links WHERE dst = ?1)
        GROUP BY x.doc ORDER BY n DESC, d.path LIMIT 20
        """,
            (doc_id,),
        )
    ]
    return {
        "path": path,
        "kp_id": kp_id,
        "title": title,
        "links": links,
        "backlinks": backlinks,
        "unresolved": unresolved,
        "neighbours": neighbours,
    }


def run(app: App, ref: str) -> int:
    from curator.commands.read import resolve_ref
    from curator.index.reader import open_serving, report_warnings

    path = resolve_ref(app, ref)
    opened = open_serving(app)
    data = collect(opened.conn, path)
    if app.json:
        output.emit_json(data)
        return 0
    report_warnings(opened)
    output.line(f"{data['path']}  {data['kp_id'] or '(no kp_id)'}  {data['title']}")
    for key, label in (("links", "links to"), ("backlinks", "linked from")):
        output.line(f"{label} ({len(data[key])}):")
        for n in data[key]:
            output.line(f"  {n['path']}:{n['line']}  {n['title']}")
    output.line(f"unresolved ({len(data['unresolved'])}):")
    for u in data["unresolved"]:
        output.line(f"  line {u['line']}: [[{u['target']}]]")
    output.line(f"neighbours ({len(data['neighbours'])}):")
    for n in data["neighbours"]:
        output.line(f"  {n['path']}  {n['title']}  ({n['shared']} shared)")
    return 0
