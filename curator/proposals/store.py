"""Reading proposal directories as they are on disk, without trusting them.

Sizes come from ``stat`` before any read: a file over ``max_file`` is not read, and
once the proposal's files add up past ``max_total`` no further file is read (the
validator rejects it on the sizes, KP009). Every read is capped at its limit plus
one byte, so a file that grows after its ``stat`` is still never read whole. Memory
stays within the limits however large the files on disk are.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from typing import Any

from curator.proposals.layout import DIFF, EVENTS, FILES, KNOWN, MANIFEST, PROPOSALS_DIR

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
    total_bytes: int = 0
    exists: bool = True


def _read(path: str, size: int, cap: int) -> bytes | None:
    if size > cap:
        return None
    with open(path, "rb") as f:
        data = f.read(cap + 1)
    return None if len(data) > cap else data


@dataclass
class _Budget:
    max_file: int
    max_total: int

    def cap(self, p: ProposalDir) -> int:
        """How much the next file may hold to be read: nothing once the proposal is over its total."""
        return -1 if p.total_bytes > self.max_total else self.max_file


def load(
    vault_root: str, ulid: str, folder: str | None = None, *, max_file: int = READ_CAP, max_total: int = READ_CAP
) -> ProposalDir:
    """The proposal ``ulid``, read from ``.kp/proposals/<ulid>`` or from ``folder`` (a staging copy).

    Pass the vault's ``limits`` as ``max_file`` and ``max_total``: nothing past them is read.
    """
    rel_dir = f"{PROPOSALS_DIR}/{ulid}"
    base = folder or os.path.join(vault_root, PROPOSALS_DIR, ulid)
    budget = _Budget(min(max_file, READ_CAP), min(max_total, READ_CAP))
    p = ProposalDir(ulid, rel_dir)
    try:
        st = os.lstat(base)
    except FileNotFoundError:
        p.exists = False
        return p
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        p.symlinks.append(rel_dir)
        return p
    for entry in sorted(os.scandir(base), key=lambda e: e.name):
        if entry.is_symlink():
            p.symlinks.append(f"{rel_dir}/{entry.name}")
            continue
        if entry.name not in KNOWN:
            p.unexpected.append(entry.name)
            continue
        if entry.name == FILES:
            if not entry.is_dir(follow_symlinks=False):
                p.unexpected.append(entry.name)
                continue
            _load_files(p, entry.path, "", budget)
            continue
        if not entry.is_file(follow_symlinks=False):
            p.unexpected.append(entry.name)
            continue
        size = entry.stat(follow_symlinks=False).st_size
        p.total_bytes += size
        data = _read(entry.path, size, max(budget.max_total, budget.max_file))
        if entry.name == MANIFEST:
            p.manifest = data
        elif entry.name == DIFF:
            p.diff = data
        elif entry.name == EVENTS:
            p.events = data
    return p


def load_within(vault_root: str, ulid: str, limits: Any) -> ProposalDir:
    """``load`` with the vault's ``limits`` (``settings.limits``)."""
    return load(vault_root, ulid, max_file=limits.max_file_bytes, max_total=limits.max_proposal_bytes)


def _load_files(p: ProposalDir, folder: str, prefix: str, budget: _Budget) -> None:
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        rel = f"{prefix}{entry.name}"
        if entry.is_symlink():
            p.symlinks.append(f"{p.rel_dir}/{FILES}/{rel}")
        elif entry.is_dir(follow_symlinks=False):
            _load_files(p, entry.path, rel + "/", budget)
        elif entry.is_file(follow_symlinks=False):
            size = entry.stat(follow_symlinks=False).st_size
            p.total_bytes += size
            p.files[rel] = StoredFile(size, _read(entry.path, size, budget.cap(p)))
        else:
            p.unexpected.append(f"{FILES}/{rel}")


def list_ids(vault_root: str) -> list[str]:
    base = os.path.join(vault_root, PROPOSALS_DIR)
    try:
        entries = os.scandir(base)
    except (FileNotFoundError, NotADirectoryError):
        return []
    with entries:
        return sorted(e.name for e in entries if not e.name.startswith(".") and e.is_dir(follow_symlinks=False))
