"""``curator status``: the serving epoch and how healthy it is."""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from curator import clock, output
from curator.commands.app import App
from curator.index import db, reading
from curator.index.derived import counts as derived_counts


def collect(app: App) -> dict[str, Any]:
    from curator.index import epoch as epochs
    from curator.index.serving import open_serving

    opened = open_serving(*app.place(), refresh=False)
    c = opened.conn
    try:
        fp = reading.fingerprint(c)
        counts = reading.counts(c)
        calls, tokens = reading.remote_usage(c)
        last, seconds = reading.last_reconcile(c)
        withheld = reading.withheld(c)
        sources = derived_counts(c)
        rate = db.embed_rate(c)
    finally:
        c.close()
    pending = counts.pending_embeddings
    eta = round(pending / rate) if pending and rate else None
    size = sum(os.path.getsize(opened.epoch.path + s) for s in ("", "-wal") if os.path.exists(opened.epoch.path + s))
    return {
        "index_dir": app.index_dir(),
        "epoch": opened.epoch.id,
        "fingerprint": fp,
        "embedder": epochs.describe(fp).split(",")[0],
        **dataclasses.asdict(counts),
        "embed_rate": rate,
        "pending_eta_seconds": eta,
        "last_reconcile": last,
        "last_reconcile_seconds": seconds,
        "remote_calls": calls,
        "remote_tokens_estimated": tokens,
        "withheld": withheld,
        "sources": sources,
        "bytes": size,
        "warnings": output.texts(opened.warnings),
    }


def _kinds(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in counts.items())


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
    sources: dict[str, int] = data["sources"]
    if sources:
        output.line("sources    " + ", ".join(f"{name} {n} item(s)" for name, n in sources.items()))
    eta = data["pending_eta_seconds"]
    pending = f"{data['pending_embeddings']} pending"
    if eta is not None:
        pending += f" (about {clock.duration(int(eta))} at {data['embed_rate']:.0f} passages/s)"
    output.line(
        f"passages   {data['passages']}: {data['embedded']} embedded, {pending}, "
        f"{data['lexical_only_secrets']} lexical-only (secrets), {data['rejected_by_embedder']} refused"
    )
    output.line(
        f"links      {data['links']} ({data['unresolved_links']} unresolved); {data['skipped_files']} file(s) skipped"
    )
    if data["last_reconcile"] is None:  # the epoch serves words before its first reconcile ends
        output.line("reconciled not yet to the end: a first index is running or was stopped (`curator index` goes on)")
    else:
        output.line(f"reconciled {data['last_reconcile']} in {data['last_reconcile_seconds']:.2f}s")
    output.line(f"remote     {data['remote_calls']} embedding call(s), ~{data['remote_tokens_estimated']} tokens")
    withheld: dict[str, dict[str, int]] = data["withheld"]
    if withheld["passages"] or withheld["queries"]:
        parts = []
        if withheld["passages"]:
            parts.append(f"passages: {_kinds(withheld['passages'])}")
        if withheld["queries"]:
            parts.append(f"queries: {_kinds(withheld['queries'])}")
        output.line(f"withheld   from the remote embedder (secrets): {'; '.join(parts)}")
    return 0
