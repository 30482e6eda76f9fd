"""Reading a proposal folder without trusting it: the one reader, for a folder on disk or in git.

Sizes come from ``stat`` before any read: a file over ``max_file`` is not read, and
once the proposal's files add up past ``max_total`` no further file is read (the
validator rejects it on the sizes, KP009). Every read is capped at its limit plus
one byte, so a file that grows after its ``stat`` is still never read whole. Memory
stays within the limits however large the files on disk are.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from typing import Any, Protocol

from curator.proposals.layout import DIFF, FILES, KNOWN, MANIFEST, PROPOSALS_DIR
from curator.vault.paths import symlink_on_path

# Reading stops here: a proposal directory is untrusted input.
READ_CAP = 64 * 1024 * 1024


@dataclass
class StoredFile:
    size: int
    data: bytes | None
    """None when the file was too large to read."""


@dataclass
class ProposalDir:
    id: str
    """The directory's name (the manifest must agree)."""
    rel_dir: str
    manifest: bytes | None = None
    diff: bytes | None = None
    events: bytes | None = None
    files: dict[str, StoredFile] = field(default_factory=dict)
    """Paths under files/ (vault-relative targets) and their contents."""
    unexpected: list[str] = field(default_factory=list)
    symlinks: list[str] = field(default_factory=list)
    unread: dict[str, int] = field(default_factory=dict)
    """proposal.yaml, changes.diff or events.jsonl left unread because it is over the limit: its size."""
    total_bytes: int = 0
    exists: bool = True

    def digest(self) -> str:
        """What a person reviewed, as one value: the manifest, the diff and every file (its path
        and bytes, or its size when unread), and what else the folder holds; not its events,
        which a decision appends to. A decision taken on what was shown passes it, and the
        proposal is refused if the folder changed since (``apply --yes`` and an agent rewriting
        ``changes.diff`` while the prompt waits)."""
        h = hashlib.sha256()

        def part(tag: bytes, data: bytes | None) -> None:
            body = b"\xff" if data is None else data
            h.update(tag + b"\0" + str(len(body)).encode() + b"\0" + body)

        part(b"manifest", self.manifest)
        part(b"diff", self.diff)
        for path in sorted(self.files):
            f = self.files[path]
            part(b"file " + path.encode("utf-8", "surrogateescape"), f.data if f.data is not None else b"size %d" % f.size)
        for tag, names in ((b"unexpected", self.unexpected), (b"symlink", self.symlinks)):
            for name in sorted(names):
                part(tag, name.encode("utf-8", "surrogateescape"))
        for name in sorted(self.unread):
            part(b"unread " + name.encode(), str(self.unread[name]).encode())
        return h.hexdigest()


@dataclass(frozen=True)
class Item:
    """One entry under a proposal folder that is not a folder itself."""

    rel: str
    """Its path inside the proposal folder: ``proposal.yaml``, ``files/notes/a.md``."""
    kind: str
    """``file``, ``link`` (a symlink), ``folder`` (on disk only: a git tree has no empty folders) or
    ``other`` (a fifo, a socket, a submodule)."""
    size: int = 0


class Folder(Protocol):
    """A proposal folder wherever it is: on disk (``DiskFolder``), or in a git tree or index
    (``validator.staged_proposal.TreeFolder``). ``read`` loads whichever ``ProposalDir`` it holds, by one set of rules."""

    def state(self) -> str:
        """``missing``, ``folder``, or ``not-a-folder`` (a file or a symlink where the folder should be)."""
        ...

    def items(self) -> list[Item]:
        """Every entry under the folder, sorted by ``rel``."""
        ...

    def data(self, item: Item, cap: int) -> bytes | None:
        """The file's bytes, or None when it holds more than ``cap`` (nothing past it is read)."""
        ...


