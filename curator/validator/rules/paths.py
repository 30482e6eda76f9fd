"""KP002 path escapes, KP003 producer-owned paths, KP007 ``.kp/``, KP010 not a note."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from curator.validator.finding import Finding
from curator.vault.globs import matches
from curator.vault.paths import escape_reason, same_as

__all__ = ["check", "escape_reason", "is_curator_path"]

if TYPE_CHECKING:
    from curator.validator.state import RepoState
    from curator.validator.subject import Subject


def is_curator_path(path: str) -> bool:
    return same_as(path.split("/", 1)[0], ".kp")


def check(subject: Subject, state: RepoState) -> Iterator[Finding]:
    settings = state.settings
    for link in subject.proposal.symlinks:
        yield Finding("KP002", link, "the proposal directory contains a symlink; proposals hold plain files only")
    folded: dict[str, str] = {}
    written = {view.change.path for view in subject.changes}
    for view in subject.changes:
        path = view.change.path
        reason = escape_reason(path)
        if reason:
            yield Finding("KP002", path, f"{reason}; a proposal may only write inside the vault")
            continue
        through = state.symlink_on_path(path)
        if through:
            yield Finding("KP002", path, f"the path goes through the symlink {through}; write the real path instead")
        else:
            yield from _folder_clashes(path, written, state)
        other = folded.setdefault(path.casefold(), path)
        if other != path:
            yield Finding("KP002", path, f"differs from {other} only in case; on macOS and Windows they are one file")
        if view.change.op == "create":
            existing = state.casefolded_files.get(path.casefold())
            if existing and existing != path:
                yield Finding(
                    "KP002", path, f"differs from the existing {existing} only in case; edit that note instead"
                )
        if is_curator_path(path):
            yield Finding(
                "KP007", path, "touches .kp/ (proposals and config); change those with Curator's own commands"
            )
            continue
        if matches(path, settings.producers.paths):
            yield Finding(
                "KP003", path, "the path is owned by a producer (producers.paths); the producer would overwrite it"
            )
            continue
        if matches(path, settings.notes.exclude):
            yield Finding("KP010", path, "excluded by notes.exclude; proposals write notes only")
            continue
        if not matches(path, settings.notes.include):
            yield Finding("KP010", path, "not a note (outside notes.include); proposals write notes only")


def _folder_clashes(path: str, written: set[str], state: RepoState) -> Iterator[Finding]:
    """A path whose folder is a file: one this proposal writes, or one in the work tree."""
    parts = path.split("/")
    for i in range(1, len(parts)):
        folder = "/".join(parts[:i])
        if folder in written:
            yield Finding("KP002", path, f"{folder} is a file this proposal also changes; a path cannot be a file and a folder at once")
            return
        if state.is_file(folder):
            yield Finding("KP002", path, f"{folder} is a file in the vault, so it cannot be a folder")
            return
