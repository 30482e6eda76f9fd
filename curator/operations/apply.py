"""Applying a proposal: all of it or none of it, and nothing of the user's disturbed.

Under the vault lock: re-validate; let libgit2 apply the diff, re-anchored to
where ``git apply`` would put each hunk, to the touched files' current contents in
a scratch repository (``shadow``) and check its output against Curator's engine;
plan every file and journal the plan; write the work tree; verify every result;
append the ``applied`` event; then commit exactly the touched paths (and the
proposal's own record) on top of HEAD without going through the git index. Only
the touched entries of the index are updated (``gitindex``), so the user's staged
and unstaged work elsewhere is untouched; where a touched file also carries the
user's own edits, the commit gets the change applied to HEAD's version and the
user's edits stay unstaged on top.

Line endings follow git's attributes: the diff applies to the files' repository
form (git's clean filters), the commit holds that form, and the work tree gets
what ``git checkout`` would write (the smudge filters).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

import pygit2

from curator import clock, faults
from curator import settings as settings_mod
from curator.errors import CheckFailed, Conflict, CuratorError, NotFound, Rejected, told
from curator.operations import apply_journal as jr
from curator.operations import decisions, gitindex, recovery, shadow, worktree
from curator.proposals import events as events_mod
from curator.proposals import store, trailers
from curator.proposals.diff import reanchor
from curator.proposals.filters import smudge
from curator.proposals.hunks import HunkConflict, same_places
from curator.proposals.hunks import place as place_hunks
from curator.proposals.layout import EVENTS, PROPOSALS_DIR
from curator.settings import CONFIG, Settings
from curator.validator import verdict_key, verdicts
from curator.validator.state import RepoState
from curator.validator.subject import ChangeView
from curator.validator.verdict import ProposalReport
from curator.vault import git, packs
from curator.vault.discover import Vault


@dataclass
class Applied:
    report: ProposalReport
    commit: str | None
    paths: list[str]


Progress = Callable[[str, int, int], None]
"""Told what an apply is doing as it goes: (step, done, total); total 0 for a step not counted."""


def _quiet(_step: str, _done: int, _total: int) -> None:
    pass


def _message(report: ProposalReport) -> str:
    m = report.subject.manifest if report.subject else None
    assert m is not None
    return trailers.message(m.title, m.rationale, m.id, "applied", str(m.author))


def _commit_bytes(view: ChangeView, result: bytes | None, head_bytes: bytes | None) -> bytes | None:
    """What the commit holds for this path: the change applied to HEAD's version."""
    c = view.change
    if c.op == "create":
        return view.new_bytes
    if c.op == "delete":
        return None
    if head_bytes is not None and view.current_bytes == head_bytes:
        return result
    assert view.patch is not None and view.current_bytes is not None
    separate = Conflict(
        f"{c.path} has uncommitted edits the change cannot be separated from",
        hint="commit or stash your edits to it, then apply again",
    )
    try:
        head_text = (head_bytes or b"").decode("utf-8")
        committed, placed = place_hunks(head_text, view.patch.hunks)
    except (HunkConflict, UnicodeDecodeError):
        raise separate from None
    # The validator judged the hunks where they apply to the work tree; the commit must hold that
    # change, not one the same lines make elsewhere in HEAD's version.
    if not same_places(head_text, placed, view.current_bytes.decode("utf-8"), view.current_placed, view.patch.hunks):
        raise separate
    return committed.encode("utf-8")


def _results(report: ProposalReport) -> dict[str, bytes | None]:
    """libgit2's output for every modify and delete (repository form), checked against Curator's engine."""
    subject = report.subject
    assert subject is not None
    files: dict[str, bytes] = {}
    sections = []
    expected: dict[str, bytes | None] = {}
    for view in subject.changes:
        if view.change.op == "create":
            continue
        assert view.patch is not None and view.current_bytes is not None
        files[view.change.path] = view.current_bytes
        sections.append(reanchor(view.patch, [p.at for p in view.current_placed]))
        post = view.post_from_current
        expected[view.change.path] = post.encode("utf-8") if view.change.op == "modify" and post is not None else None
    if not files:
        return {}
    out = shadow.apply(files, "".join(sections))
    for path, want in expected.items():
        if out.get(path) != want:
            raise CheckFailed(f"libgit2 and Curator's patch engine disagree about {path}; nothing was applied")
    return out


