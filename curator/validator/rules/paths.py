"""KP002 path escapes, KP003 producer-owned paths, KP007 ``.kp/``, KP010 not a note (a path git ignores included).

Each path is judged by ``curator.vault.paths`` (the one judgement every surface uses) and
then on the tree being validated: no symlink and no submodule on the way to it.
``path_findings`` is what ``kp_propose`` asks before it reads anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from curator.validator.finding import Finding
from curator.vault.paths import escape_reason, same_file_key, write_refusal

if TYPE_CHECKING:
    from curator.validator.state import RepoState
    from curator.validator.subject import Subject

CODES = {"escape": "KP002", "curator": "KP007", "producer": "KP003", "excluded": "KP010", "not-included": "KP010"}
WHAT_TO_DO = {
    "escape": "a proposal may only write inside the vault",
    "curator": "change those with Curator's own commands",
    "producer": "",
    "excluded": "proposals write notes only",
    "not-included": "proposals write notes only",
}


def path_findings(path: str, state: RepoState) -> list[Finding]:
    """What is wrong with a proposal writing ``path`` in the tree ``state`` holds (empty: nothing)."""
    refusal = write_refusal(path, state.settings)
    if refusal is not None and refusal.kind == "escape":
        return [Finding("KP002", path, f"{refusal.reason}; {WHAT_TO_DO['escape']}")]
    found = []
    through = state.symlink_on_path(path)
    if through:
        found.append(Finding("KP002", path, f"the path goes through the symlink {through}; write the real path instead"))
    gitlink = state.gitlink_on_path(path)
    if gitlink:
        found.append(
            Finding("KP002", path, f"{gitlink} is a submodule (another repository); a proposal writes this vault only")
        )
    if refusal is None and state.git_ignored(path):
        # What git ignores is no note (the index, kp_read and the tree walk all say so), and a
        # proposal's answer about it (its blob, whether it exists) would speak of a private file.
        found.append(Finding("KP010", path, "git ignores this path (.gitignore), so it is not a note of the vault"))
    if refusal is not None:
        if refusal.kind == "curator":
            message = "touches .kp/ (proposals and config); change those with Curator's own commands"
        else:
            message = "; ".join(filter(None, (refusal.reason, WHAT_TO_DO[refusal.kind])))
        found.append(Finding(CODES[refusal.kind], path, message))
    return found


def check(subject: Subject, state: RepoState) -> Iterator[Finding]:
    for link in subject.proposal.symlinks:
        yield Finding("KP002", link, "the proposal directory contains a symlink; proposals hold plain files only")
    folded: dict[str, str] = {}
    written = {view.change.path for view in subject.changes}
    for view in subject.changes:
        path = view.change.path
        found = path_findings(path, state)
        yield from found
        if escape_reason(path):
            continue  # no path of the vault: nothing more to say about it
        if not any(f.code == "KP002" for f in found):
            yield from _folder_clashes(path, written, state)
        key = same_file_key(path)
        other = folded.setdefault(key, path)
        if other != path:
            yield Finding(
                "KP002", path, f"differs from {other} only in case or spelling; on macOS or Windows they are one file"
            )
        if view.change.op == "create":
            existing = state.same_file_keys.get(key)
            if existing and existing != path:
                yield Finding(
                    "KP002",
                    path,
                    f"differs from the existing {existing} only in case or spelling (on macOS or Windows they are "
                    "one file); edit that note instead",
                )


def _folder_clashes(path: str, written: set[str], state: RepoState) -> Iterator[Finding]:
    """A path whose folder is a file: one this proposal writes, or one in the work tree."""
    parts = path.split("/")
    for i in range(1, len(parts)):
        folder = "/".join(parts[:i])
        if folder in written:
            yield Finding(
                "KP002",
                path,
                f"{folder} is a file this proposal also changes; a path cannot be a file and a folder at once",
            )
            return
        if state.is_file(folder):
            yield Finding("KP002", path, f"{folder} is a file in the vault, so it cannot be a folder")
            return
