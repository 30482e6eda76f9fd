"""The settings cache: the config file's parsed YAML, kept in the index's folder outside the vault
and keyed by the file's bytes, so the YAML parser only runs when the file changes.

What is kept is the data as written, never the settings built from it: the defaults and checks
are this release's (``settings.from_dict`` runs every time), so a release that changes a default
reaches every vault at once.
"""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any

from curator.errors import WriteRefused
from curator.fsutil import write_atomic
from curator.locations import default_index_dir, make_private, shared_folder


def _cache_file(vault_root: str) -> str:
    return os.path.join(default_index_dir(vault_root), "settings.json")


def _read_cache(cache: str) -> Any:
    """The cached data when the file is this user's in a folder no one else may write in: the
    config decides what the validator allows, so a cache another user planted would decide it."""
    if shared_folder(os.path.dirname(cache)) is not None:
        return None
    fd = os.open(cache, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, encoding="utf-8") as f:
        info = os.fstat(f.fileno())
        if info.st_uid != os.geteuid() or info.st_mode & 0o022:
            return None
        return json.load(f)


def read(vault_root: str, digest: str) -> dict[str, Any] | None:
    """The kept record (``{"sha256", "data"}``) when it was kept for a config of this ``digest``
    (sha256 of its bytes); None for none, another config's, or one that cannot be trusted."""
    try:
        cached = _read_cache(_cache_file(vault_root))
        if isinstance(cached, dict) and cached.get("sha256") == digest and "data" in cached:
            return cached
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return None


def write(vault_root: str, digest: str, data: Any) -> None:
    """Keep ``data``, parsed from a config of this ``digest``, when JSON holds it as it is."""
    cache = _cache_file(vault_root)
    # The cache only saves time: a folder that cannot be kept private holds none.
    with contextlib.suppress(OSError, TypeError, ValueError, WriteRefused):
        encoded = json.dumps({"sha256": digest, "data": data}).encode("utf-8")
        if json.loads(encoded)["data"] != data:
            raise ValueError("JSON does not hold this YAML as it is (a date, a number as a key)")
        make_private(os.path.dirname(cache))  # the index's folder (locations.make_private)
        write_atomic(cache, encoded, 0o600)
