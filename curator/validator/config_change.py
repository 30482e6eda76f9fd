"""A commit that changes ``.kp/config.yaml``, named key by key: CI's finding for a person to see.

The config decides what the validator allows (which files are notes, which paths producers own,
the size limits). CI judges a pushed range by its base's config (``validator.history``), so a
commit cannot relax the rules for itself or the commits around it; the change itself still has
to reach the protected branch, and this is what makes a person look at it first. A change that
leaves every key as it was (a comment, the layout) is named as a warning only.
"""

from __future__ import annotations

import stat
from typing import TYPE_CHECKING, Any

from curator.errors import ConfigError
from curator.settings import CONFIG, config_data
from curator.validator.finding import Finding

if TYPE_CHECKING:
    import pygit2

SHOWN = 8
"""Keys named in the message; the rest are counted."""


def config_bytes(repo: pygit2.Repository, tree: pygit2.Tree) -> bytes | None:
    """The config's bytes in ``tree``; None when it holds none (or something that is not a file)."""
    import pygit2

    try:
        entry = tree[CONFIG]
    except KeyError:
        return None
    if not isinstance(entry, pygit2.Blob) or not stat.S_ISREG(entry.filemode):
        return None
    return bytes(entry.data)


def config_finding(repo: pygit2.Repository, commit: pygit2.Commit) -> list[Finding]:
    """KP007 when ``commit`` holds a config that none of its parents holds (a merge that takes
    one parent's config brings in that branch's commit, which was named there)."""
    new = config_bytes(repo, commit.tree)
    olds = [config_bytes(repo, parent.tree) for parent in commit.parents] or [None]
    if any(new == old for old in olds):
        return []
    old = olds[0]
    what = "adds" if old is None else "removes" if new is None else "changes"
    try:
        keys = changed_keys(old, new)
    except ConfigError as e:
        named = f"unreadable: {e.message}"
    else:
        if not keys:
            unchanged = f"this commit {what} {CONFIG} but no key's value (comments or layout)"
            return [Finding("KP007", CONFIG, unchanged, warning=True)]
        named = _named(keys)
    return [
        Finding(
            "KP007",
            CONFIG,
            f"this commit {what} {CONFIG} ({named}); the commits of this range are judged by the "
            "config their base holds, so a person must review this change and let it in past the gate, "
            "after which it is the config later pushes are judged by",
        )
    ]


def changed_keys(old: bytes | None, new: bytes | None) -> list[str]:
    """The dotted keys whose values differ (``notes.include``), sorted; ``ConfigError`` when
    either side cannot be read (the one YAML reader's message)."""
    before, after = _leaves(_data(old)), _leaves(_data(new))
    return sorted(k for k in before.keys() | after.keys() if before.get(k, _MISSING) != after.get(k, _MISSING))


_MISSING = object()


def _data(raw: bytes | None) -> Any:
    return None if raw is None else config_data(raw)


def _leaves(data: Any, prefix: str = "") -> dict[str, Any]:
    """Each value that is not a mapping, by its dotted key; the whole config at ``""``
    when it is not a mapping. Bounded by the one reader's depth limit."""
    if not isinstance(data, dict):
        return {prefix: data} if prefix or data is not None else {}
    out: dict[str, Any] = {}
    for key, value in data.items():
        out.update(_leaves(value, f"{prefix}.{key}" if prefix else str(key)))
    return out


def _named(keys: list[str]) -> str:
    shown = ", ".join(keys[:SHOWN])
    more = len(keys) - SHOWN
    return f"keys {shown}" + (f" and {more} more" if more > 0 else "")
