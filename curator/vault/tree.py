"""The vault's files as git sees them: which are notes, and why the rest are skipped.

A note is a regular file matched by the include globs that git tracks or would
track. Everything else under the work tree is skipped and named with a reason.
The walk itself is a plain ``os.scandir`` stat walk; asking git which paths are
ignored is a separate step (``GitView``) so that a caller that already knows the
answer (the index, for an unchanged vault) never imports pygit2.
"""

from __future__ import annotations

import os
import stat as statmod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from curator.vault.globs import compile_globs
from curator.vault.paths import CURATOR_DIR, note_refusal, same_file_key

if TYPE_CHECKING:
    from curator.settings import Settings
    from curator.vault.discover import Vault



@dataclass(frozen=True, slots=True)
class FileStat:
    path: str
    """Vault-relative POSIX path."""
    size: int
    mtime_ns: int


@dataclass(frozen=True, slots=True)
class Skip:
    path: str
    reason: str
    size: int = -1
    mtime_ns: int = -1


@dataclass
class Walk:
    files: list[FileStat]
    """Regular files, not yet classified."""
    skips: list[Skip]
    """What the walk itself set aside: symlinks, nested repositories, unreadable folders."""
    dirs: list[str]
    """Every folder visited, vault-relative ('' is the top)."""
    pruned: list[str]
    """Folders not entered because they are ignored (given by the caller's predicate)."""


def _symlink_reason(root_real: str, full: str) -> str:
    try:
        target = os.stat(full)  # follows the link
    except OSError as e:
        if e.errno == 40:  # ELOOP
            return "symlink loop"
        return "broken symlink"
    real = os.path.realpath(full)
    if not (real == root_real or real.startswith(root_real + os.sep)):
        return "symlink to a path outside the vault"
    kind = "folder" if statmod.S_ISDIR(target.st_mode) else "file"
    return f"symlink to a {kind} inside the vault (not followed; notes are regular files)"


def walk(root: str, prune: Callable[[str], bool] | None = None, *, sizes: bool = True) -> Walk:
    """Stat every file under ``root`` except ``.git``; ``prune(dir)`` skips a folder.

    ``sizes=False`` lists the files without a stat call each (size and mtime are -1),
    for callers that only need the paths.
    """
    root_real = os.path.realpath(root)
    files: list[FileStat] = []
    skips: list[Skip] = []
    dirs: list[str] = []
    pruned: list[str] = []
    stack = [""]
    while stack:
        rel_dir = stack.pop()
        full_dir = os.path.join(root, rel_dir) if rel_dir else root
        try:
            with os.scandir(full_dir) as it:
                entries = list(it)
        except OSError as e:
            skips.append(Skip(rel_dir + "/", f"cannot read folder: {e.strerror}"))
            continue
        if rel_dir and any(e.name == ".git" for e in entries):
            skips.append(Skip(rel_dir + "/", "nested git repository"))
            continue
        dirs.append(rel_dir)
        prefix = rel_dir + "/" if rel_dir else ""
        for entry in entries:
            name = entry.name
            rel = prefix + name
            try:
                if entry.is_symlink():
                    skips.append(Skip(rel, _symlink_reason(root_real, entry.path)))
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if name == ".git" or (not rel_dir and name == CURATOR_DIR):
                        continue
                    if prune is not None and prune(rel):
                        pruned.append(rel)
                        continue
                    stack.append(rel)
                    continue
                if not sizes:
                    regular, size, mtime_ns = entry.is_file(follow_symlinks=False), -1, -1
                else:
                    st = entry.stat(follow_symlinks=False)
                    regular, size, mtime_ns = statmod.S_ISREG(st.st_mode), st.st_size, st.st_mtime_ns
            except OSError as e:
                skips.append(Skip(rel, f"cannot stat: {e.strerror}"))
                continue
            if not regular:
                skips.append(Skip(rel, "not a regular file"))
                continue
            files.append(FileStat(rel, size, mtime_ns))
    return Walk(files, skips, dirs, pruned)


