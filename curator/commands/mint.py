"""``curator mint``: a fresh ``kp_id``, or one added in place to your own new notes.

A note made outside ``curator new`` (in Obsidian, by a script) has no ``kp_id``, and the
pre-commit hook refuses a new note without one; ``curator adopt`` covers committed notes
only (its change is a proposal against the committed blob). ``mint`` closes that gap for
the person's own files: each new note (not in HEAD) without a ``kp_id`` gets one added to
its frontmatter by the byte-preserving writer, in place, written atomically. It never
touches a note that has a ``kp_id`` or is committed, a template (a note made from a
template copies its frontmatter, so a template must not carry an identity), nor anything
under ``.kp/`` (a proposal's files are an agent's, and keep the identity they were
validated with).

Which notes, three ways: the PATHs named; ``--new``, every new note in the work tree; and
``--staged``, every new note the git index holds, minted in the work tree and the index
alike, which is what the pre-commit hook runs when ``curator hooks install --mint-new``
asked for it.

Whose notes. A file in the work tree says nothing about who wrote it: an agent with file
tools writes with the person's own permissions. What the person does say is what they
name, what they ask for, and what they stage and commit. So ``--staged`` takes only what
the commit being made holds: a note the person is committing anyway, in the form they
staged it. A staged note whose work-tree file holds anything else (an edit not staged, a
write since ``git add``) is left alone and named, and so is every note under
``git commit PATH``'s temporary index (git would commit the kp_id but keep the old bytes in
the real index). Untracked files are never touched by the hook: only a person's own
``mint PATH`` or ``mint --new`` reaches them, and each minted note is named.
"""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
from dataclasses import dataclass
from typing import TYPE_CHECKING

from curator import output
from curator.commands.app import App
from curator.errors import EXIT_FAILED, UsageError
from curator.fsutil import write_atomic
from curator.index.refs import why_not_a_note
from curator.operations import recovery
from curator.proposals.filters import clean
from curator.validator.index_file import index_path
from curator.validator.staged import staged_state, targets
from curator.vault import frontmatter
from curator.vault import kp_id as kp_id_reader
from curator.vault import templates as tmpl
from curator.vault.identity import canonical, mint
from curator.vault.note import NotANote, decode
from curator.vault.tree import scan

if TYPE_CHECKING:
    import pygit2

    from curator.settings import Settings
    from curator.vault.discover import Vault
    from curator.vault.templates import TemplateFolder

BOM = b"\xef\xbb\xbf"


@dataclass
class Outcome:
    path: str
    kp_id: str | None = None
    skipped: str | None = None
    staged: bool = False
    """The note was in the git index: the kp_id is in the work tree until it is added again."""
    restaged: bool = False
    """``--staged``: the kp_id is in the git index too, so the commit holds it."""
    aside: bool = False
    """Not a note that needs one (a kp_id already, a template): ``--new`` only counts these."""


class Refused(Exception):
    """Why a note's bytes cannot take a ``kp_id`` line."""

    def __init__(self, reason: str, *, identified: bool = False) -> None:
        super().__init__(reason)
        self.identified = identified
        """It has a kp_id already: nothing is wrong with it."""


def with_kp_id(raw: bytes, kp_id: str) -> bytes:
    """``raw`` with ``kp_id: KP_ID`` added to its frontmatter (a block made for it when there is
    none), every other byte kept: line endings, the BOM, comments, key order."""
    try:
        text = decode(raw)
        meta, _ = frontmatter.read(text)
    except NotANote as e:
        raise Refused(e.reason) from None
    except frontmatter.FrontmatterError as e:
        raise Refused(f"its frontmatter cannot be read ({e}); fix the YAML first") from None
    present = kp_id_reader.of_meta(meta)
    if present is not None:
        raise Refused(f"has a kp_id already ({present!r}); a kp_id is never replaced", identified=True)
    try:
        new_text = kp_id_reader.added(text, kp_id)
    except frontmatter.FrontmatterError as e:
        raise Refused(f"its frontmatter cannot take a kp_id line: {e}") from None
    return (BOM if raw.startswith(BOM) else b"") + new_text.encode("utf-8")


