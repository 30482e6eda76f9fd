"""Where Curator keeps things outside the vault."""

from __future__ import annotations

import hashlib
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curator.vault import Vault


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


def configured_index_dir(vault: Vault, configured: str) -> str:
    """``index.dir`` from ``.kp/config.yaml``: a relative path is read from the config file's
    folder, as paths in a config file are. Inside the vault's work tree it is refused unless
    git ignores it: a reconcile would walk the index as if it were notes, and an agent with
    file tools could reach it."""
    from curator.errors import ConfigError

    config_dir = os.path.join(vault.root, ".kp")
    path = os.path.abspath(os.path.join(config_dir, os.path.expanduser(configured)))
    real = inside_vault(vault, path)
    if real:
        raise ConfigError(
            f"index.dir {configured!r} is {real}, inside the vault",
            hint="point it outside the vault, or add it to .gitignore",
        )
    return path


def explicit_index_dir(vault: Vault, given: str, origin: str) -> str:
    """``--index-dir`` or ``CURATOR_INDEX_DIR`` (``origin``), refused inside the vault as
    ``index.dir`` is."""
    from curator.errors import UsageError

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
