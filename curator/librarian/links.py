"""The digest's links to notes, written as the vault writes its own, so Obsidian opens them.

A ``[[kp:01M8…|Title]]`` link resolves only in Curator: Obsidian reads ``kp:01M8…`` as a
file name and offers to create it. So a digest links each note by its path, in the
vault's own style:

- **wikilinks** (Obsidian's default): ``[[Daily/2026-12-04|Friday, 4 December 2026]]``,
  the path from the top of the vault without ``.md``, which Obsidian reads from the root
  ("absolute path in vault", one of its own link formats);
- **markdown links** when the vault writes those (``"useMarkdownLinks": true`` in
  ``.obsidian/app.json``, or, with no such setting, more markdown links than wikilinks in
  its notes): ``[Title](../Daily/2026-12-04.md)``, relative to the digest, spaces and
  brackets percent-encoded, as Obsidian writes them.

Each link is checked with Curator's own resolver (``curator.vault.resolve``, Obsidian's
rules) from the digest's folder: a wikilink whose path another note nearer the digest
would also answer, or whose path holds a character a wikilink cannot (``[ ] | # ^``), is
written as a markdown link, which names one file. The notes' kp_ids stay in the digest's
frontmatter (``digest.notes``), where Curator reads identities.
"""

from __future__ import annotations

import json
import os
import posixpath
from urllib.parse import quote

from curator.vault.resolve import Resolver

WIKILINK, MARKDOWN = "wikilink", "markdown"
APP_SETTINGS = ".obsidian/app.json"
_NOT_IN_WIKILINKS = frozenset("[]|#^\n\r")


def vault_style(root: str, wikilinks: int, markdown: int) -> str:
    """The vault's link style: Obsidian's ``useMarkdownLinks`` setting when the vault has one,
    else what its notes write most (``wikilinks`` and ``markdown`` links counted in the index;
    a tie, or none, is Obsidian's default, wikilinks)."""
    try:
        with open(os.path.join(root, *APP_SETTINGS.split("/")), "rb") as f:
            data = json.loads(f.read(1 << 20))
    except (OSError, ValueError):
        data = None
    setting = data.get("useMarkdownLinks") if isinstance(data, dict) else None
    if isinstance(setting, bool):
        return MARKDOWN if setting else WIKILINK
    return MARKDOWN if markdown > wikilinks else WIKILINK


class Linker:
    """Writes links from a note in ``folder`` (the digest directory) to notes of the vault."""

    def __init__(self, style: str, folder: str, resolver: Resolver | None) -> None:
        self.style = style
        self.folder = folder.strip("/")
        self.resolver = resolver
        self.source = posixpath.join(self.folder, "digest.md") if self.folder else "digest.md"

    def wikilink_target(self, path: str) -> str | None:
        """``path`` as a wikilink's target that Obsidian and Curator both read as that note, or None."""
        stem, ext = posixpath.splitext(path)
        target = stem if ext.lower() == ".md" else path
        if any(ch in _NOT_IN_WIKILINKS for ch in target) or target.startswith(("/", ".")):
            return None
        if self.resolver is not None:
            found = self.resolver.resolve_target(target, self.source)
            if found.path != path:
                return None
        return target

    def markdown_target(self, path: str) -> str:
        rel = posixpath.relpath(path, self.folder or ".")
        return quote(rel, safe="/")

    def link(self, path: str, label: str) -> str:
        """A link to the note at ``path`` showing ``label`` (already safe inside a link)."""
        if self.style == WIKILINK:
            target = self.wikilink_target(path)
            if target is not None:
                return f"[[{target}|{label}]]"
        return f"[{label}]({self.markdown_target(path)})"
