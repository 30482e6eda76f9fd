"""The detect-secrets plugins the leak scanner runs (``leak_patterns.SKIP_PLUGINS`` says which
not), read from the library once per installed version and kept in Curator's cache folder.

Importing detect-secrets to list its plugins imports requests, urllib3 and multiprocessing with
it: 0.3 s of every process that scans (the pre-commit hook on a commit with notes, a first
verdict). Reading the kept patterns and compiling them takes a hundredth of that. What is kept
is trusted as the scanner's own patterns only from a private folder and a file of this user's
(``fsutil.read_own``): one another user planted would decide what the scanner misses.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys
from collections.abc import Callable
from functools import lru_cache
from importlib import util
from typing import Any

from curator.errors import CuratorError
from curator.fsutil import read_own, write_atomic
from curator.leak_patterns import PRECHECK, SKIP_PLUGINS
from curator.locations import cache_root, make_private, shared_folder

Plugin = tuple[str, str, list[re.Pattern[str]], Callable[[str], bool] | None]
"""(class name, secret type, patterns, pre-check) of a detect-secrets plugin the scanner runs."""
KEPT_SCHEMA = "leak-patterns/1"
KEPT_MAX_BYTES = 1024 * 1024


@lru_cache(maxsize=1)
def plugins() -> list[Plugin]:
    """Each detect-secrets plugin the scanner runs, read from the library once per installed
    version and kept (``kept_folder``): importing detect-secrets to list its plugins imports
    requests, urllib3 and multiprocessing with it, 0.3 s of every process that scans (the
    pre-commit hook on a commit with notes, a first verdict); reading the kept patterns and
    compiling them takes a hundredth of that."""
    key = _library_key()
    folder = kept_folder()
    kept = _read_kept(folder, key) if folder is not None else None
    if kept is not None:
        return kept
    found = _from_library()
    if folder is not None:
        _keep(folder, key, found)
    return found


def _from_library() -> list[Plugin]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    found = []
    classes: list[Any] = list(get_mapping_from_secret_type_to_class().values())
    for cls in classes:
        if cls.__name__ in SKIP_PLUGINS:
            continue
        denylist = list(getattr(cls(), "denylist", ()))
        if denylist:
            found.append((cls.__name__, str(cls.secret_type), denylist, PRECHECK.get(cls.__name__)))
    return found


def kept_folder() -> str | None:
    """Where the patterns are kept: Curator's cache folder, private to its user; None (keep
    nothing, read nothing) where another user could write there: a pattern file they planted
    would decide what the scanner misses."""
    folder = os.path.join(cache_root(), "leak-patterns")
    return None if shared_folder(folder) is not None else folder


def _library_key() -> str:
    """The installed detect-secrets (its plugin files by name, size and time), this scanner's
    choice of plugins and the Python that compiles them: any change reads the library again."""
    h = hashlib.sha256(f"{KEPT_SCHEMA}\0{sys.version}\0{sorted(SKIP_PLUGINS)}\0".encode())
    spec = util.find_spec("detect_secrets")
    root = os.path.dirname(spec.origin) if spec is not None and spec.origin else None
    h.update(f"{root}\n".encode("utf-8", "surrogateescape"))
    for sub in ("", "plugins", os.path.join("core", "plugins")):
        here = os.path.join(root, sub) if root else ""
        try:
            names = sorted(os.listdir(here)) if here else []
        except OSError:
            names = []
        for name in names:
            if name.endswith(".py"):
                st = os.stat(os.path.join(here, name))
                h.update(f"{sub}/{name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _read_kept(folder: str, key: str) -> list[Plugin] | None:
    raw = read_own(os.path.join(folder, f"{key}.json"), KEPT_MAX_BYTES)
    if raw is None:
        return None
    try:
        data = json.loads(raw)
        if data["schema"] != KEPT_SCHEMA or data["key"] != key:
            return None
        found: list[Plugin] = []
        for name, kind, patterns in data["plugins"]:
            if not (isinstance(name, str) and isinstance(kind, str) and patterns):
                return None
            compiled = [re.compile(_text(source), _flags(flags)) for source, flags in patterns]
            found.append((name, kind, compiled, PRECHECK.get(name)))
    except (ValueError, TypeError, KeyError, re.error):
        return None  # not what Curator wrote: read the library again
    return found or None


def _keep(folder: str, key: str, found: list[Plugin]) -> None:
    """Keep ``found``; a folder that cannot be made private or written keeps nothing."""
    rows = [[name, kind, [[p.pattern, p.flags] for p in patterns]] for name, kind, patterns, _check in found]
    data = json.dumps({"schema": KEPT_SCHEMA, "key": key, "plugins": rows}).encode()
    with contextlib.suppress(OSError, CuratorError, TypeError):
        make_private(folder, "the leak scanner's pattern folder")
        write_atomic(os.path.join(folder, f"{key}.json"), data, 0o600)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("not a pattern")
    return value


def _flags(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value & ~0x1FF:
        raise TypeError("not re flags")
    return value
