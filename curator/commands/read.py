"""``curator read REF``: a note of the vault with line numbers, paged; or a source item
(``zotero:KEY``, ``jsonl:NAME/ID``) or an attachment (``paper.pdf``, page by page), from the
text the index holds for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from curator import output
from curator.commands.app import App
from curator.errors import CuratorError, NotFound, UsageError
from curator.index import attached, derived, reading, refs
from curator.index.refs import why_not_a_note

if TYPE_CHECKING:
    from curator.index.attached import AttachmentPage
    from curator.index.derived import ItemPage


def resolve_ref(app: App, ref: str) -> str:
    """The vault path of the note ``ref`` names (kp_id, path, title or alias); vault notes only."""
    return resolve_ref_with_others(app, ref)[0]


def resolve_ref_with_others(app: App, ref: str) -> tuple[str, list[str]]:
    """The vault path of the note ``ref`` names, and the other notes it also names (a file
    name several folders hold): the one link resolver picks the nearest the top of the vault."""

    vault, settings = app.vault(), app.settings()
    # A path typed here means what it means in every command: a file relative to the
    # current folder inside the vault, else relative to the vault root.
    ref = vault.user_path(ref) if ref.strip() else ref
    try:
        from curator.index.serving import open_serving

        conn = open_serving(*app.place()).conn
    except CuratorError:  # no index (or a broken one): only paths can be read
        return refs.resolve(vault, settings, ref, None), []
    try:
        return refs.resolve_with_others(vault, settings, ref, conn)
    finally:
        conn.close()


def source_item(app: App, ref: str, page: int = 1) -> ItemPage | None:
    """The source item ``ref`` names exactly by its reference, if the index holds one.

    Only a namespaced reference other than a note's own (``kp:``) is looked up, and only
    when no note of the vault has that path: a note always wins."""

    if not derived.looks_like_item_ref(ref):
        return None
    from curator.index.serving import open_serving

    if why_not_a_note(app.vault(), app.settings(), ref.removeprefix("./")) is None:
        return None
    try:
        conn = open_serving(*app.place(), refresh=False).conn
    except CuratorError:
        return None
    try:
        if reading.lookup(conn, ref):
            return None  # a note of the vault answers it (a note may carry an item's id)
        return derived.read_page(conn, ref, page)
    finally:
        conn.close()


def attachment(app: App, ref: str, page: int = 1) -> AttachmentPage | None:
    """The attachment ``ref`` names by its path (``papers/x.pdf``; ``papers/x.pdf#page=3``, as a
    hit cites it, for that page), when the index holds its text."""

    named = attached.page_ref(ref)
    if named is None:
        return None  # only a file an extractor reads can be one: a note's read opens no index
    path, asked = named
    from curator.index.serving import open_serving

    try:
        conn = open_serving(*app.place()).conn
    except CuratorError:
        return None
    try:
        where = app.vault().user_path(path)
        got = attached.read_page(conn, where, asked or page)
        if got is None and (why := attached.refused(conn, where)) is not None:
            raise UsageError(f"{where} has no text in the index: {why}")
        return got
    finally:
        conn.close()


def show_attachment(app: App, got: AttachmentPage) -> None:
    if app.json:
        output.emit_json(got.to_json())
        return
    kind = f"page {got.page}/{got.pages}" if got.paged else f"part {got.page}/{got.pages}"
    output.line(f"{output.safe_path(got.path)}  {got.title}  {kind}")
    output.line(f"text of a {got.type.upper()} attachment, read by {got.extractor}")
    for note in got.notes:
        output.note(note)
    width = len(str(max(got.end_line, got.start_line)))
    for i, text in enumerate(got.lines):
        output.line(f"{got.start_line + i:>{width}}  {text}")


def say_others(ref: str, path: str, others: list[str]) -> None:
    if others:
        output.note(f"{ref!r} also names {', '.join(map(output.safe_path, others))}; this is {output.safe_path(path)}")


def _resolve_with_anchor(app: App, ref: str) -> tuple[str, list[str], str | None]:
    """``ref``'s note, the others it names, and the ``#Heading`` or ``#^block`` after it, if
    any: ``Sleep#Tips`` reads as the link ``[[Sleep#Tips]]`` does (a name holding ``#`` wins)."""
    try:
        return (*resolve_ref_with_others(app, ref), None)
    except NotFound:
        base, sep, anchor = ref.partition("#")
        if not sep or not base.strip() or not anchor.strip("# "):
            raise
    path, others = resolve_ref_with_others(app, base)
    return path, others, anchor.strip()


def run(app: App, ref: str, page: int) -> int:
    if page < 1:
        raise UsageError("--page starts at 1")
    item = source_item(app, ref, page)
    if item is not None:
        if app.json:
            output.emit_json(item.to_json())
            return 0
        output.line(f"{item.ref}  {item.title}  page {item.page}/{item.pages}")
        output.line(f"from source {item.source} ({item.type}){f'  {item.link}' if item.link else ''}")
        width = len(str(item.end_line))
        for i, text in enumerate(item.lines):
            output.line(f"{item.start_line + i:>{width}}  {text}")
        return 0
    found = attachment(app, ref, page)
    if found is not None:
        show_attachment(app, found)
        return 0
    path, others, anchor = _resolve_with_anchor(app, ref)
    got = refs.read_page(app.vault(), path, page, anchor=anchor)
    if app.json:
        data = got.to_json()
        if others:
            data["candidates"] = others
        output.emit_json(data)
        return 0
    say_others(ref, path, others)
    output.line(f"{output.safe_path(got.path)}  {got.kp_id or '(no kp_id)'}  page {got.page}/{got.pages}")
    width = len(str(got.end_line))
    for i, text in enumerate(got.lines):
        # A CRLF note's lines end in a carriage return: the line ending, not text to show escaped
        # (``--json`` keeps it, so lines joined again give the file back).
        output.line(f"{got.start_line + i:>{width}}  {text.removesuffix(chr(13))}")
    return 0