def _committed(head: pygit2.Tree | None, path: str) -> bool:
    try:
        return head is not None and head[path] is not None
    except (KeyError, ValueError):
        return False


def _one(app: App, path: str, head: pygit2.Tree | None, staged: set[str], templates: list[TemplateFolder]) -> Outcome:
    vault = app.vault()
    why = why_not_a_note(vault, app.settings(), path)
    if why is not None:
        return Outcome(path, skipped=why)
    folder = tmpl.holding(path, templates)
    if folder is not None:
        why = f"a template ({folder.describe()}): notes made from it get their own kp_id"
        return Outcome(path, skipped=why, aside=True)
    if _committed(head, path):
        return Outcome(path, skipped="committed already: `curator adopt` gives committed notes a kp_id")
    full = vault.abspath(path)
    try:
        with open(full, "rb") as f:
            raw = f.read()
    except OSError as e:
        return Outcome(path, skipped=f"cannot read it: {e.strerror}")
    kp_id = mint()
    try:
        new = with_kp_id(raw, kp_id)
    except Refused as e:
        return Outcome(path, skipped=str(e), aside=e.identified)
    write_atomic(full, new, stat.S_IMODE(os.lstat(full).st_mode))
    return Outcome(path, kp_id=kp_id, staged=path in staged)


def _new_notes(vault: Vault, app: App, head: pygit2.Tree | None) -> list[str]:
    """Every note in the work tree that HEAD does not hold: untracked or staged, not ignored."""
    return sorted(f.path for f in scan(vault, app.settings(), sizes=False).notes if not _committed(head, f.path))


def _temporary_index(vault: Vault) -> bool:
    """Whether git commits from an index of its own making (``git commit PATH``): minted there,
    the commit would hold the kp_id while the real index, written after it, would not."""
    if not os.environ.get("GIT_INDEX_FILE"):
        return False
    real = {os.path.realpath(os.path.join(vault.git_dir, name)) for name in ("index", "index.lock")}
    return os.path.realpath(index_path(vault)) not in real


