"""Whether a tree holds a proposal's post-images: each path it changes as the change makes it.

What an ``applied`` record is checked against (``rules/events.py`` for ``apply --no-commit``,
``decision.py`` for a decision commit CI reads).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from curator.proposals.hunks import HunkConflict
from curator.proposals.hunks import apply as apply_hunks

if TYPE_CHECKING:
    from curator.validator.state import RepoState
    from curator.validator.subject import Subject


def holds_post_images(subject: Subject, state: RepoState) -> bool:
    """True when every path the proposal changes holds, in the candidate, its change applied to HEAD's
    (both as ``git add`` stores them: line endings by the path's attributes)."""
    if not subject.changes:
        return False
    for view in subject.changes:
        c = view.change
        now = state.worktree_bytes(c.path)
        if c.op == "delete":
            if now is not None:
                return False
        elif c.op == "create":
            if now is None or view.new_bytes is None or state.clean(c.path, now) != state.clean(c.path, view.new_bytes):
                return False
        else:
            before = state.head_bytes(c.path)
            if view.patch is None or before is None or now is None:
                return False
            try:
                post = apply_hunks(before.decode("utf-8"), view.patch.hunks)
            except (HunkConflict, UnicodeDecodeError):
                return False
            # Compared as git stores them: apply commits the change's repository form.
            if state.clean(c.path, now) != state.clean(c.path, post.encode("utf-8")):
                return False
    return True