def _plan(
    vault: Vault, state: RepoState, report: ProposalReport, by: str, commit: bool, progress: Progress = _quiet
) -> jr.Journal:
    repo = vault.repo
    subject = report.subject
    assert subject is not None
    progress("applying the diff in a scratch repository", 0, 0)
    results = _results(report)
    head = state.head_commit_id
    index = repo.index
    journal = jr.Journal(report.id, head, commit)
    store: list[bytes] = []  # every blob the journal names, stored before it is saved

    def blob(data: bytes) -> str:
        store.append(data)
        return str(pygit2.hash(data))

    for n, view in enumerate(subject.changes):
        if n % 100 == 0:
            progress("preparing files", n, len(subject.changes))
        path = view.change.path
        head_oid = state.head_blob_id(path)
        try:
            staged = str(index[path].id)
        except KeyError:
            staged = None
        if staged != head_oid:
            raise Conflict(
                f"{path} has staged changes", hint="commit or unstage them (git restore --staged), then apply"
            )
        mode = (state.head_mode(path) or 0o100644) if head_oid is not None else 0o100644
        raw = state.worktree_bytes(path)
        before = None
        if raw is not None:
            # A file as HEAD has it is in the object store already: nothing to write for it.
            before = head_oid if head_oid is not None and str(pygit2.hash(raw)) == head_oid else None
            before = before or blob(raw)
        result = view.new_bytes if view.change.op == "create" else results.get(path)
        written = smudge(repo, path, result) if result is not None else None
        after = blob(written) if written is not None else None
        if after is not None and written is not None:
            journal.blobs[after] = written
        if head_oid is not None and head_oid == view.change.base_blob and view.base_bytes is not None:
            head_clean: bytes | None = view.base_bytes  # HEAD's blob is the base, cleaned already
        else:
            head_raw = state.blob(head_oid) if head_oid else None
            head_clean = state.clean(path, head_raw) if head_raw is not None else None
        committed = _commit_bytes(view, result, head_clean)
        if committed is not None:
            # The repository form, as `git add` would store it: a CRLF line in a create or a
            # diff is committed LF where the attributes say eol=lf, and the note is not left modified.
            committed = state.clean(path, committed)
        commit_oid = after if committed is not None and committed == written else None
        if committed is not None and commit_oid is None:
            commit_oid = blob(committed)
        journal.steps.append(jr.Step(path, before, after, commit_oid, mode))
    events_path = f"{PROPOSALS_DIR}/{report.id}/{EVENTS}"
    old_events = state.worktree_bytes(events_path)
    line = events_mod.Event(clock.iso(), "applied", by).to_json() + "\n"
    new_events = (old_events or b"") + line.encode("utf-8")
    journal.steps.append(
        jr.Step(
            events_path,
            blob(old_events) if old_events is not None else None,
            blob(new_events),
            blob(new_events),
        )
    )
    progress("storing the new versions in git", 0, 0)
    packs.write_blobs(repo, store)
    return journal


def _write(vault: Vault, journal: jr.Journal, progress: Progress = _quiet) -> None:
    # One batched durable write: a file-by-file fsync made a 3,000-note apply wait minutes on the disk.
    worktree.put_many(
        vault,
        [(step.path, step.after, step.mode) for step in journal.steps[:-1]],
        lambda: faults.point("apply:mid-write"),
        journal.blobs,
        lambda done, total: progress("writing files", done, total),
    )


def _verify(vault: Vault, journal: jr.Journal, progress: Progress = _quiet) -> None:
    for n, step in enumerate(journal.steps):
        if n % 100 == 0:
            progress("checking what was written", n, len(journal.steps))
        if step.path.endswith(EVENTS):
            continue
        if worktree.current_blob(vault, step.path) != step.after:
            raise CheckFailed(f"{step.path} did not come out as the validator expected")


def _committed_rules(vault: Vault, settings: Settings) -> Settings:
    """The settings the apply is judged by: ``.kp/config.yaml`` as HEAD holds it, which is what the
    apply commit is checked against later (the hook, ``validate --commits``), not a work-tree edit
    of it the commit does not carry (``producers.paths: []`` would let a producer's file change)."""
    repo = vault.repo
    if repo.head_is_unborn:
        return settings
    try:
        entry = repo.head.peel().tree[CONFIG]
    except KeyError:
        return settings
    raw = git.blob(repo, entry.id)
    on_disk = None
    with contextlib.suppress(OSError), open(vault.abspath(CONFIG), "rb") as f:
        on_disk = f.read()
    return settings if on_disk == raw else settings_mod.parse(raw)


