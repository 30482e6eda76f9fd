"""Where Curator keeps things outside the vault."""

from __future__ import annotations

import contextlib
import grp
import hashlib
import os
import pwd
import stat
import sys
import sysconfig

from curator.errors import WriteRefused

PRIVATE = 0o700


def curator_command() -> list[str]:
    """This installation of Curator as a program another one can start, by absolute path: its
    ``curator`` program, else (run from a source tree) its interpreter with ``-m curator``.
    What an MCP client's or the pre-commit framework's configuration names: neither reads the
    shell's PATH, where ``.venv/bin`` would be."""
    scripts = sysconfig.get_path("scripts")
    program = os.path.join(scripts, "curator.exe" if os.name == "nt" else "curator") if scripts else ""
    if program and os.path.isfile(program) and os.access(program, os.X_OK):
        return [os.path.abspath(program)]
    return [os.path.abspath(sys.executable), "-m", "curator"]


def cache_root() -> str:
    """``$XDG_CACHE_HOME/curator``, default ``~/.cache/curator``. A relative ``XDG_CACHE_HOME`` is
    ignored, as the XDG rule says: it would put the index, the log and the leak scanner's kept
    patterns in whatever folder a command runs from (the vault, when it is run there)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "curator")


def vault_key(vault_root: str) -> str:
    """A stable directory name for a vault: readable stem plus a hash of its real path."""
    real = os.path.realpath(vault_root)
    digest = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in os.path.basename(real))
    return f"{stem[:40] or 'vault'}-{digest}"


def default_index_dir(vault_root: str) -> str:
    return os.path.join(cache_root(), vault_key(vault_root))


def verdicts_folder(index_dir: str) -> str:
    """Where the validator's verdicts are kept (``validator.verdicts``): ``verdicts/`` in the index folder."""
    return os.path.join(index_dir, "verdicts")


def private_root() -> str:
    """Where Curator keeps what only its user may read (the MCP server's HTTP tokens):
    ``$XDG_RUNTIME_DIR/curator`` (a per-user tmpfs, emptied at logout), else
    ``$XDG_STATE_HOME/curator`` (default ``~/.local/state/curator``)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime):
        return os.path.join(runtime, "curator")
    base = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative path is ignored
        base = os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "curator")


def http_token_file(vault_root: str) -> str:
    """The file holding the bearer token of ``curator mcp --http`` for one vault."""
    return os.path.join(private_root(), "mcp-tokens", f"{vault_key(vault_root)}.token")


def make_missing_private(folder: str) -> None:
    """Make each missing folder of ``folder``'s path, mode 0700; leave the ones that exist as they
    are. ``os.makedirs(mode=)`` gives the mode to the last folder only: the ones between get the
    umask's, and under ``umask 000`` that is a ``~/.local`` anyone may write in."""
    missing = []
    at = os.path.abspath(folder)
    while not os.path.lexists(at):
        missing.append(at)
        at = os.path.dirname(at)
    for made in reversed(missing):
        # One made meanwhile by another process is judged after as any folder that exists.
        with contextlib.suppress(FileExistsError):
            os.mkdir(made, PRIVATE)


def make_private(folder: str, what: str = "the index folder") -> None:
    """Make ``folder`` (and each missing folder above it, mode 0700) and keep it private
    (``keep_private``), judged before anything is made in it and again after. OSError when it
    cannot be made."""
    keep_private(folder, what)
    make_missing_private(folder)
    keep_private(folder, what)


def keep_private(folder: str, what: str = "the index folder") -> None:
    """Refuse ``folder`` when another local user could read or replace what it holds
    (``shared_folder``: ``WriteRefused`` naming ``what`` and why), and take group and other
    access off it when it exists. An index holds every note's text unredacted: a vault kept 0700
    is no protection when its copy sits in a 0755 cache that anyone on the machine can open
    with sqlite3, and a folder another user can write in serves what they wrote."""
    why = shared_folder(folder)
    if why is not None:
        raise WriteRefused(
            f"{what} {folder} is refused: {why}",
            hint="it holds every note's text, kept only where no other user can read or replace it; "
            "choose a folder of yours with --index-dir or CURATOR_INDEX_DIR",
        )
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        if os.lstat(folder).st_mode & 0o077:
            os.chmod(folder, PRIVATE, follow_symlinks=False)


def shared_folder(folder: str) -> str | None:
    """Why another local user could read or replace what ``folder`` holds, or None.

    ``folder`` must be a folder of this user's that no one else may write in, not a symlink;
    above it, each folder up to the first one of this user's must be root's, and every one of
    them, that one of the user's and the one holding it too, writable by no one else unless it
    is sticky (as /tmp is: others may add to it, not rename what is not theirs). Otherwise the other user renames ``folder`` away,
    or a folder above it, and puts one of theirs in its place: the index they write is what the
    owner's search then cites. Judged on the path as given and on the path its symlinks lead
    to. A ``folder`` that does not exist yet is judged by the folders above it that do."""
    absolute = os.path.abspath(folder)
    return _path_problem(absolute) or _path_problem(os.path.realpath(absolute))


def _path_problem(path: str) -> str | None:
    me = os.geteuid()
    at = path
    try:
        info = os.lstat(at)
    except (FileNotFoundError, NotADirectoryError):  # not made yet, or cannot be: judged when made
        info = None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            return f"{at} is a symlink"
        if not stat.S_ISDIR(info.st_mode):
            return f"{at} is not a folder"
        if info.st_uid != me:
            return f"it belongs to another user (uid {info.st_uid})"
        if info.st_mode & stat.S_IWOTH or (info.st_mode & stat.S_IWGRP and not _private_group(info.st_gid)):
            # sticky or not: another user may add what is missing (an epoch, the pointer to it)
            return "it is writable by other users, so what it holds may be theirs (remove it; Curator makes a new one)"
    mine = False
    while (parent := os.path.dirname(at)) != at:
        at = parent
        try:
            info = os.stat(at)
        except (FileNotFoundError, NotADirectoryError):
            continue  # made 0700 by make_missing_private, by this user
        if info.st_uid not in (me, 0):
            return f"{at} belongs to another user (uid {info.st_uid})"
        if _others_may_write(info):
            every = "every user (and not sticky)" if info.st_mode & stat.S_IWOTH else "its group"
            return f"{at} is writable by {every}"
        if mine:
            return None  # the folder holding the user's first one: nobody else can rename it
        mine = info.st_uid == me and not stat.S_ISLNK(os.lstat(at).st_mode)
    return None


def _others_may_write(info: os.stat_result) -> bool:
    """Whether a user other than the folder's owner may add, remove or rename its entries."""
    if info.st_mode & stat.S_ISVTX:
        return False  # sticky: only an entry's owner (or the folder's) may remove or rename it
    if info.st_mode & stat.S_IWOTH:
        return True
    return bool(info.st_mode & stat.S_IWGRP) and not _private_group(info.st_gid)


def _private_group(gid: int) -> bool:
    """Whether ``gid`` is this user's own group (named as the user, no other member), as a
    umask 002 system gives every folder a user makes."""
    if gid != os.getegid():
        return False
    try:
        name = pwd.getpwuid(os.geteuid()).pw_name
        group = grp.getgrgid(gid)
    except KeyError:
        return False
    return group.gr_name == name and set(group.gr_mem) <= {name}
