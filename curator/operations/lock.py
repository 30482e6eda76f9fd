"""One writer at a time: a kernel lock (``flock``) on the repository's git directory.

The kernel drops the lock when its holder exits, however it exits (``kill -9``, a full
disk), so there is no stale lock file to judge and take over, no race between two
processes that both find a dead holder, and nothing is ever written for it: the git
directory itself is what is locked (git takes no ``flock`` of its own there).

``flock`` belongs to an open file description, so another thread of the same process is
kept out as another process is; the thread that holds the lock may take it again (an
operation calling another, such as rebase staging a revision and recording a decision).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import threading
import time
from collections.abc import Iterator

from curator.errors import GitLocked
from curator.vault.discover import Vault

POLL_SECONDS = 0.05

_held = threading.local()
"""Per thread: the locks it holds (git directory → depth)."""


def _depths() -> dict[str, int]:
    if not hasattr(_held, "depths"):
        _held.depths = {}
    depths: dict[str, int] = _held.depths
    return depths


def holds(vault: Vault) -> bool:
    """Whether this thread holds the vault lock now."""
    return _depths().get(os.path.realpath(vault.git_dir), 0) > 0


@contextlib.contextmanager
def vault_lock(vault: Vault, what: str, *, wait: float = 0.0) -> Iterator[None]:
    """Hold the vault lock for ``what``; waits up to ``wait`` seconds for another holder, then GitLocked."""
    key = os.path.realpath(vault.git_dir)
    depths = _depths()
    if depths.get(key, 0) > 0:
        depths[key] += 1
        try:
            yield
        finally:
            depths[key] -= 1
        return
    try:
        fd = os.open(vault.git_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as e:
        raise GitLocked(f"cannot open {vault.git_dir}: {e.strerror}") from None
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as e:
                if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise
            if time.monotonic() >= deadline:
                raise GitLocked(
                    f"another curator is changing this vault (it holds the lock on {vault.git_dir})",
                    hint=f"wait for it to finish, then {what} again",
                )
            time.sleep(POLL_SECONDS)
        depths[key] = 1
        try:
            yield
        finally:
            depths.pop(key, None)
    finally:
        os.close(fd)  # closing the last descriptor of the open folder releases the flock
