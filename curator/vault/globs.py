"""Gitignore-style globs for include patterns and producer-owned paths.

fnmatch lets ``*`` cross ``/``; these globs do not: ``*`` stays inside one path
segment and ``**`` spans folders. A pattern without a ``/`` matches at any depth
(``*.md`` matches ``a/b.md``), as in ``.gitignore``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache


def _translate(pattern: str) -> str:
    anchored = "/" in pattern.rstrip("/")
    pattern = pattern.lstrip("/")
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("/**", i) and i + 3 == n:
            out.append("/.*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            j = pattern.find("]", i + 1)
            if j == -1:
                out.append(re.escape(c))
                i += 1
            else:
                body = pattern[i + 1 : j].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = j + 1
        else:
            out.append(re.escape(c))
            i += 1
    prefix = "" if anchored else "(?:.*/)?"
    return f"^{prefix}{''.join(out)}$"


@lru_cache(maxsize=256)
def compile_globs(patterns: tuple[str, ...]) -> re.Pattern[str]:
    if not patterns:
        return re.compile(r"(?!)")
    return re.compile("|".join(f"(?:{_translate(p)})" for p in patterns))


def matches(path: str, patterns: Iterable[str]) -> bool:
    """True when the vault-relative POSIX ``path`` matches any of ``patterns``."""
    return compile_globs(tuple(patterns)).match(path) is not None
