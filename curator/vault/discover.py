"""Finding the vault: ``--vault``, then ``CURATOR_VAULT``, then the work tree around the cwd.

Discovery reads the file system only; pygit2 is imported by the commands that
need a repository object, so a no-change ``curator index`` stays a stat walk.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from curator.errors import VaultError

if TYPE_CHECKING:
    import pygit2


@dataclass(frozen=True)
class Vault:
    root: str
    """Absolute path of the work tree's top level."""
    git_dir: str
    """Absolute path of the repository's git directory."""
    subfolder: str = ""
    """The folder inside the work tree that --vault or CURATOR_VAULT named, when not its top."""

    @property
    def kp_dir(self) -> str:
        return os.path.join(self.root, ".kp")

    @property
    def config_path(self) -> str:
        return os.path.join(self.root, ".kp", "config.yaml")

    @property
    def proposals_dir(self) -> str:
        return os.path.join(self.root, ".kp", "proposals")

    def abspath(self, rel: str) -> str:
        return os.path.join(self.root, *rel.split("/"))

    def relpath(self, path: str) -> str:
        return os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/")

    def user_path(self, arg: str, cwd: str | None = None) -> str:
        """The vault path of a note path typed on the command line, by one rule for every
        command: a file that exists relative to the current folder, inside the vault, is
        that file; anything else is relative to the vault root. So ``notes/x.md`` means
        the same note from the vault's top, from ``notes/`` (as ``x.md``) and from outside
        the vault with ``--vault``. What is returned is checked by the caller as any path is."""
        here = os.path.join(cwd or os.getcwd(), os.path.expanduser(arg))
        if os.path.isfile(here) or os.path.islink(here):
            # The folder is resolved (a cwd reached through a symlink), the last part is not:
            # a symlinked note stays a symlink for the checks that refuse it.
            folder = os.path.realpath(os.path.dirname(here))
            root = os.path.realpath(self.root)
            if folder == root or folder.startswith(root + os.sep):
                rel = os.path.relpath(os.path.join(folder, os.path.basename(here)), root)
                return rel.replace(os.sep, "/")
        return arg.replace(os.sep, "/").removeprefix("./") if not os.path.isabs(arg) else self.relpath(arg)

    @cached_property
    def repo(self) -> pygit2.Repository:
        import pygit2

        try:
            return pygit2.Repository(self.root)
        except pygit2.GitError as e:
            raise VaultError(f"cannot open the git repository at {self.root}: {e}") from None


def _is_bare_repo(path: str) -> bool:
    return all(os.path.exists(os.path.join(path, p)) for p in ("HEAD", "objects", "refs")) and (
        not os.path.exists(os.path.join(path, ".git"))
    )


def _git_dir_of(top: str) -> str | None:
    dotgit = os.path.join(top, ".git")
    if os.path.isdir(dotgit):
        return dotgit
    if os.path.isfile(dotgit):
        # A worktree or submodule: ".git" is a file naming the real git dir.
        try:
            with open(dotgit, encoding="utf-8") as f:
                line = f.readline().strip()
        except (OSError, UnicodeDecodeError):
            return None
        if line.startswith("gitdir:"):
            target = line[len("gitdir:") :].strip()
            return os.path.normpath(os.path.join(top, target))
    return None


def find_vault(explicit: str | None = None, cwd: str | None = None) -> Vault:
    start = explicit or os.environ.get("CURATOR_VAULT") or cwd or os.getcwd()
    origin = "--vault" if explicit else ("CURATOR_VAULT" if os.environ.get("CURATOR_VAULT") else "")
    start = os.path.abspath(os.path.expanduser(start))
    if not os.path.exists(start):
        raise VaultError(f"vault path does not exist: {start}")
    if not os.path.isdir(start):
        raise VaultError(f"vault path is not a directory: {start}")
    here = start
    while True:
        git_dir = _git_dir_of(here)
        if git_dir:
            sub = os.path.relpath(start, here).replace(os.sep, "/") if origin and here != start else ""
            return Vault(root=here, git_dir=git_dir, subfolder=sub)
        if _is_bare_repo(here) or (here.endswith(".git") and _is_bare_repo(here)):
            raise VaultError(
                f"{here} is a bare git repository; a vault needs a work tree",
                hint="clone it: git clone <bare> <dir>",
            )
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    where = f" ({origin})" if origin else ""
    # Told where the vault is (--vault, CURATOR_VAULT), the person needs no advice to say where.
    hint = "run `git init` there" if origin else "run `git init` there, or pass --vault"
    raise VaultError(f"{start}{where} is not inside a git work tree", hint=hint)
