"""KP001: the proposal's own shape — manifest, files/, changes.diff and events.jsonl."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from curator.proposals.layout import DIFF, FILES, MANIFEST
from curator.validator.finding import Finding
from curator.validator.rules import text
from curator.vault.identity import is_ulid

if TYPE_CHECKING:
    from curator.validator.state import RepoState
    from curator.validator.subject import Subject


def check(subject: Subject, state: RepoState) -> Iterator[Finding]:
    p = subject.proposal
    here = p.rel_dir
    for problem in subject.manifest_problems:
        yield Finding("KP001", f"{here}/{MANIFEST}", f"{problem}; the manifest must follow proposals/v1")
    if not is_ulid(p.id):
        yield Finding("KP001", here, f"the directory name {p.id!r} is not a ULID")
    for name in p.unexpected:
        yield Finding(
            "KP001",
            f"{here}/{name}",
            "not part of a proposal (proposal.yaml, changes.diff, files/, events.jsonl); remove it",
        )
    m = subject.manifest
    if m is None:
        return
    yield from text.check(subject)
    if m.id != p.id:
        yield Finding("KP001", f"{here}/{MANIFEST}", f"id {m.id!r} is not the directory name {p.id!r}")
    elif not is_ulid(m.id):
        yield Finding("KP001", f"{here}/{MANIFEST}", f"id {m.id!r} is not a ULID")
    seen: set[str] = set()
    creates = set()
    for view in subject.changes:
        c = view.change
        if c.path in seen:
            yield Finding("KP001", c.path, "listed twice in changes; one change per path")
        seen.add(c.path)
        if c.op == "create":
            creates.add(c.path)
            if c.base_blob:
                yield Finding("KP001", c.path, "a create has no base_blob (the file must not exist yet)")
            if c.path not in p.files:
                yield Finding("KP001", c.path, f"create without its content at {FILES}/{c.path}")
        else:
            if not c.base_blob:
                yield Finding("KP001", c.path, f"a {c.op} needs base_blob, the blob id of the file it was made against")
            if view.patch is None and subject.diff_error is None and not subject.diff_not_utf8:
                yield Finding("KP001", c.path, f"a {c.op} without its section in {DIFF}")
            elif view.patch is not None:
                if view.patch.op != c.op:
                    yield Finding("KP001", c.path, f"changes says {c.op} but {DIFF} has a {view.patch.op}")
                if view.patch.rename:
                    yield Finding("KP001", c.path, "renames are not supported; propose a delete and a create")
                if view.patch.mode_change:
                    yield Finding("KP001", c.path, "file mode changes are not supported")
                elif view.patch.index_mode not in (None, "100644", _mode(state, c.path)):
                    # 100644 is what libgit2 writes for any file (Curator's own diffs); apply keeps HEAD's mode.
                    yield Finding(
                        "KP001",
                        c.path,
                        f"the diff's index line gives mode {view.patch.index_mode} but the file is "
                        f"{_mode(state, c.path)}; file mode changes are not supported",
                    )
    for rel in p.files:
        if rel not in creates:
            yield Finding("KP001", f"{here}/{FILES}/{rel}", "a file under files/ that no create in changes names")
    if subject.diff_error is not None:
        yield Finding("KP001", f"{here}/{DIFF}", f"{subject.diff_error}; regenerate the diff")
    listed = {v.change.path for v in subject.changes if v.change.op != "create"}
    paths_in_diff: set[str] = set()
    for fp in subject.patches:
        if fp.path in paths_in_diff:
            yield Finding("KP001", fp.path, f"{DIFF} has two sections for this path")
        paths_in_diff.add(fp.path)
        if fp.op == "create":
            yield Finding("KP001", fp.path, f"{DIFF} creates this file; creates go under {FILES}/ as whole files")
        elif fp.path not in listed:
            yield Finding("KP001", fp.path, f"{DIFF} changes this file but changes does not list it")
        if fp.old_path and fp.new_path and fp.old_path != fp.new_path:
            yield Finding("KP001", fp.path, "the diff's old and new paths differ (a rename)")


def _mode(state: RepoState, path: str) -> str:
    """The file's mode in HEAD as a diff writes it (a regular file when HEAD lacks it)."""
    mode = state.head_mode(path)
    return f"{mode:o}" if mode is not None else "100644"
