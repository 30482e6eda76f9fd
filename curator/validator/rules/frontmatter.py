"""KP008: frontmatter stays a readable YAML mapping, and a note a producer owns gains no lifecycle key.

A lifecycle key (``producers.lifecycle_keys``, default ``status``) added to a producer's
note would be dropped by its next render (``curator.vault.owners`` draws the line); in a
person's own note it is their property (a Dataview ``status: todo``), and a proposal may
carry it there like any other edit the person reviews.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from curator.validator.finding import Finding
from curator.validator.notes import ALREADY_INVALID
from curator.vault import owners

if TYPE_CHECKING:
    from curator.validator.state import RepoState
    from curator.validator.subject import Subject


def check(subject: Subject, state: RepoState) -> Iterator[Finding]:
    for view in subject.changes:
        if not view.readable or view.change.op == "delete":
            continue
        post = view.post_text
        if post is None:
            continue
        path = view.change.path
        read = view.frontmatter(post)
        pre = view.pre_text if view.change.op == "modify" else None
        if read.meta is None:
            e = read.error
            assert e is not None
            message = f"{e}; the frontmatter must be a YAML mapping"
            if pre is not None and view.meta(pre) is None:
                yield Finding("KP008", path, f"{message} ({ALREADY_INVALID})", e.line, warning=True)
            else:
                yield Finding("KP008", path, message, e.line)
            continue
        meta = read.meta
        old = view.meta(pre)
        added = owners.added_lifecycle_keys(meta, old, state.settings.producers.lifecycle_keys)
        if not added:
            continue
        # Owned before or after the change: a proposal that also removes the producer's
        # region (KP004 says so) does not make the key survive its render.
        owner = owners.owner(path, post, meta, state.settings)
        if owner is None and pre is not None:
            owner = owners.owner(path, pre, old, state.settings)
        if owner is not None:
            yield Finding(
                "KP008",
                path,
                f"adds {added[0]}: to a note producer {owner.producer} owns ({owner.why}); its next render "
                f"would drop it, and lifecycle lives in the index: leave {added[0]}: out of this note",
            )
