"""Where a proposal's changes come from: work-tree edits, a diff file, or new files."""

from __future__ import annotations

import os
from dataclasses import dataclass

import pygit2

from curator.errors import UsageError
from curator.proposals import diff as diff_mod
from curator.proposals.hunks import HunkConflict
from curator.proposals.hunks import apply as apply_hunks
from curator.proposals.stage import Draft
from curator.settings import Settings
from curator.vault import frontmatter
from curator.vault.discover import Vault
from curator.vault.globs import matches
from curator.vault.identity import mint

STAGED = (
    pygit2.enums.FileStatus.INDEX_NEW
    | pygit2.enums.FileStatus.INDEX_MODIFIED
    | pygit2.enums.FileStatus.INDEX_DELETED
    | pygit2.enums.FileStatus.INDEX_RENAMED
)
WT = pygit2.enums.FileStatus


@dataclass
class WorktreeEdit:
    draft: Draft
    restore: bytes | None
    """What the work-tree file goes back to once the proposal is staged (None: remove it)."""


def unified(path: str, old: bytes | None, new: bytes | None) -> str:
    patch = pygit2.Patch.create_from(old, new, old_as_path=path, new_as_path=path)
    return patch.text or ""


def with_kp_id(content: bytes, minted: list[str], path: str) -> tuple[bytes, str | None]:
    """Content with a kp_id, minting one when the new note has none."""
    try:
        text = content.decode("utf-8")
        meta, _ = frontmatter.read(text)
    except (UnicodeDecodeError, frontmatter.FrontmatterError):
        return content, None  # the validator will say what is wrong
    if meta.get("kp_id"):
        return content, str(meta["kp_id"])
    kp_id = mint()
    minted.append(f"{path} → {kp_id}")
    return frontmatter.update(text, {"kp_id": kp_id}).encode("utf-8"), kp_id


def is_note(path: str, settings: Settings) -> bool:
    return path.split("/", 1)[0] != ".kp" and matches(path, settings.notes.include)


def from_worktree(vault: Vault, settings: Settings, only: list[str], minted: list[str]) -> list[WorktreeEdit]:
    repo = vault.repo
    status = repo.status(untracked_files="all")
    wanted = set(only)
    edits: list[WorktreeEdit] = []
    staged: list[str] = []
    head = repo.head.peel().tree
    for path, flags in sorted(status.items()):
        if wanted and path not in wanted:
            continue
        if not is_note(path, settings) or flags & WT.IGNORED:
            continue
        if flags & STAGED:
            staged.append(path)
            continue
        full = vault.abspath(path)
        if flags & WT.WT_NEW:
            with open(full, "rb") as f:
                content, kp_id = with_kp_id(f.read(), minted, path)
            edits.append(WorktreeEdit(Draft("create", path, content=content, kp_id=kp_id), None))
        elif flags & (WT.WT_MODIFIED | WT.WT_DELETED):
            blob = head[path]
            old = bytes(repo[blob.id].data)
            new = None
            if flags & WT.WT_MODIFIED:
                with open(full, "rb") as f:
                    new = f.read()
            op = "modify" if new is not None else "delete"
            edits.append(WorktreeEdit(Draft(op, path, base_blob=str(blob.id), diff=unified(path, old, new)), old))
    if staged:
        raise UsageError(
            f"{', '.join(staged)} ha{'s' if len(staged) == 1 else 've'} staged changes",
            hint="unstage them (git restore --staged PATH), commit them first, or name only the notes to propose",
        )
    missing = wanted - {e.draft.path for e in edits}
    if missing:
        raise UsageError(f"no uncommitted note edits in: {', '.join(sorted(missing))}")
    return edits


def from_patch(vault: Vault, patch_text: str, minted: list[str]) -> list[Draft]:
    try:
        sections = diff_mod.parse(patch_text)
    except diff_mod.DiffError as e:
        raise UsageError(f"the patch cannot be read: {e}") from None
    if not sections:
        raise UsageError("the patch is empty")
    repo = vault.repo
    drafts = []
    for fp in sections:
        if fp.binary:
            raise UsageError(f"binary patch for {fp.path}; notes are text")
        if fp.op == "create":
            try:
                content = apply_hunks("", fp.hunks).encode("utf-8")
            except HunkConflict as e:
                raise UsageError(f"the patch's new file {fp.path} is malformed: {e.message}") from None
            content, kp_id = with_kp_id(content, minted, fp.path)
            drafts.append(Draft("create", fp.path, content=content, kp_id=kp_id))
            continue
        full = vault.abspath(fp.path)
        try:
            with open(full, "rb") as f:
                current = f.read()
        except OSError:
            raise UsageError(f"the patch changes {fp.path}, which is not in the work tree") from None
        try:
            apply_hunks(current.decode("utf-8"), fp.hunks, delete=fp.op == "delete")
        except (HunkConflict, UnicodeDecodeError) as e:
            why = e.message if isinstance(e, HunkConflict) else "not UTF-8"
            raise UsageError(f"the patch does not apply to {fp.path}: {why}") from None
        # The blob the patch applies to must be readable later: write it to the object store.
        base_blob = str(repo.create_blob(current))
        text = fp.text if fp.text.endswith("\n") else fp.text + "\n"
        drafts.append(Draft(fp.op, fp.path, base_blob=base_blob, diff=text))
    return drafts


def from_files(vault: Vault, pairs: tuple[str, ...], minted: list[str]) -> list[Draft]:
    drafts = []
    for pair in pairs:
        path, sep, source = pair.partition("=")
        if not sep or not path or not source:
            raise UsageError(f"--create takes PATH=FILE, not {pair!r}")
        try:
            with open(os.path.expanduser(source), "rb") as f:
                content = f.read()
        except OSError as e:
            raise UsageError(f"cannot read {source}: {e.strerror}") from None
        content, kp_id = with_kp_id(content, minted, path)
        drafts.append(Draft("create", path, content=content, kp_id=kp_id))
    return drafts
