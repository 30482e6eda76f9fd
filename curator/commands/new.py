"""``curator new TITLE``: a note with a minted ``kp:`` identity."""

from __future__ import annotations

import os
import re
import unicodedata

from curator import clock, output
from curator.commands.app import App
from curator.errors import UsageError
from curator.vault import frontmatter
from curator.vault.identity import mint
from curator.vault.paths import symlink_on_path


def slug(title: str) -> str:
    text = unicodedata.normalize("NFC", title).strip().lower()
    text = re.sub(r"[^\w\s-]", "", text)
    text = re.sub(r"[\s_-]+", "-", text).strip("-")
    return text[:80].rstrip("-") or "note"


def run(app: App, title: str, folder: str) -> int:
    if not title.strip() or any(ord(c) < 32 for c in title):
        raise UsageError("the title must be non-empty text on one line")
    vault = app.vault()
    folder = folder.strip().strip("/")
    parts = [p for p in folder.split("/") if p]
    if any(p in ("..", ".", ".git", ".kp") for p in parts) or os.path.isabs(folder):
        raise UsageError(f"--dir must be a folder inside the vault, not {folder!r}")
    target_dir = os.path.join(vault.root, *parts)

    through = symlink_on_path(vault.root, "/".join(parts)) if parts else None
    if through or (os.path.exists(target_dir) and not os.path.isdir(target_dir)):
        raise UsageError(f"--dir {folder!r} is not a plain folder in the vault")
    os.makedirs(target_dir, exist_ok=True)
    base = slug(title)
    name, n = f"{base}.md", 2
    # Compared without case: `Kochen.md` and `kochen.md` are one file on macOS and Windows,
    # and two notes a link cannot tell apart everywhere else.
    taken = {e.casefold() for e in os.listdir(target_dir)} if os.path.isdir(target_dir) else set()
    while name.casefold() in taken or os.path.lexists(os.path.join(target_dir, name)):
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
