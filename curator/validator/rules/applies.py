"""KP005: the proposal applies — against its base and against the tree being validated.

That tree is the work tree for ``curator validate``, the index for the pre-commit
hook (``--staged``) and a commit for CI (``--commits``); findings name it
(``state.candidate``), so a hook's message does not send the user to a work tree
that may well be fine.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from curator.validator.finding import Finding

if TYPE_CHECKING:
    from curator.validator.state import RepoState
    from curator.validator.subject import Subject


def check(subject: Subject, state: RepoState) -> Iterator[Finding]:
    for view in subject.changes:
        if not view.readable:
            continue
        c = view.change
        if c.op == "create":
            if state.lexists(c.path):
                yield Finding(
                    "KP005", c.path, "a create onto a path that already exists; propose a modify of it instead"
                )
            elif state.head_has_dir(c.path):
                yield Finding("KP005", c.path, "a create onto a folder")
            elif state.commits_onto_head and state.head_blob_id(c.path) is not None:
                # The commit would replace what HEAD holds there (a note, a symlink) with no
                # modify's rules judging it: its kp_id, its managed regions, its mode.
                yield Finding(
                    "KP005",
                    c.path,
                    "a create onto a path HEAD holds (removed from the work tree, not committed); "
                    "commit the removal first, or propose a modify of it",
                )
            continue
        if view.patch is None or view.patch.binary:
            continue
        if c.base_blob and view.base_bytes is None:
            yield Finding(
                "KP005",
                c.path,
                f"base_blob {c.base_blob[:12]} is not in this repository; restage the proposal from the current vault",
            )
        elif view.base_conflict is not None:
            e = view.base_conflict
            yield Finding("KP005", c.path, f"does not apply to its base: {e.message}", e.line or None)
        if view.current_conflict is not None:
            e = view.current_conflict
            yield Finding("KP005", c.path, f"conflicts with {state.candidate}: {e.message}", e.line or None)
