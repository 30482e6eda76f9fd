"""KP006: identity is minted once and never changes (SPEC §1)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from curator.validator.finding import Finding
from curator.validator.notes import already_used as message
from curator.vault.identity import canonical, is_valid_kp_id, why_invalid
from curator.vault.kp_id import UNREADABLE, of_meta

if TYPE_CHECKING:
    from curator.validator.state import RepoState
    from curator.validator.subject import ChangeView, Subject

def _kp_id(view: ChangeView, text: str | None) -> Any:
    """``kp_id.of_text`` of ``text``, from the frontmatter the view has read already."""
    meta = view.meta(text)
    return UNREADABLE if meta is None else of_meta(meta)


def already_used(state: RepoState, kp_id: str, owner: str, path: str) -> str:
    return message(state, kp_id, owner, path, in_place=False)


def check(subject: Subject, state: RepoState) -> Iterator[Finding]:
    claimed: dict[str, str] = {}
    for view in subject.changes:
        if not view.readable:
            continue
        c = view.change
        if c.op == "delete":
            continue
        post = _kp_id(view, view.post_text)
        if post is UNREADABLE:
            continue  # KP005/KP008/KP009 say why
        if c.op == "create":
            if post is None:
                yield Finding(
                    "KP006",
                    c.path,
                    "a new note without kp_id; add `kp_id: kp:<ULID>` to its frontmatter (`curator mint` prints one)",
                )
                continue
            if not is_valid_kp_id(post):
                yield Finding("KP006", c.path, why_invalid(post))
                continue
            if c.kp_id is not None and c.kp_id != post:
                yield Finding("KP006", c.path, f"changes names kp_id {c.kp_id} but the file has {post}")
            owners = state.kp_id_owners(canonical(post), besides=c.path)
            if owners:
                yield Finding("KP006", c.path, already_used(state, post, owners[0], c.path))
        else:
            pre = _kp_id(view, view.pre_text)
            if pre is UNREADABLE:
                pre = None
            if pre is not None and post != pre:
                what = "removes" if post is None else f"changes it to {post!r}; it"
                yield Finding("KP006", c.path, f"kp_id {pre} {what} never changes once committed")
                continue
            if post is None:
                continue
            if not is_valid_kp_id(post):
                yield Finding("KP006", c.path, why_invalid(post))
                continue
            if c.kp_id is not None and c.kp_id != post:
                yield Finding("KP006", c.path, f"changes names kp_id {c.kp_id} but the note has {post}")
            if pre is None:
                owners = state.kp_id_owners(canonical(post), besides=c.path)
                if owners:
                    yield Finding("KP006", c.path, already_used(state, post, owners[0], c.path))
        if isinstance(post, str):
            key = canonical(post)
            if key in claimed and claimed[key] != c.path:
                yield Finding("KP006", c.path, f"kp_id {post} is given to {claimed[key]} too in this proposal")
            claimed.setdefault(key, c.path)
