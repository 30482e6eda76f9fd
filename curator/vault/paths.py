"""Where a proposal may write: one judgement of a vault-relative path, shared by the
validator's KP002 rule, staging (``curator propose``, ``kp_propose``) and apply.

A path is judged on its string first (absolute, ``..``, ``.git``, backslashes,
control characters, not normalised) and then on the work tree (no component may
be a symlink). Nothing is joined to a folder, read or written before both pass.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat

_DRIVE = re.compile(r"^[A-Za-z]:")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

# Code points HFS+ ignores when it compares names (git's protectHFS list): on a Mac
# ".git\u200c" is ".git".
_HFS_IGNORED = frozenset([0x200C, 0x200D, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x206A, 0x2070), 0xFEFF])


def same_as(part: str, name: str) -> bool:
    """Whether the path component ``part`` names the folder ``name`` (``.git``, ``.kp``) on some
    system git runs on: case folded, HFS+'s ignored code points dropped, and NTFS's trailing
    dots and spaces and alternate data stream (``:``) cut, as git's protectHFS and
    protectNTFS rules read names; ``git~1`` is NTFS's short name for ``.git``."""
    folded = "".join(c for c in part if ord(c) not in _HFS_IGNORED).casefold()
    ntfs = folded.split(":", 1)[0].rstrip(" .")
    if folded == name or ntfs == name:
        return True
    return name == ".git" and ntfs == "git~1"


def escape_reason(path: str) -> str | None:
    """Why a proposal may not write ``path``, judged on the string alone."""
    if not path:
        return "the path is empty"
    if _CONTROL.search(path):
        return "the path contains control characters"
    if path.startswith("/") or _DRIVE.match(path) or path.startswith("\\\\"):
        return "the path is absolute; use a path relative to the vault"
    if "\\" in path:
        return "the path contains a backslash; use '/' between folders"
    parts = path.split("/")
    if ".." in parts:
        return "the path climbs out with '..'"
    if any(same_as(p, ".git") for p in parts):
        return "the path reaches into .git/ (as git reads names on macOS or Windows)"
    if posixpath.normpath(path) != path or "" in parts or "." in parts:
        return f"the path is not normalised (write {posixpath.normpath(path)!r})"
    return None


def symlink_on_path(root: str, path: str) -> str | None:
    """The first component of ``path`` (itself included) that is a symlink under ``root``.

    ``path`` must have passed ``escape_reason``: it is joined to ``root`` here.
    """
    parts = path.split("/")
    for i in range(1, len(parts) + 1):
        prefix = "/".join(parts[:i])
        try:
            if stat.S_ISLNK(os.lstat(os.path.join(root, *parts[:i])).st_mode):
                return prefix
        except (FileNotFoundError, NotADirectoryError):
            return None
    return None


def unsafe_reason(root: str, path: str) -> str | None:
    """Why ``path`` may not be written under the work tree ``root``, or None when it may."""
    reason = escape_reason(path)
    if reason:
        return reason
    through = symlink_on_path(root, path)
    if through:
        return f"the path goes through the symlink {through}"
    return None


def checked_join(root: str, path: str) -> str:
    """``root``/``path`` for a path that passed both checks; raises UnsafePath otherwise."""
    reason = unsafe_reason(root, path)
    if reason:
        raise UnsafePath(path, reason)
    return os.path.join(root, *path.split("/"))


class UnsafePath(ValueError):
    """A write was asked for at a path that escapes the vault; nothing was written."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path!r}: {reason}")
        self.path = path
        self.reason = reason
