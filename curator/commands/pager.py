"""Long output at a terminal goes through the pager git would use, as ``git diff`` does.

Git's choice, in its order: ``GIT_PAGER``, the ``core.pager`` setting, ``PAGER``, else ``less``;
an empty value or ``cat`` means none. The command is run by the shell (a pager is often given
with its options), with ``LESS=FRX`` and ``LV=-c`` when they are not set, as git sets them: ``F``
quits at once when the text fits the screen, ``R`` shows the colours, ``X`` leaves the text on the
screen after quitting, so a question asked after it has the diff above it.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pygit2


def git_pager(repo: pygit2.Repository | None) -> str | None:
    """The pager command git would run for ``repo``; None when it would run none."""
    command = os.environ.get("GIT_PAGER")
    if command is None and repo is not None:
        with contextlib.suppress(Exception):  # pygit2 raises its own errors on an odd config
            config = repo.config
            if "core.pager" in config:
                command = str(config["core.pager"])
    if command is None:
        command = os.environ.get("PAGER")
    if command is None:
        command = "less"
    command = command.strip()
    return None if command in ("", "cat") else command


def page(text: str, command: str | None) -> None:
    """``text`` through the pager ``command`` (its whole output read before this returns), or
    printed as it is when there is none or it cannot be started."""
    if command is None:
        _print(text)
        return
    env = dict(os.environ)
    env.setdefault("LESS", "FRX")
    env.setdefault("LV", "-c")
    try:
        pager = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=env)  # as git runs it
    except OSError:
        _print(text)
        return
    assert pager.stdin is not None
    # The person may quit before reading it all: the pipe closes, and that is the end of it.
    with contextlib.suppress(BrokenPipeError, OSError):
        pager.stdin.write(text.encode("utf-8", "replace"))
    with contextlib.suppress(BrokenPipeError, OSError):
        pager.stdin.close()
    if pager.wait() == 127:  # the shell found no such program
        _print(text)


def _print(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
