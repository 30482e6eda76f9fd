"""Decision records: every ``applied``, ``rejected``, ``superseded`` or ``changes-requested`` is a
commit Curator makes.

Only Curator writes ``events.jsonl``, and never into the work tree alone: each
decision is one commit made here through libgit2 (so no hook runs for it), whose
message ends with the trailers ``Kp-Proposal: ULID`` and ``Kp-Event: EVENT``. A
proposal's status is what the events committed in HEAD say; an uncommitted or
staged change to an ``events.jsonl`` is a forgery (KP001), whatever the event,
and CI rejects a commit that changes one without the matching trailers.

``record`` is the one way to decide a proposal without applying it (``reject``,
``supersede`` for the revisions of ``operations.revise``, and ``request_changes``, which
leaves it pending with the reviewer's reason for its author to answer); ``apply``
builds its own tree (the change plus the record) and commits it with ``commit``.
Both take the vault lock themselves.
"""

from __future__ import annotations

import os
import shlex
import stat
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from curator import clock, faults, output
from curator.errors import CheckFailed, Conflict, DiskRefused, NotFound, UsageError, from_os_error
from curator.operations import decision_journal, gitindex, recovery
from curator.operations.committed import committed_events
from curator.proposals import events as events_mod
from curator.proposals.layout import EVENTS, KNOWN, PROPOSALS_DIR
from curator.proposals.trailers import message
from curator.vault import git

if TYPE_CHECKING:
    import pygit2

    from curator.vault.discover import Vault

Entries = dict[str, "tuple[str, int] | None"]
"""Tree changes for a commit: path → (blob id, file mode), or None to remove the path."""


def _signature(repo: pygit2.Repository) -> pygit2.Signature:
    import pygit2

    try:
        return repo.default_signature
    except (KeyError, pygit2.GitError):
        return pygit2.Signature("curator", "curator@localhost")


def commit(
    vault: Vault,
    head: str | None,
    entries: Entries,
    msg: str,
    reflog: str,
    before_move: Callable[[str], None] | None = None,
) -> str:
    """Commit ``entries`` on top of ``head`` and move the branch, unless HEAD moved meanwhile.

    The commit is built from ``head``'s tree without the git index, so the user's
    staged and unstaged work stays as it is; the caller updates the touched index
    entries afterwards. ``before_move(commit id)`` runs just before the branch moves
    (a journal names the commit there).
    """
    import pygit2

    repo = vault.repo
    index = pygit2.Index()
    parents = []
    if head is not None:
        head_commit = repo[head]
        index.read_tree(head_commit.tree)
        parents = [head_commit.id]
    for path, entry in sorted(entries.items()):
        if entry is None:
            if path in index:
                index.remove(path)
        else:
            index.add(git.index_entry(path, entry[0], entry[1]))
    try:
        tree = index.write_tree(repo)
        sig = _signature(repo)
        oid = repo.create_commit(None, sig, sig, msg, tree, parents)
    except pygit2.GitError as e:
        raise _unwritten(vault, e) from e
    now_head = None if repo.head_is_unborn else str(repo.head.target)
    if now_head != head:
        raise Conflict("HEAD moved while Curator was recording a decision; nothing was recorded", hint="try again")
    if before_move is not None:
        before_move(str(oid))
    head_ref = repo.lookup_reference("HEAD")
    try:
        if head_ref.type == pygit2.enums.ReferenceType.SYMBOLIC:
            repo.create_reference_direct(str(head_ref.target), oid, True, message=reflog)
        else:
            repo.set_head(oid)
    except pygit2.GitError as e:
        raise _unwritten(vault, e) from e
    return str(oid)


LOW_ROOM = 1 << 20
"""Below this many free bytes in ``.git``, a commit libgit2 could not write is a full disk."""


