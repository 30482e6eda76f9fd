"""``curator read REF``: a note with line numbers, paged; from the vault, found via the index."""

from __future__ import annotations

import math
import os

from curator import output
from curator.app import App
from curator.errors import CuratorError, NotFound, UsageError

PAGE_LINES = 200


def resolve_ref(app: App, ref: str) -> str:
    """A vault path for a kp_id, path, title or alias; the vault itself is the fallback."""
    vault = app.vault()
    candidate = ref.removeprefix("./")
    if os.path.isfile(vault.abspath(candidate)) and not os.path.islink(vault.abspath(candidate)):
        return candidate
    try:
        from curator.index.reader import open_serving

        opened = open_serving(app)
    except CuratorError:  # no index (or a broken one): only paths can be read
        raise NotFound(
            f"no note {ref!r}", hint="give a path, or run `curator index` to look up kp_ids and titles"
        ) from None
    row = opened.conn.execute(
        "SELECT d.path FROM doc_keys k JOIN documents d ON d.id = k.doc_id WHERE k.key = ? AND d.source = 'vault' "
        "ORDER BY k.rank, d.path LIMIT 1",
        (ref.casefold(),),
    ).fetchone()
    opened.conn.close()
    if row is None:
        raise NotFound(f"no note {ref!r} (by kp_id, path, file name, title or alias)")
    return str(row[0])


def run(app: App, ref: str, page: int) -> int:
    from curator.index.documents import git_blob_id
    from curator.vault.note import NotANote, parse

    if page < 1:
        raise UsageError("--page starts at 1")
    vault = app.vault()
    path = resolve_ref(app, ref)
    try:
        with open(vault.abspath(path), "rb") as f:
            raw = f.read()
        note = parse(path, raw)
    except FileNotFoundError:
        raise NotFound(f"{path} is in the index but not in the vault any more", hint="run `curator index`") from None
    except NotANote as e:
        raise NotFound(f"{path} is not a readable note: {e.reason}") from None
    lines = note.text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    pages = max(1, math.ceil(len(lines) / PAGE_LINES))
    if page > pages:
        raise UsageError(f"{path} has {pages} page(s)")
    start = (page - 1) * PAGE_LINES
    chunk = lines[start : start + PAGE_LINES]
    if app.json:
        output.emit_json(
            {
                "path": path,
                "kp_id": note.kp_id,
                "title": note.title,
                "blob": git_blob_id(raw),
                "frontmatter": note.meta,
                "page": page,
                "pages": pages,
                "start_line": start + 1,
                "end_line": start + len(chunk),
                "lines": [{"n": start + i + 1, "text": t} for i, t in enumerate(chunk)],
            }
        )
        return 0
    output.line(f"{path}  {note.kp_id or '(no kp_id)'}  page {page}/{pages}")
    width = len(str(start + len(chunk)))
    for i, text in enumerate(chunk):
        output.line(f"{start + i + 1:>{width}}  {text}")
    return 0
