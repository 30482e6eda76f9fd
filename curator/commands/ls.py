"""``curator ls``: the documents in the index."""

from __future__ import annotations

from curator import output
from curator.app import App


def run(app: App) -> int:
    from curator.index.reader import open_serving, report_warnings

    opened = open_serving(app)
    rows = opened.conn.execute(
        "SELECT d.path, d.kp_id, d.title, d.source, d.complete, count(p.id) FROM documents d "
        "LEFT JOIN passages p ON p.doc_id = d.id GROUP BY d.id ORDER BY d.source, d.path"
    ).fetchall()
    docs = [
        {"path": p, "kp_id": k, "title": t, "source": s, "passages": n, "complete": bool(c)}
        for p, k, t, s, c, n in rows
    ]
    if app.json:
        output.emit_json({"epoch": opened.epoch.id, "documents": docs})
        return 0
    report_warnings(opened)
    for d in docs:
        mark = "" if d["complete"] else "  (vectors pending)"
        output.line(f"{output.safe_path(str(d['path']))}  {d['kp_id'] or '-'}  {d['passages']}p  {d['title']}{mark}")
    output.line(f"{len(docs)} document(s)")
    return 0
