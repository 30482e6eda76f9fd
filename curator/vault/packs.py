"""Many new blobs written to the vault's object store as one pack, not one loose file each.

An apply or an adopt of 6,500 notes stores 6,500 blobs before it touches the work tree (the
journal names them, so a kill can be finished or undone). libgit2 writes each as a loose object,
a new file in ``.git/objects/xx/``: 0.76 ms apiece on this project's machine, 4.9 s of a
6,500-note apply. pygit2 binds neither libgit2's mempack nor its pack writer for objects not
yet stored, so the pack is written here: version 2, one zlib stream per blob, no deltas (``git
gc`` makes those later), and its version 2 index, both fsynced before they are renamed into
``objects/pack/`` (the index last: git and libgit2 see a pack only once its index is there).
Every id is then looked up through libgit2, and a blob it cannot find is written loose, so an
object store this module does not understand (another hash, a redirected object folder) still
gets every blob.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import tempfile
import zlib
from collections.abc import Iterable
from typing import TYPE_CHECKING

from curator.fsutil import fsync_dir

if TYPE_CHECKING:
    import pygit2

PACK_FROM = 64
"""Fewer new blobs than this are written loose, as git would: a pack per small apply is clutter."""

PACK_MAX = 1 << 30
"""Blobs of more bytes than this in all are written loose: every offset fits the index's 4-byte field."""

_BLOB = 3


def write_blobs(repo: pygit2.Repository, blobs: Iterable[bytes]) -> list[str]:
    """Store every blob of ``blobs`` the repository lacks; returns their ids in order."""
    import pygit2

    datas = list(blobs)
    folder = _pack_folder(repo)
    if folder is None:
        return [str(repo.create_blob(data)) for data in datas]
    ids: list[str] = []
    new: dict[str, bytes] = {}
    for data in datas:
        oid = str(pygit2.hash(data))
        ids.append(oid)
        if oid not in new and oid not in repo:
            new[oid] = data
    # A pack past 2 GiB needs the index's 8-byte offsets; notes that large are not a case to pack.
    packed = len(new) >= PACK_FROM and sum(map(len, new.values())) < PACK_MAX
    if packed:
        write_pack(folder, new)
    for oid, data in new.items():
        if not packed or oid not in repo:
            repo.create_blob(data)
    return ids


def _pack_folder(repo: pygit2.Repository) -> str | None:
    """``objects/pack`` of a SHA-1 repository whose objects are where git keeps them, else None."""
    if os.environ.get("GIT_OBJECT_DIRECTORY"):
        return None
    try:
        if str(repo.config["extensions.objectformat"]).lower() != "sha1":
            return None
    except KeyError:
        pass
    gitdir = repo.path
    try:
        with open(os.path.join(gitdir, "commondir"), encoding="utf-8") as f:
            gitdir = os.path.join(gitdir, f.read().strip())
    except FileNotFoundError:
        pass
    folder = os.path.join(gitdir, "objects", "pack")
    return folder if os.path.isdir(folder) else None


def _object_header(size: int) -> bytes:
    out = bytearray()
    byte = (_BLOB << 4) | (size & 0x0F)
    size >>= 4
    while size:
        out.append(byte | 0x80)
        byte = size & 0x7F
        size >>= 7
    out.append(byte)
    return bytes(out)


def pack_bytes(blobs: dict[str, bytes]) -> tuple[bytes, bytes, str]:
    """The pack and its index holding ``blobs`` (id → bytes), and the pack's name (its checksum)."""
    body = bytearray(b"PACK" + struct.pack(">II", 2, len(blobs)))
    where: dict[str, tuple[int, int]] = {}
    for oid, data in blobs.items():
        entry = _object_header(len(data)) + zlib.compress(data, 1)
        where[oid] = (len(body), zlib.crc32(entry))
        body += entry
    checksum = hashlib.sha1(body, usedforsecurity=False).digest()
    body += checksum
    order = sorted(where)
    fanout = [0] * 256
    for oid in order:
        fanout[int(oid[:2], 16)] += 1
    total = 0
    for i in range(256):
        total += fanout[i]
        fanout[i] = total
    index = bytearray(b"\xfftOc" + struct.pack(">I", 2))
    index += struct.pack(">256I", *fanout)
    index += b"".join(bytes.fromhex(oid) for oid in order)
    index += struct.pack(f">{len(order)}I", *(where[oid][1] for oid in order))
    index += struct.pack(f">{len(order)}I", *(where[oid][0] for oid in order))
    index += checksum
    index += hashlib.sha1(index, usedforsecurity=False).digest()
    return bytes(body), bytes(index), checksum.hex()


def write_pack(folder: str, blobs: dict[str, bytes]) -> str:
    """Write ``blobs`` as one pack in ``folder`` (``objects/pack``); returns its path."""
    pack, index, name = pack_bytes(blobs)
    base = os.path.join(folder, f"pack-{name}")
    # Read-only, as git writes a pack, and readable by whom the folder lets read (a private
    # repository's stays private; a group-shared one's is the group's too).
    mode = os.stat(folder).st_mode & 0o444
    for data, suffix in ((pack, ".pack"), (index, ".idx")):
        fd, tmp = tempfile.mkstemp(prefix="tmp_pack_", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fchmod(f.fileno(), mode)
                os.fsync(f.fileno())
            os.replace(tmp, base + suffix)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    fsync_dir(folder)
    return base + ".pack"