def _check_as_committed(vault: Vault, ulid: str) -> None:
    """A proposal HEAD holds is applied as HEAD holds it: that copy is what was reviewed (a pull
    request, a commit the hook checked), and the decision commit keeps it."""
    differs = decisions.edited_since_committed(vault, ulid)
    if differs:
        rel = f"{PROPOSALS_DIR}/{ulid}"
        raise Conflict(
            f"proposal {ulid} differs from its committed copy ({', '.join(differs[:3])}); nothing was applied",
            hint=f"restore it (git restore {rel}) to apply what was committed, or commit the edit to review it",
        )


def _commit(vault: Vault, report: ProposalReport, journal: jr.Journal) -> str:
    entries: decisions.Entries = {}
    for step in journal.steps:
        entries[step.path] = None if step.commit is None else (step.commit, step.mode)
    for rel, entry in decisions.own_entries(vault, report.id).items():
        entries.setdefault(rel, entry)
    return decisions.commit(vault, journal.head, entries, _message(report), reflog=f"curator apply {report.id}")


def apply(
    vault: Vault,
    settings: Settings,
    ulid: str,
    *,
    by: str,
    commit: bool = True,
    shown: str | None = None,
    progress: Progress = _quiet,
    kept: str | None = None,
) -> Applied:
    """Apply proposal ``ulid`` under the vault lock (taking it finishes or undoes any earlier apply).
    ``shown``: the ``ProposalDir.digest`` of what the person reviewed; the proposal is refused if its
    folder differs from it now. ``progress`` is told each step (a 6,500-note apply takes a while).
    ``kept``: where verdicts are kept (``validator.verdicts``): the rules are not run again on a
    proposal judged on the same inputs (the proposal is still read whole and checked by libgit2)."""
    with recovery.locked(vault, f"apply {ulid}"):
        return _apply(vault, settings, ulid, by=by, commit=commit, shown=shown, progress=progress, kept=kept)


def _apply(
    vault: Vault,
    settings: Settings,
    ulid: str,
    *,
    by: str,
    commit: bool,
    shown: str | None,
    progress: Progress,
    kept: str | None,
) -> Applied:
    gitindex.check_unlocked(vault)
    proposal = store.load_within(vault.root, ulid, settings.limits)
    if not proposal.exists:
        raise NotFound(f"no proposal {ulid} in {PROPOSALS_DIR}/")
    if shown is not None and proposal.digest() != shown:
        raise Conflict(
            f"proposal {ulid} changed since it was shown to you; nothing was applied",
            hint="review it again before you apply it",
        )
    state = RepoState(vault, _committed_rules(vault, settings))
    _check_as_committed(vault, ulid)
    progress("checking the proposal", 0, 0)
    report = verdicts.report(state, proposal, kept if verdict_key.keeps(state) else None)
    if report.status != events_mod.PENDING:
        raise CheckFailed(f"proposal {ulid} is already {report.status}")
    if not report.ok:
        first = report.findings[0]
        raise Rejected(
            f"proposal {ulid} is rejected: {first.code} {first.path}: {first.message}",
            hint=f"{len(report.findings)} finding(s); see curator validate {ulid}",
        )
    journal = _plan(vault, state, report, by, commit, progress)
    journal.save(vault)
    faults.point("apply:after-journal")
    try:
        _write(vault, journal, progress)
        faults.point("apply:after-write")
        _verify(vault, journal, progress)
        events_step = journal.steps[-1]
        worktree.put(vault, events_step.path, events_step.after)
        faults.point("apply:after-event")
        if commit:
            progress("committing", 0, 0)
        commit_id = _commit(vault, report, journal) if commit else None
    except BaseException as e:
        left = jr.rollback(vault, journal)
        worktree.report_left(left)
        jr.clear(vault)
        if isinstance(e, CuratorError):
            # Say "undone" only when every file is back as it was.
            e.message += (
                f"; the apply was not fully undone: {', '.join(left)} changed meanwhile and was left as it is"
                if left
                else "; the apply was undone"
            )
        raise
    faults.point("apply:after-commit")
    if commit:
        progress("updating git's index", 0, 0)
        try:
            jr.sync_index(vault, journal)
        except Exception as e:
            # The decision is made (the branch holds it); the journal stays, so the next command
            # brings git's index level with the commit, as after a kill.
            said = told(e, f"; the apply is committed as {commit_id}, and the next command updates git's index")
            if said is None:
                raise
            raise said from e
    faults.point("apply:after-index")
    jr.clear(vault)
    return Applied(report, commit_id, [s.path for s in journal.steps[:-1]])
