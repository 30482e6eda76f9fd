"""What a vault-relative path may be: the one judgement of "is this a note" and "may this be written".

Every surface asks here: the tree walk that feeds the index and ``doctor``, ``read`` and
``kp_read``'s refs, ``validate`` and the pre-commit hook (which notes a commit touches),
the validator's path rules (KP002, KP003, KP007, KP010), ``kp_propose`` before it reads
anything, staging, apply, ``new`` and ``mint``.

A path is judged on its string first, then (by the caller, who knows the tree it means:
the work tree, the git index or a commit) on what is on the way to it. On the string:

- ``escape_reason``: it must stay inside the vault and mean the same file everywhere git
  runs: relative, normalised, no ``..``, nothing that reads as ``.git`` on macOS or
  Windows (``.GIT``, ``git~1``, ``.git.``), no unsafe character (``curator.unsafe``: a
  name with a newline or a bidi override is not a note at all), no component longer
  than a file system allows;
- ``note_refusal``: a note is outside ``.kp/``, matched by ``notes.include`` and not kept
  out by ``notes.exclude``;
- ``write_refusal``: a proposal may write a note that is not producer-owned
  (``producers.paths``), judged as a case-insensitive file system would read the name:
  ``.CURIO/`` and ``.curio./`` are the producer's folder there.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from curator.settings import Settings
from curator.unsafe import first_unsafe
from curator.vault.globs import compile_globs, matches

_DRIVE = re.compile(r"^[A-Za-z]:")
NAME_MAX = 255
"""Bytes in one path component (ext4, APFS, NTFS and most others)."""

# Code points HFS+ ignores when it compares names (git's protectHFS list): on a Mac
# ".git\u200c" is ".git".
_HFS_IGNORED = frozenset([0x200C, 0x200D, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x206A, 0x2070), 0xFEFF])
_HFS_DROP = dict.fromkeys(_HFS_IGNORED)
"""``str.translate`` drops them in C: a generator over every character of 6,500 paths' names was
a tenth of judging their paths."""

CURATOR_DIR = ".kp"


def folded(part: str) -> str:
    """A path component as a case-insensitive file system compares it: case folded, HFS+'s
    ignored code points dropped, NTFS's trailing dots and spaces and alternate data stream
    (``:``) cut."""
    return _ntfs(part.translate(_HFS_DROP).casefold())


def _ntfs(text: str) -> str:
    return text.split(":", 1)[0].rstrip(" .")


def same_file_key(path: str) -> str:
    """What two vault paths share when some system git runs on takes them for one file: each
    component in Unicode NFC (macOS compares names normalised: ``café`` typed two ways) and
    ``folded`` (case, HFS+'s ignored code points, NTFS's trailing dots and spaces). The one
    judgement of "the same file" for every rule that compares paths."""
    return "/".join(folded(unicodedata.normalize("NFC", part)) for part in path.split("/"))


def same_as(part: str, name: str) -> bool:
    """Whether the path component ``part`` names the folder ``name`` (``.git``, ``.kp``) on some
    system git runs on (git's protectHFS and protectNTFS rules); ``git~1`` is NTFS's short
    name for ``.git``."""
    plain = part.translate(_HFS_DROP).casefold()
    ntfs = _ntfs(plain)
    if plain == name or ntfs == name:
        return True
    return name == ".git" and ntfs == "git~1"


@lru_cache(maxsize=16384)
def escape_reason(path: str) -> str | None:
    """Why ``path`` cannot be a path of the vault at all, judged on the string alone.

    Remembered: a proposal's paths are judged here by the reader, the path rules, the write
    check and the join, and folding each name (``same_as``) for 6,500 paths four times was a
    tenth of validating them."""
    if not path:
        return "the path is empty"
    bad = first_unsafe(path)
    if bad is not None:
        what = "a newline" if bad == "\n" else f"the character U+{ord(bad):04X}"
        return f"the path contains {what} (control and reordering characters are not allowed in names)"
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
    long = next((p for p in parts if len(p.encode("utf-8", "surrogateescape")) > NAME_MAX), None)
    if long is not None:
        return f"a name in the path is {len(long.encode('utf-8', 'surrogateescape'))} bytes long (at most {NAME_MAX})"
    return None


def is_curator_path(path: str) -> bool:
    """Inside ``.kp/`` (the proposals and the config), as any file system reads the name."""
    return same_as(path.split("/", 1)[0], CURATOR_DIR)


def producer_owned(path: str, settings: Settings) -> bool:
    """Matched by ``producers.paths``, as written or as a case-insensitive file system reads it."""
    patterns = tuple(settings.producers.paths)
    if matches(path, patterns):
        return True
    folded_path = "/".join(folded(p) for p in path.split("/"))
    return bool(compile_globs(tuple(p.casefold() for p in patterns)).match(folded_path))


@dataclass(frozen=True)
class Refusal:
    """Why a path is not a note, or may not be written."""

    kind: str
    """``escape``, ``curator``, ``producer``, ``excluded`` or ``not-included``."""
    reason: str


EXCLUDED = "excluded by notes.exclude"
NOT_INCLUDED = "not a note (outside notes.include)"

GITS_OWN = frozenset(
    {".gitignore", ".gitattributes", ".gitmodules", ".gitkeep", ".keep", ".mailmap", ".git-blame-ignore-revs"}
)
"""Files git and its conventions keep in a work tree, in any folder."""


def never_news(path: str, reason: str) -> bool:
    """Whether a skip is not worth a line in ``curator index``: a file that is never a note
    and that nobody meant as one: git's own files in any folder, macOS's ``.DS_Store``, and
    a dotfile at the top of the vault (``.editorconfig``). A document-like file (a PDF, a
    ``.docx``, an image) is still named, as is anything skipped for another reason."""
    if reason != NOT_INCLUDED:
        return False
    name = path.rsplit("/", 1)[-1]
    return name in GITS_OWN or name == ".DS_Store" or ("/" not in path and name.startswith("."))


def note_refusal(path: str, settings: Settings) -> Refusal | None:
    """Why ``path`` is not a note of the vault, judged on its string (None: it is one, if a
    regular file git does not ignore is there)."""
    reason = escape_reason(path)
    if reason:
        return Refusal("escape", reason)
    if is_curator_path(path):
        return Refusal("curator", "the path is inside .kp/ (Curator's proposals and config), not a note")
    if compile_globs(tuple(settings.notes.exclude)).match(path):
        return Refusal("excluded", EXCLUDED)
    if not compile_globs(tuple(settings.notes.include)).match(path):
        return Refusal("not-included", NOT_INCLUDED)
    return None


def write_refusal(path: str, settings: Settings) -> Refusal | None:
    """Why a proposal may not write ``path``, judged on its string (None: it may, if nothing on
    the way to it is a symlink or a submodule)."""
    refusal = note_refusal(path, settings)
    if refusal is not None and refusal.kind in ("escape", "curator"):
        return refusal
    if producer_owned(path, settings):
        return Refusal("producer", "the path is owned by a producer (producers.paths); the producer would overwrite it")
    return refusal


def is_note_path(path: str, settings: Settings) -> bool:
    return note_refusal(path, settings) is None


def symlink_on_path(root: str, path: str, seen: dict[str, bool | None] | None = None) -> str | None:
    """The first component of ``path`` (itself included) that is a symlink under ``root``.

    ``path`` must have passed ``escape_reason``: it is joined to ``root`` here. ``seen`` keeps
    what each prefix was (a symlink, something else, or None: absent) for a caller that asks of
    many paths at one moment (the validator's ``RepoState``): the 6,500 notes of an adopt
    proposal in a few folders asked the kernel about the same folders 26,000 times. A write
    never relies on it: ``fsutil`` refuses a symlink on the way where it opens each folder.
    """
    parts = path.split("/")
    for i in range(1, len(parts) + 1):
        prefix = "/".join(parts[:i])
        link = seen[prefix] if seen is not None and prefix in seen else _is_link(os.path.join(root, *parts[:i]))
        if seen is not None:
            seen[prefix] = link
        if link is None:
            return None
        if link:
            return prefix
    return None


def _is_link(full: str) -> bool | None:
    """Whether ``full`` is a symlink; None when nothing is there."""
    try:
        return stat.S_ISLNK(os.lstat(full).st_mode)
    except (FileNotFoundError, NotADirectoryError):
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
