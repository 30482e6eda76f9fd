"""``curator status``: the serving epoch and how healthy it is."""

from __future__ import annotations

import json
import os

from curator import output
from curator.app import App


def collect(app: App) -> dict[str, object]:
    from curator.index import db
    from curator.index import epoch as epochs
    from curator.index.reader import open_serving

    opened = open_serving(app, refresh=False)
    c = opened.conn
    fp = db.get_json(c, "fingerprint")
    count = lambda sql: c.execute(sql).fetchone()[0]  # noqa: E731
    usage = json.loads(db.get_meta(c, "remote_usage") or '{"calls": 0, "tokens": 0}')
    size = sum(os.path.getsize(opened.epoch.path + s) for s in ("", "-wal") if os.path.exists(opened.epoch.path + s))
    data: dict[str, object] = {
        "index_dir": app.index_dir(),
        "epoch": opened.epoch.id,
        "fingerprint": fp,
        "embedder": epochs.describe(fp).split(",")[0],
        "documents": count("SELECT count(*) FROM documents"),
        "passages": count("SELECT count(*) FROM passages"),
        "embedded": count("SELECT count(*) FROM passages WHERE vec = 1"),
        "pending_embeddings": count("SELECT count(*) FROM passages WHERE vec = 0"),
        "lexical_only_secrets": count("SELECT count(*) FROM passages WHERE vec = 2"),
        "rejected_by_embedder": count("SELECT count(*) FROM passages WHERE vec = 3"),
        "incomplete_documents": count("SELECT count(*) FROM documents WHERE complete = 0"),
        "links": count("SELECT count(*) FROM links"),
        "unresolved_links": count("SELECT count(*) FROM links WHERE dst IS NULL"),
        "skipped_files": count("SELECT count(*) FROM skips"),
        "last_reconcile": db.get_meta(c, "last_reconcile"),
        "last_reconcile_seconds": float(db.get_meta(c, "last_reconcile_seconds") or 0),
        "remote_calls": usage["calls"],
        "remote_tokens_estimated": usage["tokens"],
        "bytes": size,
        "warnings": opened.warnings,
    }
    c.close()
    return data


def run(app: App) -> int:
    data = collect(app)
    if app.json:
        output.emit_json(data)
        return 0
    for w in data["warnings"]:
        output.warn(w)
    embedder = "embedder none: lexical search only" if data["embedder"] == "none" else data["embedder"]
    output.line(f"epoch      {data['epoch']}  ({embedder})")
    output.line(f"index      {data['index_dir']}  ({int(data['bytes']) / 1e6:.1f} MB)")
    output.line(f"documents  {data['documents']}  ({data['incomplete_documents']} awaiting vectors)")
    output.line(
        f"passages   {data['passages']}: {data['embedded']} embedded, {data['pending_embeddings']} pending, "
        f"{data['lexical_only_secrets']} lexical-only (secrets), {data['rejected_by_embedder']} refused"
    )
    output.line(
        f"links      {data['links']} ({data['unresolved_links']} unresolved); {data['skipped_files']} file(s) skipped"
    )
    output.line(f"reconciled {data['last_reconcile']} in {data['last_reconcile_seconds']:.2f}s")
    output.line(f"remote     {data['remote_calls']} embedding call(s), ~{data['remote_tokens_estimated']} tokens")
    return 0