def _unwritten(vault: Vault, e: pygit2.GitError) -> Exception:
    """What to raise for a commit libgit2 could not write or point the branch at. On a nearly full
    disk libgit2 may leave a loose object it could not finish and report only that the branch's
    "target OID … doesn't exist", naming no errno; when ``.git`` has less than ``LOW_ROOM`` free,
    that is the disk, said in one line (exit 2). Anything else stays the bug it is."""
    refused = from_os_error(e)
    if refused is not None:
        return refused
    try:
        fs = os.statvfs(vault.repo.path)
    except OSError:
        return e
    if fs.f_bavail * fs.f_frsize < LOW_ROOM:
        return DiskRefused(f"git could not write the commit: no space left on the device ({str(e).splitlines()[0]})")
    return e


def _head_tree(vault: Vault) -> pygit2.Tree | None:
    repo = vault.repo
    return None if repo.head_is_unborn else repo.head.peel().tree


def _holds(tree: pygit2.Tree, path: str) -> bool:
    try:
        tree[path]
    except KeyError:
        return False
    return True


def own_entries(vault: Vault, ulid: str) -> Entries:
    """The proposal's own files a decision commit holds besides its new event: the folder as the
    work tree holds it when HEAD does not hold the proposal yet (the record and what it decided
    travel together); none when HEAD does, so its committed copy (what was reviewed, on a forge
    too) stays as it is: a decision only appends to events.jsonl."""
    head = _head_tree(vault)
    if head is not None and _holds(head, f"{PROPOSALS_DIR}/{ulid}/proposal.yaml"):
        _record_entries(vault, ulid, store=False)  # a symlink in the folder still refuses the decision
        return {}
    return _record_entries(vault, ulid)


def edited_since_committed(vault: Vault, ulid: str) -> list[str]:
    """The files of a proposal HEAD holds that the work tree holds otherwise (its events aside):
    empty when HEAD does not hold it."""
    head = _head_tree(vault)
    rel = f"{PROPOSALS_DIR}/{ulid}"
    if head is None or not _holds(head, f"{rel}/proposal.yaml"):
        return []
    committed: dict[str, str] = {}
    stack: list[tuple[Any, str]] = [(head[rel], rel)]
    while stack:
        tree, at = stack.pop()
        for e in tree:
            path = f"{at}/{e.name}"
            if e.type_str == "tree":
                stack.append((e, path))
            elif path != f"{rel}/{EVENTS}":
                committed[path] = str(e.id)
    on_disk = {path: entry[0] for path, entry in _record_entries(vault, ulid, store=False).items() if entry}
    return sorted(p for p in set(committed) | set(on_disk) if committed.get(p) != on_disk.get(p))


def _record_entries(vault: Vault, ulid: str, *, store: bool = True) -> Entries:
    """The proposal's own files as they are in the work tree (regular files of known names), their
    blobs written to the object store (``store``) or only hashed.

    A symlink, or anything but a folder or a regular file, anywhere in the folder
    (what the validator calls KP002) refuses the decision: Curator neither reads
    nor writes through it.
    """
    import pygit2

    repo = vault.repo
    blob_of = repo.create_blob if store else pygit2.hash
    base = os.path.join(vault.root, PROPOSALS_DIR, ulid)
    found: Entries = {}
    for folder, dirs, names in os.walk(base):
        for name in [*dirs, *names]:
            full = os.path.join(folder, name)
            mode = os.lstat(full).st_mode
            if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                rel = vault.relpath(full)
                what = "a symlink" if stat.S_ISLNK(mode) else "not a regular file"
                raise CheckFailed(
                    f"{rel} is {what} (KP002); Curator decides no proposal whose folder holds one",
                    hint=f"remove it first: rm {shlex.quote(rel)}",
                )
        for name in names:
            full = os.path.join(folder, name)
            rel = vault.relpath(full)
            top = rel[len(PROPOSALS_DIR) + len(ulid) + 2 :].split("/", 1)[0]
            if top not in KNOWN or top == EVENTS:
                continue
            fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
            with os.fdopen(fd, "rb") as f:
                found[rel] = (str(blob_of(f.read())), 0o100644)
    return found


