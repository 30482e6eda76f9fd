"""``curator new TITLE``: a note with a minted ``kp:`` identity."""

from __future__ import annotations

import os
import re
import unicodedata

from curator import clock, output
from curator.commands.app import App
from curator.errors import UsageError
from curator.unsafe import first_unsafe
from curator.vault import frontmatter
from curator.vault.identity import mint
from curator.vault.paths import note_refusal, same_file_key, symlink_on_path

SLUG_BYTES = 200
"""A file name's stem at most: room for ``-2.md`` and the like under the 255 bytes a name may have."""


def slug(title: str) -> str:
    text = unicodedata.normalize("NFC", title).strip().lower()
    text = re.sub(r"[^\w\s-]", "", text)
    text = re.sub(r"[\s_-]+", "-", text).strip("-")
    text = text[:80]
    while len(text.encode("utf-8")) > SLUG_BYTES:  # 80 CJK characters are 240 bytes: names stop at 255
        text = text[:-1]
    return text.rstrip("-") or "note"


def run(app: App, title: str, folder: str) -> int:
    if not title.strip() or first_unsafe(title) is not None:
        raise UsageError("the title must be non-empty text on one line")
    vault = app.vault()
    folder = folder.strip().strip("/")
    parts = [p for p in folder.split("/") if p]
    # The note's own path is judged as every surface judges a note's path: a folder that
    # climbs out, reads as .git on some system, is .kp/ or is kept out is no place for one.
    refusal = note_refusal("/".join([*parts, "note.md"]), app.settings())
    if os.path.isabs(folder) or (refusal is not None and refusal.kind in ("escape", "curator", "excluded")):
        why = refusal.reason if refusal is not None else "it is absolute"
        raise UsageError(f"--dir must be a folder inside the vault where notes go, not {folder!r} ({why})")
    target_dir = os.path.join(vault.root, *parts)

    through = symlink_on_path(vault.root, "/".join(parts)) if parts else None
    if through or (os.path.exists(target_dir) and not os.path.isdir(target_dir)):
        raise UsageError(f"--dir {folder!r} is not a plain folder in the vault")
    os.makedirs(target_dir, exist_ok=True)
    base = slug(title)
    name, n = f"{base}.md", 2
    # Compared without case: `Kochen.md` and `kochen.md` are one file on macOS and Windows,
    # and two notes a link cannot tell apart everywhere else.
    taken = {same_file_key(e) for e in os.listdir(target_dir)} if os.path.isdir(target_dir) else set()
    while same_file_key(name) in taken or os.path.lexists(os.path.join(target_dir, name)):
        name, n = f"{base}-{n}.md", n + 1
    kp_id = mint()
    created = clock.iso()
    text = frontmatter.update(f"# {title.strip()}\n\n", {"kp_id": kp_id, "title": title.strip(), "created": created})
    path = os.path.join(target_dir, name)
    with open(path, "x", encoding="utf-8", newline="\n") as f:
        f.write(text)
    rel = vault.relpath(path)
    if app.json:
        output.emit_json({"path": rel, "kp_id": kp_id, "title": title.strip()})
    else:
        output.line(f"{rel}  {kp_id}")
    return 0
