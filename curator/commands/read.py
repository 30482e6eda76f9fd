"""``curator read REF``: a note of the vault with line numbers, paged."""

from __future__ import annotations

from curator import output
from curator.app import App
from curator.errors import CuratorError


def resolve_ref(app: App, ref: str) -> str:
    """The vault path of the note ``ref`` names (kp_id, path, title or alias); vault notes only."""
    from curator.index import refs

    vault, settings = app.vault(), app.settings()
    try:
        from curator.index.reader import open_serving

        conn = open_serving(app).conn
    except CuratorError:  # no index (or a broken one): only paths can be read
        return refs.resolve(vault, settings, ref, None)
    try:
        return refs.resolve(vault, settings, ref, conn)
    finally:
        conn.close()


def run(app: App, ref: str, page: int) -> int:
    from curator.errors import UsageError
    from curator.index import refs

    if page < 1:
        raise UsageError("--page starts at 1")
    path = resolve_ref(app, ref)
    got = refs.read_page(app.vault(), path, page)
    if app.json:
        data = got.to_json()
        output.emit_json(data)
        return 0
    output.line(f"{output.safe_path(got.path)}  {got.kp_id or '(no kp_id)'}  page {got.page}/{got.pages}")
    width = len(str(got.end_line))
    for i, text in enumerate(got.lines):
        output.line(f"{got.start_line + i:>{width}}  {text}")
    return 0