def read(folder: Folder, ulid: str, *, max_file: int = READ_CAP, max_total: int = READ_CAP) -> ProposalDir:
    """The proposal ``ulid`` as ``folder`` holds it, without trusting it.

    Symlinks are named (never followed), anything the format does not know is named
    (``unexpected``), and files are read within the budget: a file over ``max_file`` is not
    read, and once the files add up past ``max_total`` no further file under ``files/`` is."""
    rel_dir = f"{PROPOSALS_DIR}/{ulid}"
    p = ProposalDir(ulid, rel_dir)
    state = folder.state()
    if state == "missing":
        p.exists = False
        return p
    if state != "folder":
        p.symlinks.append(rel_dir)
        return p
    budget = _Budget(min(max_file, READ_CAP), min(max_total, READ_CAP))
    unexpected: set[str] = set()
    for item in folder.items():
        top, _, below = item.rel.partition("/")
        if item.kind == "folder":
            if top != FILES and top not in unexpected:
                unexpected.add(top)
                p.unexpected.append(top)
            continue
        if item.kind == "link" and (not below or top == FILES):
            p.symlinks.append(f"{rel_dir}/{item.rel}")
            continue
        if top not in KNOWN or item.kind != "file" or (top != FILES and below) or (top == FILES and not below):
            name = f"{FILES}/{below}" if top == FILES and below else top
            if name not in unexpected:
                unexpected.add(name)
                p.unexpected.append(name)
            continue
        if top == FILES:
            cap = budget.cap(p)
            p.total_bytes += item.size
            p.files[below] = StoredFile(item.size, folder.data(item, cap) if item.size <= cap else None)
            continue
        p.total_bytes += item.size
        cap = max(budget.max_total, budget.max_file)
        raw = folder.data(item, cap) if item.size <= cap else None
        if raw is None:
            p.unread[top] = item.size
        if top == MANIFEST:
            p.manifest = raw
        elif top == DIFF:
            p.diff = raw
        else:
            p.events = raw
    p.symlinks = sorted(set(p.symlinks))
    return p


class DiskFolder:
    """A proposal folder in the work tree (or a staging copy of one): read with ``lstat`` and
    ``O_NOFOLLOW``, so a symlink on the way is named, never followed."""

    def __init__(self, path: str) -> None:
        self.path = path

    def state(self) -> str:
        try:
            st = os.lstat(self.path)
        except (FileNotFoundError, NotADirectoryError):
            return "missing"
        return "folder" if stat.S_ISDIR(st.st_mode) else "not-a-folder"

    def items(self) -> list[Item]:
        found: list[Item] = []
        stack = [""]
        while stack:
            prefix = stack.pop()
            try:
                entries = list(os.scandir(os.path.join(self.path, prefix) if prefix else self.path))
            except OSError:
                continue
            for entry in entries:
                rel = f"{prefix}{entry.name}"
                if entry.is_symlink():
                    found.append(Item(rel, "link"))
                elif entry.is_dir(follow_symlinks=False):
                    found.append(Item(rel, "folder"))
                    stack.append(rel + "/")
                elif entry.is_file(follow_symlinks=False):
                    found.append(Item(rel, "file", entry.stat(follow_symlinks=False).st_size))
                else:
                    found.append(Item(rel, "other"))
        return sorted(found, key=lambda i: i.rel)

    def data(self, item: Item, cap: int) -> bytes | None:
        return read_capped(os.path.join(self.path, *item.rel.split("/")), cap)

    def file(self, rel: str, cap: int) -> bytes | None:
        """One file of the folder by name (``proposal.yaml``, ``files/a.md``), None when it is not a
        regular file reached without a symlink, or holds more than ``cap``."""
        if self.state() != "folder" or symlink_on_path(self.path, rel):
            return None
        return read_capped(os.path.join(self.path, *rel.split("/")), cap)


def read_capped(path: str, cap: int) -> bytes | None:
    """A regular file's bytes (never through a symlink at its name), None past ``cap`` or on any error.

    Capped at the read itself (``cap`` + 1 bytes), so a file that grew after its ``stat`` is
    still never read whole."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None
        data = f.read(cap + 1)
    return data if len(data) <= cap else None


@dataclass
class _Budget:
    max_file: int
    max_total: int

    def cap(self, p: ProposalDir) -> int:
        """How much the next file may hold to be read: nothing once the proposal is over its total."""
        return -1 if p.total_bytes > self.max_total else self.max_file


def folder_of(vault_root: str, ulid: str) -> DiskFolder:
    return DiskFolder(os.path.join(vault_root, PROPOSALS_DIR, ulid))


def load(
    vault_root: str, ulid: str, folder: str | None = None, *, max_file: int = READ_CAP, max_total: int = READ_CAP
) -> ProposalDir:
    """The proposal ``ulid``, read from ``.kp/proposals/<ulid>`` or from ``folder`` (a staging copy).

    Pass the vault's ``limits`` as ``max_file`` and ``max_total``: nothing past them is read.
    """
    disk = DiskFolder(folder) if folder else folder_of(vault_root, ulid)
    return read(disk, ulid, max_file=max_file, max_total=max_total)


def load_within(vault_root: str, ulid: str, limits: Any) -> ProposalDir:
    """``load`` with the vault's ``limits`` (``settings.limits``)."""
    return load(vault_root, ulid, max_file=limits.max_file_bytes, max_total=limits.max_proposal_bytes)


def list_ids(vault_root: str) -> list[str]:
    base = os.path.join(vault_root, PROPOSALS_DIR)
    try:
        entries = os.scandir(base)
    except (FileNotFoundError, NotADirectoryError):
        return []
    with entries:
        return sorted(e.name for e in entries if not e.name.startswith(".") and e.is_dir(follow_symlinks=False))
