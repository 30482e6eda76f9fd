"""The one link resolver: doctor, the index, ``read`` and ``relate`` all ask it (SPEC §1).

It follows Obsidian's rules, case-insensitively, in this order:

1. a ``kp_id`` (``[[kp:01J…]]``, ``[[zotero:KEY]]``);
2. a path relative to the linking note, when the link is a markdown link or starts with
   ``./`` or ``../``; from the top of the vault when it starts with ``/``; with or
   without the extension;
3. a file name, or a folder-qualified name matched as a path suffix
   (``[[Folder/Note]]`` matches ``Folder/Note.md`` and ``any/Folder/Note.md``); a dotted
   name is a note's name when such a note exists (``[[scrybble.ink]]`` is
   ``scrybble.ink.md``);
4. a frontmatter alias;
5. a title, and only when nothing above matched (doctor reports such links: a rename
   of the file would leave them pointing elsewhere without anyone noticing).

Within a rule, several notes can match. The nearest to the linking note wins: one in
the same folder, else the fewest folder steps away (on a tie, the one reached with
fewer steps up: a note inside the linking note's part of the tree before one outside
it), then the shorter path, then the one whose case matches exactly, then path order. The others are kept as
``candidates`` so ``read`` and ``relate`` can say the link was ambiguous.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass

from curator.vault.globs import matches
from curator.vault.identity import KP_ID_RE
from curator.vault.links import Link, is_attachment

BY_KP_ID, BY_PATH, BY_NAME, BY_ALIAS, BY_TITLE = "kp_id", "path", "name", "alias", "title"


@dataclass(frozen=True)
class Target:
    path: str
    kp_id: str | None
    title: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Resolution:
    path: str | None
    """The note the link points at; None when it names no note."""
    how: str = ""
    """Which rule matched: kp_id, path, name, alias or title."""
    candidates: tuple[str, ...] = ()
    """Every note the winning rule matched, nearest first (the winner is the first)."""
    why: str = ""
    """For an unresolved link, what it names instead, when known (a folder)."""

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1


def is_note_link(link: Link, include: tuple[str, ...] = ("*.md",)) -> bool:
    """False for links to attachments (images, PDFs, ...): they are not edges between notes."""
    if KP_ID_RE.match(link.target) or matches(link.target, include):
        return True
    return not is_attachment(link.target)


def _dir_parts(path: str) -> list[str]:
    d = posixpath.dirname(path)
    return d.split("/") if d else []


def _steps(source_dir: list[str], path: str) -> tuple[int, int]:
    """Folder steps from the linking note's folder to ``path``'s, and how many of them go up."""
    target = _dir_parts(path)
    common = 0
    for a, b in zip(source_dir, target, strict=False):
        if a != b:
            break
        common += 1
    up = len(source_dir) - common
    return up + (len(target) - common), up


def _add(table: dict[str, list[str]], key: str, path: str) -> None:
    table.setdefault(key, []).append(path)


def _without_dots(path: str) -> str:
    """``path`` without leading ``./`` and ``../`` segments: what is left to match as a suffix."""
    while path.startswith(("./", "../")):
        path = path.split("/", 1)[1]
    return path


class Resolver:
    def __init__(
        self, notes: Iterable[Target], other_files: Iterable[str] = (), include: tuple[str, ...] = ("*.md",)
    ) -> None:
        self.include = include
        self.by_kp: dict[str, list[str]] = {}
        self.by_path: dict[str, list[str]] = {}
        self.by_name: dict[str, list[str]] = {}
        self.by_alias: dict[str, list[str]] = {}
        self.by_title: dict[str, list[str]] = {}
        self.folders: set[str] = set()
        self.files: set[str] = set()
        self.file_names: set[str] = set()
        for n in notes:
            if n.kp_id:
                _add(self.by_kp, n.kp_id, n.path)
            path = n.path.casefold()
            stem_path = posixpath.splitext(path)[0]
            _add(self.by_path, path, n.path)
            if stem_path != path:
                _add(self.by_path, stem_path, n.path)
            name = posixpath.basename(path)
            _add(self.by_name, name, n.path)
            stem = posixpath.splitext(name)[0]
            if stem != name:
                _add(self.by_name, stem, n.path)
            for a in dict.fromkeys(a.strip().casefold() for a in n.aliases):
                if a:
                    _add(self.by_alias, a, n.path)
            if n.title.strip():
                _add(self.by_title, n.title.strip().casefold(), n.path)
            parts = _dir_parts(path)
            for i in range(1, len(parts) + 1):
                self.folders.add("/".join(parts[:i]))
        for f in other_files:
            self.files.add(f.casefold())
            self.file_names.add(posixpath.basename(f).casefold())
            parts = _dir_parts(f.casefold())
            for i in range(1, len(parts) + 1):
                self.folders.add("/".join(parts[:i]))

    def is_note_target(self, link: Link) -> bool:
        return is_note_link(link, self.include)

    def attachment_exists(self, link: Link, source: str = "") -> bool:
        t = link.target.casefold().lstrip("/")
        if t in self.files:
            return True
        rel = posixpath.normpath(posixpath.join(posixpath.dirname(source.casefold()), t))
        if rel in self.files:
            return True
        if "/" in t:
            return any(f == t or f.endswith("/" + t) for f in self.files)
        return posixpath.basename(t) in self.file_names

    def resolve(self, link: Link, source: str = "") -> Resolution:
        """Where ``link``, written in the note at ``source``, points."""
        return self.resolve_target(link.target, source, relative=link.kind == "markdown")

    def resolve_target(self, target: str, source: str = "", *, relative: bool = False) -> Resolution:
        t = target.strip()
        if not t:
            return Resolution(None)
        if KP_ID_RE.match(t) and t in self.by_kp:
            return self._pick(self.by_kp[t], source, t, BY_KP_ID)
        key = t.casefold()
        src_dir = posixpath.dirname(source)
        if relative or key.startswith(("./", "../")):
            rel = posixpath.normpath(posixpath.join(src_dir.casefold(), key))
            if not rel.startswith("../") and rel in self.by_path:
                return self._pick(self.by_path[rel], source, t, BY_PATH)
        absolute = posixpath.normpath(key.lstrip("/")) if key.strip("/") else ""
        if key.startswith("/") and absolute in self.by_path:
            return self._pick(self.by_path[absolute], source, t, BY_PATH)
        # A path from the top of the vault is one more suffix match: in a vault of
        # language folders [[setup/install]] means this language's setup/install.
        suffix = _without_dots(absolute)
        name = posixpath.basename(suffix)
        if name in self.by_name:
            found = self.by_name[name]
            if "/" in suffix:
                tail = "/" + suffix
                found = [
                    p
                    for p in found
                    if ("/" + p.casefold()).endswith(tail) or ("/" + posixpath.splitext(p.casefold())[0]).endswith(tail)
                ]
            if found:
                return self._pick(found, source, t, BY_NAME)
        if key in self.by_alias:
            return self._pick(self.by_alias[key], source, t, BY_ALIAS)
        if key in self.by_title:
            return self._pick(self.by_title[key], source, t, BY_TITLE)
        if absolute.rstrip("/") in self.folders or suffix.rstrip("/") in self.folders:
            return Resolution(None, why="folder")
        return Resolution(None)

    def _pick(self, paths: list[str], source: str, written: str, how: str) -> Resolution:
        unique = list(dict.fromkeys(paths))
        if len(unique) == 1:
            return Resolution(unique[0], how, (unique[0],))
        src = _dir_parts(source)
        name = posixpath.basename(written)

        def nearness(p: str) -> tuple[int, int, int, bool, str]:
            stem = posixpath.splitext(posixpath.basename(p))[0]
            exact = stem == name or posixpath.basename(p) == name
            steps, up = _steps(src, p)
            return (steps, up, len(p), not exact, p)

        ranked = tuple(sorted(unique, key=nearness))
        return Resolution(ranked[0], how, ranked)
