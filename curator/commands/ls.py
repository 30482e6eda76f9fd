"""``curator ls``: the documents in the index."""

from __future__ import annotations

from curator import output
from curator.commands.app import App
from curator.index import reading


def run(app: App) -> int:
    from curator.index.serving import open_serving

    opened = open_serving(*app.place())
    docs = reading.documents(opened.conn)
    opened.conn.close()
    if app.json:
        output.emit_json(
            {
                "epoch": opened.epoch.id,
                "documents": [
                    {
                        "path": d.path,
                        "kp_id": d.kp_id,
                        "title": d.title,
                        "source": d.source,
                        "passages": d.passages,
                        "complete": d.complete,
                    }
                    for d in docs
                ],
            }
        )
        return 0
    output.tell(opened.warnings)
    for d in docs:
        mark = "" if d.complete else "  (vectors pending)"
        output.line(f"{output.safe_path(d.path)}  {d.kp_id or '-'}  {d.passages}p  {d.title}{mark}")
    output.line(f"{len(docs)} document(s)")
    return 0