def record(vault: Vault, ulid: str, event: events_mod.EventKind, by: str, reason: str, title: str | None = None) -> str:
    """Decide ``ulid`` without touching the vault's notes: one commit of its record. Returns the commit.

    The commit holds the proposal's folder as it is in the work tree (so the record
    and what it decided travel together) and its events with one new line. Then the
    work tree's ``events.jsonl`` and the folder's index entries are brought level
    with it. A journal (``decision_journal``) names the commit before the branch
    moves: killed before that, nothing is recorded; after, the next command
    finishes what is left, and the user's own staged and unstaged work stays.
    """
    if event not in ("rejected", "superseded", events_mod.CHANGES_REQUESTED):
        raise ValueError(f"record() decides without applying; {event!r} is not such a decision")
    with recovery.locked(vault, f"{event} {ulid}"):
        return _record(vault, ulid, event, by, reason, title)


def reject(vault: Vault, ulid: str, reason: str, *, by: str) -> str:
    """Record a ``rejected`` event (a commit): the one path for ``curator reject``, the review UI and MCP."""
    if not reason.strip():
        raise UsageError("--reason must say why")
    return record(vault, ulid, "rejected", by, reason)


def request_changes(vault: Vault, ulid: str, reason: str, *, by: str) -> str:
    """Record a ``changes-requested`` event (a commit): the proposal stays pending, and its author
    reads the reason (``kp_proposal``) and answers with a revision (``kp_propose`` with ``revises``)."""
    if not reason.strip():
        raise UsageError("--reason must say what to change")
    return record(vault, ulid, events_mod.CHANGES_REQUESTED, by, reason, title=f"Changes requested on proposal {ulid}")


def _record(vault: Vault, ulid: str, event: events_mod.EventKind, by: str, reason: str, title: str | None) -> str:
    folder = os.path.join(vault.root, PROPOSALS_DIR, ulid)
    if not os.path.isdir(folder) or os.path.islink(folder):
        raise NotFound(f"no proposal {ulid} in {PROPOSALS_DIR}/")
    rel_events = f"{PROPOSALS_DIR}/{ulid}/{EVENTS}"
    committed = committed_events(vault, ulid)
    evs, _problems = events_mod.parse(committed or b"")
    state = events_mod.status(evs)
    if state != events_mod.PENDING:
        raise CheckFailed(f"proposal {ulid} is already {state}")
    # Before anything moves: git holding the index, or a symlink in the folder, refuses the decision.
    gitindex.check_unlocked(vault)
    entries = own_entries(vault, ulid)
    try:
        with open(os.path.join(folder, EVENTS), "rb") as f:
            on_disk: bytes | None = f.read()
    except FileNotFoundError:
        on_disk = None
    if on_disk is not None and on_disk != (committed or b""):
        raise CheckFailed(
            f"{rel_events} has changes that Curator did not commit (only Curator writes events)",
            hint=f"restore it first: git checkout HEAD -- {rel_events}"
            if committed is not None
            else f"remove it first: rm {rel_events}",
        )
    reason = " ".join(reason.split())
    line = events_mod.Event(clock.iso(), event, by, reason=reason).to_json() + "\n"
    new_events = (committed or b"") + line.encode("utf-8")
    repo = vault.repo
    events_oid = str(repo.create_blob(new_events))
    entries[rel_events] = (events_oid, 0o100644)
    head = None if repo.head_is_unborn else str(repo.head.target)
    msg = message(title or f"{event.capitalize()} proposal {ulid}", reason, ulid, event, by)
    # Nothing is committed while git holds the index: the entries could not follow the commit.
    gitindex.check_unlocked(vault)
    repo.index.read(force=True)
    journal = decision_journal.Journal(
        ulid,
        event,
        head,
        commit="",
        index={p: [decision_journal.index_entry(vault, p), [e[0], e[1]]] for p, e in entries.items() if e},
        events_before=str(repo.create_blob(on_disk)) if on_disk is not None else None,
        events_after=events_oid,
    )

    def before_move(oid: str) -> None:
        journal.commit = oid
        journal.save(vault)
        faults.point("decide:after-journal")

    oid = commit(vault, head, entries, msg, reflog=f"curator {event} {ulid}", before_move=before_move)
    faults.point("decide:after-commit")
    left = decision_journal.sync(vault, journal, fault="decide:index-locked")
    faults.point("decide:after-index")
    decision_journal.clear(vault)
    for path in left:
        output.warn(f"{path} changed while Curator recorded the decision; left as it is")
    return oid
