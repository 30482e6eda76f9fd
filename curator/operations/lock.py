"""One writer at a time: a kernel lock on ``.git/curator.lock``, out of the work tree.

The lock is ``flock`` on the file, not the file's existence: the kernel drops it when
its holder exits, however it exits (``kill -9``, a full disk), so there is no stale
lock to judge and take over, and no race between two processes that both find a dead
holder. The file itself is never removed (removing it would let a newcomer lock a new
file while an old holder still locks the unlinked one); what it holds, the holder's pid
and what it is doing, is only for the message a second process prints.

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

NAME = "curator.lock"
POLL_SECONDS = 0.05

_held = threading.local()
"""Per thread: the locks it holds (git directory → depth)."""


def _depths() -> dict[str, int]:
    if not hasattr(_held, "depths"):
        _held.depths = {}
    depths: dict[str, int] = _held.depths
    return depths


def lock_path(vault: Vault) -> str:
    return os.path.join(vault.git_dir, NAME)


def holds(vault: Vault) -> bool:
    """Whether this thread holds the vault lock now."""
    return _depths().get(os.path.realpath(vault.git_dir), 0) > 0


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        return ""
    pid, _sep, what = text.partition(" ")
    return f" (pid {pid}: {what})" if pid.isdigit() else ""


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
    path = lock_path(vault)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    except OSError as e:
        raise GitLocked(f"cannot open {path}: {e.strerror}", hint="is the repository writable?") from None
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
                    f"another curator holds {path}{_holder(fd)}",
                    hint=f"wait for it to finish, then {what} again",
                )
            time.sleep(POLL_SECONDS)
        with contextlib.suppress(OSError):
            # Only for the message above: a full disk must not stop the lock from working.
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {what}\n".encode("utf-8", "replace"), 0)
        depths[key] = 1
        try:
            yield
        finally:
            depths.pop(key, None)
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
    finally:
        os.close(fd)  # closing the last descriptor of the open file releases the flock
