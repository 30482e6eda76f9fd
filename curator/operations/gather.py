"""Where a proposal's changes come from: work-tree edits, a diff file, or new files.

Every path is checked (``curator.vault.paths``) before a file is read, and
nothing here writes: the drafts, the files to restore and any base blob the
object store lacks go to ``stage.stage()``, which writes only a valid proposal.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import pygit2

from curator.errors import UsageError
from curator.operations.propose_journal import Restore
from curator.operations.stage import Draft
from curator.proposals import diff as diff_mod
from curator.proposals.filters import clean, smudge
from curator.proposals.hunks import HunkConflict
from curator.proposals.hunks import apply as apply_hunks
from curator.proposals.manifest import Op
from curator.settings import Settings
from curator.vault import frontmatter, git
from curator.vault import kp_id as kp_id_reader
from curator.vault.discover import Vault
from curator.vault.identity import mint
from curator.vault.paths import checked_join, escape_reason, is_note_path, unsafe_reason

STAGED = (
    pygit2.enums.FileStatus.INDEX_NEW
    | pygit2.enums.FileStatus.INDEX_MODIFIED
    | pygit2.enums.FileStatus.INDEX_DELETED
    | pygit2.enums.FileStatus.INDEX_RENAMED
)
WT = pygit2.enums.FileStatus


@dataclass
class Collected:
    drafts: list[Draft] = field(default_factory=list)
    restores: list[Restore] = field(default_factory=list)
    """Work-tree files that go back to HEAD (or away) once the proposal holds their edits."""
    blobs: dict[str, bytes] = field(default_factory=dict)
    """Base blobs the object store lacks, written only if the proposal is staged."""
    skipped_new: list[str] = field(default_factory=list)
    """Untracked notes left alone (no --include-new)."""


def unified(path: str, old: bytes | None, new: bytes | None) -> str:
    patch = pygit2.Patch.create_from(old, new, old_as_path=path, new_as_path=path)
    return patch.text or ""


def with_kp_id(content: bytes, minted: list[str], path: str) -> tuple[bytes, str | None]:
    """Content with a kp_id, minting one when the new note has none."""
    try:
        text = content.decode("utf-8")
        present = kp_id_reader.of_meta(frontmatter.read(text)[0])
        if present is not None:
            return content, str(present)
        kp_id = mint()
        new_text = kp_id_reader.added(text, kp_id)
    except (UnicodeDecodeError, frontmatter.FrontmatterError):
        return content, None  # the validator will say what is wrong
    minted.append(f"{path} → {kp_id}")
    return new_text.encode("utf-8"), kp_id


def _read(vault: Vault, path: str) -> bytes:
    with open(checked_join(vault.root, path), "rb") as f:
        return f.read()


def from_worktree(
    vault: Vault, settings: Settings, only: list[str], minted: list[str], *, include_new: bool = False
) -> Collected:
    """Uncommitted edits to tracked notes; new untracked notes when named or with ``include_new``."""
    repo = vault.repo
    status = repo.status(untracked_files="all")
    wanted = set(only)
    out = Collected()
    staged: list[str] = []
    head = repo.head.peel().tree
    for path, flags in sorted(status.items()):
        if wanted and path not in wanted:
            continue
        if not is_note_path(path, settings) or flags & WT.IGNORED:
            continue
        if flags & STAGED:
            staged.append(path)
            continue
        if unsafe_reason(vault.root, path):
            continue  # under a symlinked folder: not a note of this vault
        if flags & WT.WT_NEW:
            if not (include_new or path in wanted):
                out.skipped_new.append(path)
                continue
            raw = _read(vault, path)
            content, kp_id = with_kp_id(clean(repo, path, raw), minted, path)
            out.drafts.append(Draft("create", path, content=content, kp_id=kp_id))
            out.restores.append(Restore(path, str(pygit2.hash(raw)), None))
        elif flags & (WT.WT_MODIFIED | WT.WT_DELETED):
            entry = head[path]
            old = git.blob(repo, entry.id)
            now = _read(vault, path) if flags & WT.WT_MODIFIED else None
            new = clean(repo, path, now) if now is not None else None
            # Both sides as `git add` would store them now: a note committed with CRLF before
            # Curator's eol=lf attribute differs from its work-tree copy only in line endings,
            # which is no edit of the user's.
            old_clean = clean(repo, path, old)
            if new == old_clean:
                continue
            op: Op = "modify" if new is not None else "delete"
            out.drafts.append(Draft(op, path, base_blob=str(entry.id), diff=unified(path, old_clean, new)))
            edited = str(pygit2.hash(now)) if now is not None else None
            out.restores.append(_restore_to(repo, path, old, edited, entry.filemode))
    if staged:
        raise UsageError(
            f"{', '.join(staged)} ha{'s' if len(staged) == 1 else 've'} staged changes",
            hint="unstage them (git restore --staged PATH), commit them first, or name only the notes to propose",
        )
    missing = wanted - {d.path for d in out.drafts}
    if missing:
        raise UsageError(f"no uncommitted note edits in: {', '.join(sorted(missing))}")
    return out


def _restore_to(repo: pygit2.Repository, path: str, old: bytes, edited: str | None, mode: int) -> Restore:
    checkout = smudge(repo, path, old)
    return Restore(path, edited, str(pygit2.hash(checkout)), mode, checkout)


def from_patch(vault: Vault, patch_text: str, minted: list[str]) -> Collected:
    """A git diff or plain ``diff -u`` output, checked against the work tree and re-rendered as a git diff."""

    def existing(name: str) -> str | None:
        # A name in a plain diff's header, read as a path typed here (relative to the current
        # folder inside the vault, else to the vault root): the vault path of an existing file.
        rel = vault.user_path(name)
        if escape_reason(rel) or unsafe_reason(vault.root, rel):
            return None
        return rel if os.path.isfile(vault.abspath(rel)) else None

    try:
        sections = diff_mod.parse_input(patch_text, existing)
    except diff_mod.DiffError as e:
        raise UsageError(f"the patch cannot be read: {e}") from None
    if not sections:
        raise UsageError("the patch is empty")
    repo = vault.repo
    out = Collected()
    for fp in sections:
        if fp.binary:
            raise UsageError(f"binary patch for {fp.path}; notes are text")
        if fp.mode_change or fp.rename:
            what = "a file mode change" if fp.mode_change else "a rename"
            raise UsageError(f"the patch holds {what} for {fp.path}; propose content edits only")
        if fp.op == "create":
            try:
                content = apply_hunks("", fp.hunks).encode("utf-8")
            except HunkConflict as e:
                raise UsageError(f"the patch's new file {fp.path} is malformed: {e.message}") from None
            # An unsafe path is judged by the validator (KP002); nothing is read or written for it.
            content, kp_id = with_kp_id(content, minted, fp.path)
            out.drafts.append(Draft("create", fp.path, content=content, kp_id=kp_id))
            continue
        reason = unsafe_reason(vault.root, fp.path)
        if reason:
            raise UsageError(f"the patch changes {fp.path!r}: {reason}; a proposal may only write inside the vault")
        try:
            current = clean(repo, fp.path, _read(vault, fp.path))
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            raise UsageError(f"the patch changes {fp.path}, which is not in the work tree") from None
        try:
            post = apply_hunks(current.decode("utf-8"), fp.hunks, delete=fp.op == "delete")
        except (HunkConflict, UnicodeDecodeError) as e:
            why = e.message if isinstance(e, HunkConflict) else "not UTF-8"
            raise UsageError(f"the patch does not apply to {fp.path}: {why}") from None
        base_blob = str(pygit2.hash(current))
        if repo.get(base_blob) is None:
            out.blobs[base_blob] = current
        new = None if fp.op == "delete" else post.encode("utf-8")
        out.drafts.append(Draft(fp.op, fp.path, base_blob=base_blob, diff=unified(fp.path, current, new)))
    return out


def from_files(vault: Vault, pairs: tuple[str, ...], minted: list[str]) -> Collected:
    out = Collected()
    for pair in pairs:
        path, sep, source = pair.partition("=")
        if not sep or not path or not source:
            raise UsageError(f"--create takes PATH=FILE, not {pair!r}")
        try:
            with open(os.path.expanduser(source), "rb") as f:
                content = f.read()
        except OSError as e:
            raise UsageError(f"cannot read {source}: {e.strerror}") from None
        if escape_reason(path) is None:
            content = clean(vault.repo, path, content)
        # The target path is judged by the validator (KP002) before anything is written.
        content, kp_id = with_kp_id(content, minted, path)
        out.drafts.append(Draft("create", path, content=content, kp_id=kp_id))
    return out
