"""One writer at a time: a lock file inside the git directory, out of the work tree."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from curator.errors import GitLocked
from curator.pids import alive
from curator.vault.discover import Vault


@contextlib.contextmanager
def vault_lock(vault: Vault, what: str) -> Iterator[None]:
    path = os.path.join(vault.git_dir, "curator.lock")
    for _attempt in range(2):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            try:
                with open(path, encoding="utf-8") as f:
                    pid = int(f.read().split()[0])
            except (OSError, ValueError, IndexError):
                pid = -1
            if pid > 0 and not alive(pid):
                # The holder died (kill -9): its journal, if any, is recovered under our lock.
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)
                continue
            raise GitLocked(
                f"another curator process (pid {pid}) holds {path}",
                hint=f"wait for it, or delete the file if no curator is running ({what})",
            ) from None
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(f"{os.getpid()} {what}\n")
        break
    try:
        # Whoever takes the lock first finishes or undoes an apply or propose that was killed.
        from curator.operations.recovery import recover

        for done in recover(vault):
            from curator import output

            output.warn(done)
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def check_git_index_unlocked(vault: Vault) -> None:
    from curator.operations.gitindex import check_unlocked

    check_unlocked(vault)
