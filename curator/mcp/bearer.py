"""The bearer token of ``curator mcp --http``: minted, kept private, compared in constant time.

Loopback is no boundary between the users of one machine: each of them can connect to
127.0.0.1. So every HTTP request must carry ``Authorization: Bearer <token>``, a token of
32 random bytes (``secrets``) that the server mints at start-up when its vault has none and
keeps in a file only its user can read: ``<private root>/mcp-tokens/<vault key>.token``
(``curator.locations``: ``$XDG_RUNTIME_DIR/curator`` or ``$XDG_STATE_HOME/curator``), the
file 0600 in a 0700 folder owned by the user, never inside the vault. One file a vault, so
two vaults' servers never share a token, and a client's configuration keeps working when the
server restarts; ``--new-token`` mints a fresh one (the old one stops working at the next
start). A token whose file or folder was readable by others is never reused: it may have been
read, so a new one replaces it. Where the folder cannot be made private (owned by another
user, not a folder, a symlink), the server refuses to start.

This module imports neither the MCP SDK nor a web stack: ``curator mcp --print-token`` uses it
alone.
"""

from __future__ import annotations

import contextlib
import hmac
import os
import re
import secrets
import stat

from curator.errors import WriteRefused
from curator.fsutil import create_exclusive, write_atomic
from curator.locations import http_token_file, make_missing_private, shared_folder

TOKEN_BYTES = 32
SHAPE = re.compile(r"[A-Za-z0-9_\-]{43,128}")
"""What a token file holds (``secrets.token_urlsafe(32)`` is 43 characters); anything else is
replaced by a fresh token."""
PRIVATE_FOLDER = 0o700
PRIVATE_FILE = 0o600


def token_file(vault_root: str) -> str:
    return http_token_file(vault_root)


def matches(given: str, token: str) -> bool:
    """Whether ``given`` is ``token``, in time that does not depend on where they differ."""
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode("utf-8"))


def load(vault_root: str, *, new: bool = False) -> tuple[str, str]:
    """The vault's HTTP token and the file holding it, minting one when there is none (or
    ``new``, or the old one may have been read by someone else)."""
    path = token_file(vault_root)
    folder = os.path.dirname(path)
    _refuse_inside_vault(folder, vault_root)
    try:
        was_loose = _private_folder(folder)
        if not new and not was_loose:
            kept = _read_private(path)
            if kept is not None:
                return kept, path
        token = secrets.token_urlsafe(TOKEN_BYTES)
        data = (token + "\n").encode("ascii")
        if new or was_loose or os.path.lexists(path):
            write_atomic(path, data, PRIVATE_FILE)
        elif not create_exclusive(path, data, PRIVATE_FILE):
            kept = _read_private(path)  # another server of this vault minted it first
            if kept is None:
                write_atomic(path, data, PRIVATE_FILE)
            else:
                token = kept
        _check_file(path)
    except OSError as e:
        raise WriteRefused(
            f"cannot keep the HTTP token private in {folder}: {e.strerror or e}; the server does not start without it"
        ) from None
    return token, path


def _refuse_inside_vault(folder: str, vault_root: str) -> None:
    real, root = os.path.realpath(folder), os.path.realpath(vault_root)
    if os.path.commonpath([real, root]) == root:
        raise WriteRefused(
            f"the HTTP token would be kept in {folder}, inside the vault; set XDG_RUNTIME_DIR or "
            "XDG_STATE_HOME to a folder outside it"
        )


def _private_folder(folder: str) -> bool:
    """Make ``folder`` and the folder above it (both Curator's own: ``curator/mcp-tokens``) exist,
    owned by this user, mode 0700, under a base folder no other user may rename them in; True when
    either was open to others before. A ``curator/`` planted by another user (a folder of theirs,
    a symlink to one) would let them move ``mcp-tokens`` away and plant their own."""
    parent = os.path.dirname(folder)
    make_missing_private(os.path.dirname(parent))
    loose = _own_private(parent) | _own_private(folder)
    why = shared_folder(folder)  # the one judgement of a private folder, as for the index's
    if why is not None:
        raise WriteRefused(
            f"{why}; the HTTP token is kept only where no one else can move it: set XDG_RUNTIME_DIR or "
            "XDG_STATE_HOME to a folder of yours"
        )
    return loose


def _own_private(folder: str) -> bool:
    """Make ``folder`` exist as a folder of this user's, mode 0700; True when it was open to others."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(folder, PRIVATE_FOLDER)
    info = os.lstat(folder)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise WriteRefused(
            f"{folder} is not a folder (a symlink or a file); the HTTP token is kept only in a private one"
        )
    if info.st_uid != os.geteuid():
        raise WriteRefused(
            f"{folder} belongs to another user (uid {info.st_uid}); the HTTP token is kept only in a folder of yours"
        )
    loose = bool(info.st_mode & 0o077)
    if loose:
        os.chmod(folder, PRIVATE_FOLDER, follow_symlinks=False)
        if os.lstat(folder).st_mode & 0o077:
            raise WriteRefused(f"{folder} cannot be made private (mode 0700); the HTTP token is kept only in one")
    return loose


def _read_private(path: str) -> str | None:
    """The token in ``path`` when the file is ours, private and well formed; None otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as e:
        if e.errno == getattr(os, "ELOOP", 40):
            return None  # a symlink: replaced, never read through
        raise
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
            return None
        raw = f.read(256)
    with contextlib.suppress(UnicodeDecodeError):
        token = raw.decode("ascii").strip()
        if SHAPE.fullmatch(token):
            return token
    return None


def _check_file(path: str) -> None:
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
        raise WriteRefused(f"the HTTP token file {path} cannot be made private (mode 0600, yours)")
