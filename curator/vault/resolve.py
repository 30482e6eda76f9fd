"""Resolving link targets to notes: kp_id, path, file stem, title, aliases (SPEC §1)."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass

from curator.vault.globs import matches
from curator.vault.identity import KP_ID_RE
from curator.vault.links import Link


@dataclass(frozen=True)
class Target:
    path: str
    kp_id: str | None
    title: str
    aliases: tuple[str, ...] = ()


def is_note_link(link: Link, include: tuple[str, ...]) -> bool:
    """False for links to attachments (images, PDFs): they are not edges between notes."""
    ext = posixpath.splitext(link.target)[1]
    if not ext or KP_ID_RE.match(link.target):
        return True
    return matches(link.target, include) or not (len(ext) <= 6 and ext[1:].isalnum())


class Resolver:
    """Looks targets up in precedence order; ties go to the shortest, then first path."""

    def __init__(
        self, notes: Iterable[Target], other_files: Iterable[str] = (), include: tuple[str, ...] = ("*.md",)
    ) -> None:
        self.include = include
        self.by_kp: dict[str, str] = {}
        self.by_path: dict[str, str] = {}
        self.by_stem: dict[str, str] = {}
        self.by_title: dict[str, str] = {}
        self.by_alias: dict[str, str] = {}
        self.files = set(other_files)
        self.file_names = {posixpath.basename(f) for f in self.files}
        for n in sorted(notes, key=lambda n: (len(n.path), n.path)):
            if n.kp_id:
                self.by_kp.setdefault(n.kp_id, n.path)
            self.by_path.setdefault(n.path.casefold(), n.path)
            self.by_path.setdefault(posixpath.splitext(n.path)[0].casefold(), n.path)
            self.by_stem.setdefault(posixpath.splitext(posixpath.basename(n.path))[0].casefold(), n.path)
            self.by_title.setdefault(n.title.casefold(), n.path)
            for a in n.aliases:
                self.by_alias.setdefault(a.casefold(), n.path)

    def is_note_target(self, link: Link) -> bool:
        return is_note_link(link, self.include)

    def resolve(self, link: Link) -> str | None:
        t = link.target
        if KP_ID_RE.match(t) and t in self.by_kp:
            return self.by_kp[t]
        key = t.casefold()
        if link.kind == "markdown":
            return self.by_path.get(key)
        for table in (self.by_path, self.by_stem, self.by_title, self.by_alias):
            hit = table.get(key)
            if hit:
                return hit
        return None

    def attachment_exists(self, link: Link) -> bool:
        return link.target in self.files or posixpath.basename(link.target) in self.file_names
