"""``curator relate REF``: links, backlinks, unresolved links and one-hop neighbours of a
note, of a source item (``curator relate zotero:KEY``: the notes that cite it), or of an
attachment (``curator relate paper.pdf``: the notes that link or embed it)."""

from __future__ import annotations

import dataclasses
from typing import Any

from curator import output
from curator.commands.app import App
from curator.commands.read import attachment, resolve_ref_with_others, say_others, source_item
from curator.errors import NotFound
from curator.index import attached, reading
from curator.index.db import ATTACHMENT, VAULT
from curator.index.neighbours import reason
from curator.index.refs import why_not_a_note
from curator.output import Notice
from curator.vault.links import extract
from curator.vault.note import NotANote, parse


def collect(app: App, ref: str) -> tuple[dict[str, Any], list[Notice]]:
    from curator.index.serving import open_serving

    found = attachment(app, ref)
    if found is not None:
        opened = open_serving(*app.place(), refresh=False)
        try:
            rel = attached.relations(opened.conn, found.path)
        finally:
            opened.conn.close()
        assert rel is not None
        return dataclasses.asdict(rel) | {"source": ATTACHMENT}, opened.warnings
    item = source_item(app, ref)
    others: list[str] = []
    if item is not None:
        path, source = item.ref, item.source
    else:
        (path, others), source = resolve_ref_with_others(app, ref), VAULT
        if not app.json:
            say_others(ref, path, others)
    opened = open_serving(*app.place())
    try:
        rel = reading.relations(opened.conn, path, source=source)
    finally:
        opened.conn.close()
    if rel is None:
        raise NotFound(f"{path} is not in the index", hint="run `curator index`")
    data = dataclasses.asdict(rel)
    for key in ("links", "backlinks"):
        for row, linked in zip(data[key], getattr(rel, key), strict=True):
            row["anchor_missing"] = linked.anchor_missing
    if others:
        data["candidates"] = others
    return data, opened.warnings


def _as_written(app: App, path: str) -> dict[tuple[int, str, str], str]:
    """Each link of the note at ``path`` as its text writes it (``[bad](No%20Such.md)``), by
    line, kind and target; empty when the note cannot be read as a note of the vault."""

    vault = app.vault()
    if why_not_a_note(vault, app.settings(), path) is not None:
        return {}
    try:
        with open(vault.abspath(path), "rb") as f:
            note = parse(path, f.read())
    except (OSError, NotANote):
        return {}
    return {(link.line, link.kind, link.target): link.raw for link in extract(note.body, note.body_line)}


def run(app: App, ref: str) -> int:
    data, warnings = collect(app, ref)
    if app.json:
        output.emit_json(data)
        return 0
    output.tell(warnings)
    ident = "" if data["kp_id"] == data["path"] else f"  {data['kp_id'] or '(no kp_id)'}"
    if data.get("source") == ATTACHMENT:
        ident = "  (attachment)"
    output.line(f"{output.safe_path(data['path'])}{ident}  {data['title']}")
    # A link's line is in the note that holds it: "line N →" for this note's own links,
    # path:line for the notes linking here.
    output.line(f"links to ({len(data['links'])}):")
    for n in data["links"]:
        where = output.safe_path(n["path"]) + (f":{n['target_line']}" if n["target_line"] else "")
        anchor = f" #{n['anchor']}" if n["anchor"] else ""
        if n["anchor_missing"]:
            anchor += (
                f" (no such {'block' if n['anchor'].startswith('^') else 'heading'} in {output.safe_path(n['path'])})"
            )
        also = f"  (also named: {', '.join(map(output.safe_path, n['candidates']))})" if n["candidates"] else ""
        output.line(f"  line {n['line']} → {where}{anchor}  {n['title']}{also}")
    output.line(f"linked from ({len(data['backlinks'])}):")
    for n in data["backlinks"]:
        # An attachment's backlink names the page it opens at (![[paper.pdf#page=3]]).
        page = f"  #{n['anchor']}" if n["anchor"] and data.get("source") == ATTACHMENT else ""
        output.line(f"  {output.safe_path(n['path'])}:{n['line']}  {n['title']}{page}")
    output.line(f"unresolved ({len(data['unresolved'])}):")
    written = _as_written(app, data["path"]) if data["unresolved"] and data["kp_id"] != data["path"] else {}
    for u in data["unresolved"]:
        shown = written.get((u["line"], u["kind"], u["target"]))
        if shown is None:
            shown = f"[]({u['target']})" if u["kind"] == "markdown" else f"[[{u['target']}]]"
        output.line(f"  line {u['line']}: {shown}")
    output.line(f"neighbours ({len(data['neighbours'])}):")
    for n in data["neighbours"]:
        why = output.safe_path(reason(n["via"]))
        output.line(f"  {output.safe_path(n['path'])}  {n['title']}  (weight {n['weight']:.2f}: {why})")
    return 0
