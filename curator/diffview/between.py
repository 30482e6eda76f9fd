"""The diff between two revisions of a proposal: what the newer one would leave in each file,
against what the older one would have left (an interdiff of post-images).

Each path either revision changes is compared: the file as the old revision proposed it
(or as it is, when the old one leaves it alone) against the file as the new one proposes it.
The result is a list of ``ChangeView``s the diff model draws like any proposal's changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from curator.operations.gather import unified
from curator.proposals.diff import DiffError, parse
from curator.proposals.manifest import Change
from curator.validator.subject import ChangeView

if TYPE_CHECKING:
    from curator.validator.subject import Subject


def _post(view: ChangeView) -> bytes | None:
    """What the file holds after the change (None: it does not exist)."""
    if view.change.op == "create":
        return view.new_bytes
    if view.change.op == "delete":
        return None
    text = view.post_text
    return text.encode("utf-8") if text is not None else None


def _as_is(view: ChangeView) -> bytes | None:
    """The file as it is, for a path the other revision leaves alone."""
    return view.current_bytes if view.current_bytes is not None else view.base_bytes


def between(old: Subject, new: Subject) -> list[ChangeView]:
    """The changes that take the old revision's result to the new revision's, path by path."""
    olds = {v.change.path: v for v in old.changes}
    news = {v.change.path: v for v in new.changes}
    out: list[ChangeView] = []
    for path in sorted(olds.keys() | news.keys()):
        o, n = olds.get(path), news.get(path)
        before = _post(o) if o is not None else _as_is(n) if n is not None else None
        after = _post(n) if n is not None else _as_is(o) if o is not None else None
        if before == after:
            continue
        if before is None:
            out.append(ChangeView(Change(op="create", path=path), new_bytes=after))
            continue
        try:
            sections = parse(unified(path, before, after))
        except DiffError:
            continue
        if not sections:
            continue
        out.append(
            ChangeView(
                Change(op="delete" if after is None else "modify", path=path),
                patch=sections[0],
                base_bytes=before,
                current_bytes=before,
            )
        )
    return out