def _stage(vault: Vault, path: str, mode: int, oid: str) -> str | None:
    """Put blob ``oid`` at ``path`` in the index the commit is made from; why not, if it failed."""
    env = {**os.environ, "GIT_INDEX_FILE": index_path(vault)}
    try:
        done = subprocess.run(
            ["git", "-C", vault.root, "update-index", "--cacheinfo", f"{mode:o},{oid},{path}"],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    return None if done.returncode == 0 else (done.stderr.strip().splitlines() or ["git update-index failed"])[-1]


def _staged(vault: Vault) -> list[Outcome]:
    """Mint into each new note the commit holds without a kp_id, in the work tree and the index."""
    state = staged_state(vault)
    repo = vault.repo
    templates = tmpl.folders(state.worktree_bytes) or tmpl.on_disk(vault.root)
    _proposals, notes = targets(state)
    wanted = []
    for path in notes:
        entry = state.entries.entry(path)
        raw = state.worktree_bytes(path)
        if state.head_blob_id(path) is not None or entry is None or raw is None:
            continue  # committed (adopt's), or not a regular file
        if tmpl.holding(path, templates) is not None or kp_id_reader.of_text(_text_or_none(raw)) is not None:
            continue  # a template, or a kp_id (valid or not: the validator judges it)
        wanted.append((path, entry[1], raw))
    if wanted and _temporary_index(vault):
        why = (
            "`git commit PATH` commits from a temporary index, where a kp_id minted would not reach "
            "your own index: `git add` the note and commit without naming paths, or `curator mint PATH` first"
        )
        return [Outcome(path, skipped=why) for path, _mode, _raw in wanted]
    return [_mint_staged(vault, repo, state.settings, path, mode, raw) for path, mode, raw in wanted]


def _text_or_none(raw: bytes) -> str | None:
    try:
        return decode(raw)
    except NotANote:
        return None


def _mint_staged(
    vault: Vault, repo: pygit2.Repository, settings: Settings, path: str, mode: int, staged_bytes: bytes
) -> Outcome:
    why = why_not_a_note(vault, settings, path)
    if why is not None:
        return Outcome(path, skipped=why)
    full = vault.abspath(path)
    try:
        with open(full, "rb") as f:
            raw = f.read()
    except OSError as e:
        return Outcome(path, skipped=f"cannot read it: {e.strerror}")
    if clean(repo, path, raw) != staged_bytes:
        return Outcome(
            path,
            skipped="its file differs from what is staged (edits not added, or written since `git add`): "
            f"look at it, then `curator mint {shlex.quote(path)}` and `git add` it",
        )
    kp_id = mint()
    try:
        new = with_kp_id(raw, kp_id)
    except Refused as e:
        return Outcome(path, skipped=str(e))
    new_blob = clean(repo, path, new)
    if kp_id_reader.read(new_blob) != canonical(kp_id):
        return Outcome(path, skipped="git's filters for it would not keep the kp_id line")
    oid = str(repo.create_blob(new_blob))
    with open(full, "rb") as f:
        if f.read() != raw:
            return Outcome(path, skipped="its file changed while the kp_id was minted; commit again")
    write_atomic(full, new, stat.S_IMODE(os.lstat(full).st_mode))
    failed = _stage(vault, path, mode, oid)
    if failed is not None:
        return Outcome(path, kp_id=kp_id, staged=True, skipped=f"minted in the file, but not staged ({failed}): git add it")
    return Outcome(path, kp_id=kp_id, staged=True, restaged=True)


def run(app: App, paths: tuple[str, ...], new: bool = False, staged: bool = False, quiet: bool = False) -> int:
    """``quiet``: print nothing when there was nothing to mint (the pre-commit hook's way)."""
    if new and staged:
        raise UsageError("--new and --staged name different notes; give one")
    if paths and (new or staged):
        raise UsageError(f"give PATHs or {'--new' if new else '--staged'}, not both")
    if not (paths or new or staged):
        kp_id = mint()
        if app.json:
            output.emit_json({"kp_id": kp_id})
        else:
            output.line(kp_id)
        return 0

    vault = app.vault()
    repo = vault.repo
    with recovery.locked(vault, "mint"):
        if staged:
            outcomes = _staged(vault)
        else:
            head = None if repo.head_is_unborn else repo.head.peel().tree
            in_index = {e.path for e in repo.index}
            found = tmpl.on_disk(vault.root)
            wanted = _new_notes(vault, app, head) if new else list(dict.fromkeys(vault.user_path(p) for p in paths))
            outcomes = [_one(app, p, head, in_index, found) for p in wanted]
    aside = [o for o in outcomes if o.aside] if new else []
    outcomes = [o for o in outcomes if not o.aside] if new else outcomes
    failed = any(o.skipped for o in outcomes)
    if app.json:
        output.emit_json(
            {
                "minted": [
                    {"path": o.path, "kp_id": o.kp_id, "staged": o.staged, "restaged": o.restaged}
                    for o in outcomes
                    if o.kp_id
                ],
                "skipped": [{"path": o.path, "reason": o.skipped} for o in outcomes if o.skipped],
            }
        )
        return EXIT_FAILED if failed else 0
    if outcomes or not quiet:
        _print(outcomes, aside, new, staged)
    return EXIT_FAILED if failed else 0


def _print(outcomes: list[Outcome], aside: list[Outcome], new: bool, staged: bool) -> None:
    readd = []
    for o in outcomes:
        if o.kp_id:
            where = " (in the file and the commit)" if o.restaged else ""
            output.line(f"{output.safe_path(o.path)}  {o.kp_id}{where}")
            if o.staged and not o.restaged:
                readd.append(o.path)
        if o.skipped:
            output.line(f"skipped {output.safe_path(o.path)}: {o.skipped}")
    if readd:
        output.line(f"next: git add {' '.join(shlex.quote(p) for p in readd)} (the kp_id is in the work tree)")
    if new and not outcomes:
        had = f" ({len(aside)} new note(s) have one or are templates)" if aside else ""
        output.line(f"no new note without a kp_id{had}")
    elif staged and not outcomes:
        output.line("no new staged note without a kp_id")
