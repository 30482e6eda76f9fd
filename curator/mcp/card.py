"""The index card: a small, deterministic table of contents of the vault for an agent.

Counts, folders, top tags, recent notes, the embedder and the epoch; nothing that
changes while the vault does not (no clock, no reconcile time), so the card is
byte-identical until a note changes. It is cut to a byte budget (4 KB by default)
by dropping whole rows from the longest lists first, never mid-line.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import apsw

from curator.index import reading

LIMIT = 4096


def _folders(paths: list[str]) -> list[tuple[str, int]]:
    counts: Counter[str] = Counter()
    for path in paths:
        top = path.split("/", 1)[0] + "/" if "/" in path else "(top level)"
        counts[top] += 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def facts(conn: apsw.Connection, epoch: str) -> dict[str, Any]:
    counts = reading.counts(conn)
    fp = reading.fingerprint(conn)
    emb = fp["embedder"]
    embedder = "none (lexical search only)" if emb["provider"] == "none" else f"{emb['provider']}:{emb['model']}"
    paths = reading.vault_paths(conn)
    tags = reading.tag_counts(conn, 40)
    spellings = reading.tag_spellings(conn, [t for t, _ in tags])
    return {
        "epoch": epoch,
        "embedder": embedder,
        "notes": len(paths),
        "documents": counts.documents,
        "passages": counts.passages,
        "links": counts.links,
        "unresolved_links": counts.unresolved_links,
        "folders": [{"folder": f, "notes": n} for f, n in _folders(paths)],
        "tags": [{"tag": t, "notes": n, "spellings": spellings.get(t, [])} for t, n in tags],
        "recent": [
            {"path": r.path, "kp_id": r.kp_id, "title": r.title, "date": r.date} for r in reading.recent(conn, 30)
        ],
    }


def render(data: dict[str, Any]) -> str:
    lines = [
        "# Index card",
        f"epoch {data['epoch']}; embedder {data['embedder']}",
        f"{data['notes']} notes ({data['documents']} documents), {data['passages']} passages, "
        f"{data['links']} links ({data['unresolved_links']} unresolved)",
    ]
    if data["folders"]:
        lines += ["", "## Folders", *(f"- {f['folder']} {f['notes']}" for f in data["folders"])]
    if data["tags"]:
        lines += ["", "## Top tags", ", ".join(f"#{t['tag']} {t['notes']}" for t in data["tags"])]
    if data["recent"]:
        lines += ["", "## Recent notes"]
        for r in data["recent"]:
            when = (r["date"] or "undated")[:10]
            ident = f" ({r['kp_id']})" if r["kp_id"] else ""
            lines.append(f"- {when} {r['path']} — {r['title']}{ident}")
    return "\n".join(lines) + "\n"


def fit(data: dict[str, Any], limit: int = LIMIT, wrap: Any = None) -> tuple[dict[str, Any], str]:
    """Drop rows (recent notes, then tags, then folders) until the rendered card fits ``limit``
    bytes, measured after ``wrap`` (the frame and redaction) when given."""
    data = {**data, "folders": list(data["folders"]), "tags": list(data["tags"]), "recent": list(data["recent"])}
    omitted = {"folders": 0, "tags": 0, "recent": 0}

    def text() -> str:
        body = render(data)
        if any(omitted.values()):
            body += "(" + ", ".join(f"{n} more {k}" for k, n in omitted.items() if n) + " not shown)\n"
        return wrap(body) if wrap else body

    out = text()
    while len(out.encode("utf-8")) > limit:
        key = max(("recent", "tags", "folders"), key=lambda k: (len(data[k]), k == "recent"))
        if not data[key]:
            break
        data[key].pop()
        omitted[key] += 1
        out = text()
    data["omitted"] = omitted
    return data, out
