"""KP008: frontmatter stays a readable YAML mapping and never gains a ``status`` field."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from curator.validator.finding import Finding
from curator.validator.notes import ALREADY_INVALID
from curator.vault import frontmatter

if TYPE_CHECKING:
    from curator.validator.state import RepoState
    from curator.validator.subject import Subject


def _has_status(text: str | None) -> bool:
    meta = frontmatter.meta_or_none(text)
    return meta is not None and "status" in meta


def check(subject: Subject, state: RepoState) -> Iterator[Finding]:
    for view in subject.changes:
        if not view.readable or view.change.op == "delete":
            continue
        post = view.post_text
        if post is None:
            continue
        path = view.change.path
        try:
            meta, _ = frontmatter.read(post)
        except frontmatter.FrontmatterError as e:
            message = f"{e}; the frontmatter must be a YAML mapping"
            pre = view.pre_text if view.change.op == "modify" else None
            if pre is not None and frontmatter.meta_or_none(pre) is None:
                yield Finding("KP008", path, f"{message} ({ALREADY_INVALID})", e.line, warning=True)
            else:
                yield Finding("KP008", path, message, e.line)
            continue
        if "status" in meta and not _has_status(view.pre_text if view.change.op == "modify" else None):
            yield Finding(
                "KP008",
                path,
                "introduces a status: field; lifecycle lives in the index, and producers would clobber it",
            )