class GitView:
    """Which paths git tracks or ignores, read through libgit2.

    Looked up path by path: a tracked file is one index lookup, and the tracked
    directories (what an ignored folder may still hold) are listed only when git
    ignores some folder. Iterating a 3,000-entry index in Python costs more than
    the lookups a whole walk makes.
    """

    def __init__(self, vault: Vault) -> None:
        import pygit2

        self.repo = vault.repo
        try:
            self.index: Any = self.repo.index
        except pygit2.GitError:
            self.index = ()
        self._tracked_dirs: set[str] | None = None

    @property
    def tracked_dirs(self) -> set[str]:
        if self._tracked_dirs is None:
            dirs: set[str] = set()
            for entry in self.index:
                parts = entry.path.split("/")[:-1]
                for i in range(1, len(parts) + 1):
                    dirs.add("/".join(parts[:i]))
            self._tracked_dirs = dirs
        return self._tracked_dirs

    def dir_ignored(self, rel: str) -> bool:
        if not self.repo.path_is_ignored(rel + "/"):
            return False
        return rel not in self.tracked_dirs

    def file_ignored(self, rel: str) -> bool:
        if rel in self.index:
            return False
        return bool(self.repo.path_is_ignored(rel))


@dataclass
class Classified:
    notes: list[FileStat]
    skips: list[Skip]
    ignored_dirs: list[str]
    files: list[str]
    """Every file path that is not ignored (notes and attachments): link targets."""
    attachments: list[FileStat] = field(default_factory=list)
    """Files that ``attachments.include`` asks the index to read the text of."""


def classify(w: Walk, settings: Settings, file_ignored: Callable[[str], bool]) -> Classified:
    max_bytes = settings.notes.max_bytes
    wanted = compile_globs(settings.attachments.include) if settings.attachments.include else None
    notes: list[FileStat] = []
    attachments: list[FileStat] = []
    skips = list(w.skips)
    files: list[str] = []
    for f in w.files:
        if file_ignored(f.path):
            skips.append(Skip(f.path, "ignored by git", f.size, f.mtime_ns))
            continue
        refusal = note_refusal(f.path, settings)
        if refusal is None or refusal.kind != "escape":
            files.append(f.path)  # a link may point at an attachment; never at a name no note can have
        if refusal is not None and refusal.kind == "not-included" and wanted is not None and wanted.match(f.path):
            limit = settings.attachments.max_bytes
            if f.size > limit:
                why = f"too large ({_mb(f.size)}; attachments.max_bytes is {_mb(limit)})"
                skips.append(Skip(f.path, why, f.size, f.mtime_ns))
            else:
                attachments.append(f)
        elif refusal is not None:
            skips.append(Skip(f.path, refusal.reason, f.size, f.mtime_ns))
        elif f.size > max_bytes:
            skips.append(
                Skip(f.path, f"too large ({_mb(f.size)}; notes.max_bytes is {_mb(max_bytes)})", f.size, f.mtime_ns)
            )
        else:
            notes.append(f)
    for d in w.pruned:
        skips.append(Skip(d + "/", "ignored by git"))
    notes.sort(key=lambda f: f.path)
    skips.sort(key=lambda s: s.path)
    attachments.sort(key=lambda f: f.path)
    return Classified(notes, skips, sorted(w.pruned), sorted(files), attachments)


def _mb(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB"
    return f"{n / 1024:.0f} KB"


def scan(vault: Vault, settings: Settings, *, sizes: bool = True) -> Classified:
    """The authoritative view: walk the work tree and ask git about every path.

    Without ``sizes`` no note is skipped as too large: for callers that want the paths.
    """
    git = GitView(vault)
    return classify(walk(vault.root, git.dir_ignored, sizes=sizes), settings, git.file_ignored)


def read_bytes(vault: Vault, rel: str) -> bytes:
    with open(vault.abspath(rel), "rb") as f:
        return f.read()


def case_clashes(paths: Iterable[str]) -> list[list[str]]:
    groups: dict[str, list[str]] = {}
    for p in paths:
        groups.setdefault(same_file_key(p), []).append(p)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)
