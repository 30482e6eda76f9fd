"""Where the index may live: outside the vault's work tree, or in a folder of it git ignores.

An agent with file tools can reach the vault; it must not be able to put text into the
index that no note holds (SPEC §4). And a reconcile would walk an index inside the vault
as if it were notes.
"""

from __future__ import annotations

import os

from curator.errors import ConfigError, UsageError
from curator.vault.discover import Vault


def configured_index_dir(vault: Vault, configured: str) -> str:
    """``index.dir`` from ``.kp/config.yaml``: a relative path is read from the config file's
    folder, as paths in a config file are. Inside the vault's work tree it is refused unless
    git ignores it: a reconcile would walk the index as if it were notes, and an agent with
    file tools could reach it.

    The config is committed: whoever writes it chooses for everyone who clones the vault. So it
    may name a folder under the home folder of whoever runs Curator (``~/…``) or a folder of the
    clone itself that git ignores, nothing else: ``/tmp/shared`` or ``../../srv`` would move the
    index of every clone to where its author (or anyone) reads it. A place of one's own choice
    is ``--index-dir`` or ``CURATOR_INDEX_DIR``, which no commit sets."""
    config_dir = os.path.join(vault.root, ".kp")
    if configured == "~" or configured.startswith("~/"):
        home = os.path.realpath(os.path.expanduser("~"))
        path = os.path.normpath(os.path.join(home, configured[2:]))
        if path != home and not path.startswith(home + os.sep):
            raise ConfigError(f"index.dir {configured!r} leaves your home folder", hint=_OWN_PLACE)
        return path
    path = os.path.abspath(os.path.join(config_dir, configured))
    real = inside_vault(vault, path)
    if real:
        raise ConfigError(
            f"index.dir {configured!r} is {real}, inside the vault",
            hint="point it outside the vault, or add it to .gitignore",
        )
    root = os.path.realpath(vault.root)
    if not os.path.realpath(path).startswith(root + os.sep):
        raise ConfigError(
            f"index.dir {configured!r} is outside the vault and your home folder: a committed config "
            "chooses for everyone who clones the vault, so it may name only ~/... or a folder of the "
            "vault that git ignores",
            hint=_OWN_PLACE,
        )
    return path


_OWN_PLACE = "to keep your index elsewhere, use --index-dir or CURATOR_INDEX_DIR"


def explicit_index_dir(vault: Vault, given: str, origin: str) -> str:
    """``--index-dir`` or ``CURATOR_INDEX_DIR`` (``origin``), refused inside the vault as
    ``index.dir`` is."""
    path = os.path.abspath(os.path.expanduser(given))
    real = inside_vault(vault, path)
    if real:
        raise UsageError(
            f"{origin} {given!r} is {real}, inside the vault",
            hint="point it outside the vault, or add it to .gitignore",
        )
    return path


def inside_vault(vault: Vault, path: str) -> str | None:
    """The real path of ``path`` when it lies inside the vault's work tree and git does not
    ignore it (a reconcile would read the index as notes, and an agent with file tools could
    reach it); None when it is fine."""
    root = os.path.realpath(vault.root)
    real = os.path.realpath(path)
    if real == root or real.startswith(root + os.sep):
        rel = os.path.relpath(real, root).replace(os.sep, "/")
        ignored = rel != "." and not rel.startswith(".git/") and rel != ".git" and _git_ignores(vault, rel)
        if not ignored:
            return real
    return None


def _git_ignores(vault: Vault, rel: str) -> bool:
    try:
        return bool(vault.repo.path_is_ignored(rel.rstrip("/") + "/")) or bool(vault.repo.path_is_ignored(rel))
    except Exception:  # pygit2 raises its own errors for odd paths: not ignored, then
        return False
