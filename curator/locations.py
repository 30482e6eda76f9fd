"""Where Curator keeps things outside the vault."""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
import sysconfig

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
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "curator")


def vault_key(vault_root: str) -> str:
    """A stable directory name for a vault: readable stem plus a hash of its real path."""
    real = os.path.realpath(vault_root)
    digest = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in os.path.basename(real))
    return f"{stem[:40] or 'vault'}-{digest}"


def default_index_dir(vault_root: str) -> str:
    return os.path.join(cache_root(), vault_key(vault_root))


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


def make_private(folder: str) -> None:
    """Make ``folder`` (and each missing folder above it) readable by its user only, and take
    group and other access off it when it exists and is the user's. An index holds every note's
    text unredacted: a vault kept 0700 is no protection when its copy sits in a 0755 cache that
    anyone on the machine can open with sqlite3. OSError when it cannot be made."""
    make_missing_private(folder)
    st = os.stat(folder)
    if stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and st.st_mode & 0o077:
        os.chmod(folder, PRIVATE)
