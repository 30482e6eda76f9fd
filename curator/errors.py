"""Curator's errors and the exit codes they map to.

Every expected failure is a ``CuratorError``; the handler in
``curator.cli.error_handler`` prints its message as one line and exits with its
code. Anything else that escapes a command is a bug (exit 3).

    CuratorError                 exit 2  usage or environment problem
    ├── UsageError               exit 2  bad arguments or options
    ├── VaultError               exit 2  no vault, not a git work tree, bare repository
    ├── ConfigError              exit 2  .kp/config.yaml cannot be read or is invalid
    ├── IndexError_              exit 2  the index is missing, corrupt or busy
    │   ├── EpochMismatch        exit 2  config and serving epoch disagree where it matters
    │   ├── IndexCorrupt         exit 2  the serving epoch failed SQLite's checks (commands
    │   │                                 that meet it move it aside, rebuild and retry once)
    │   └── IndexUnwritable      exit 2  the index folder cannot be created or written
    ├── EmbedderError            exit 2  an embedder is unavailable or misconfigured
    ├── GitLocked                exit 2  .git/index.lock or a Curator lock is held
    ├── WriteRefused             exit 2  a write would go through a symlink or a non-folder
    ├── DiskRefused              exit 2  the system refused a read or write: read-only, full,
    │                                     a name too long, no permission (``from_os_error``)
    ├── NotFound                 exit 2  a note, proposal or dataset named on the command line
    ├── SourceError              exit 2  a configured source (Zotero library, corpus) cannot be read
    └── CheckFailed              exit 1  a check ran and failed; the vault is untouched
        ├── Rejected             exit 1  a proposal was rejected by the validator
        └── Conflict             exit 1  a proposal no longer applies to the working tree
"""

from __future__ import annotations

import errno
import os

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3


class CuratorError(Exception):
    """An expected failure: one line for the user, a documented exit code."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        if self.hint:
            return f"{self.message} ({self.hint})"
        return self.message


class UsageError(CuratorError):
    pass


class VaultError(CuratorError):
    pass


class ConfigError(CuratorError):
    pass


class IndexError_(CuratorError):
    pass


class EpochMismatch(IndexError_):
    pass


class IndexCorrupt(IndexError_):
    pass


class IndexUnwritable(IndexError_):
    pass


class EmbedderError(CuratorError):
    pass


class GitLocked(CuratorError):
    pass


class WriteRefused(CuratorError):
    """Curator would have written through a symlink (or under a file); nothing was written there."""


class DiskRefused(CuratorError):
    """The operating system said no (read-only file system, disk full, name too long, no
    permission). The operation that met it undid what it had done, as for any other error."""


class NotFound(CuratorError):
    pass


class SourceError(CuratorError):
    """A source cannot be read at all: missing, corrupt, locked past copying, an unknown
    schema. The message names the file; what the index already holds keeps serving."""


class CheckFailed(CuratorError):
    exit_code = EXIT_FAILED


class Rejected(CheckFailed):
    pass


class Conflict(CheckFailed):
    pass


_REFUSALS = {
    errno.EROFS: "the file system is read-only",
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "the disk quota is used up",
    errno.ENAMETOOLONG: "a name is longer than the file system allows",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
}


def from_os_error(e: BaseException) -> CuratorError | None:
    """The named, one-line error for an operating system's refusal, or None when ``e`` is not
    one (that stays a bug). An ``OSError`` carries its errno; libgit2 raises ``OSError`` or its
    own ``GitError`` with the system's message in the text and no errno."""
    if isinstance(e, OSError) and e.errno in _REFUSALS:
        where = e.filename if isinstance(e.filename, str) else None
        return DiskRefused(f"cannot write {where}: {_REFUSALS[e.errno]}" if where else _REFUSALS[e.errno])
    if isinstance(e, OSError) or type(e).__name__ == "GitError":
        text = str(e)
        for code, said in _REFUSALS.items():
            if os.strerror(code) in text:
                return DiskRefused(f"git could not write: {said} ({text.splitlines()[0]})")
    return None


def told(e: BaseException, more: str) -> CuratorError | None:
    """``e`` as the one-line error a user is told (Curator's own, or an operating system's
    refusal, ``from_os_error``) with ``more`` added to its message, or None when it is neither
    (that stays a bug): what an operation half done says of where it stopped."""
    said = e if isinstance(e, CuratorError) else from_os_error(e)
    if said is not None:
        said.message += more
    return said
