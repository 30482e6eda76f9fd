"""``kp_propose``: an agent's changes staged as a proposal, through the same code as ``curator propose``.

Each change names the blob the agent read (``kp_read`` returns it) and carries either
the file's full new content (the server computes the diff against that blob) or a
unified diff. Nothing is written before every path has passed the validator's path
checks, and the proposal is validated in memory (``stage.stage``), so one the
validator rejects writes nothing at all. The only thing an accepted proposal adds
besides its folder under ``.kp/proposals/`` is the git blob of the note the agent read
(as ``git add`` would store it), when that version was never committed (the proposal's
``base_blob`` must be readable by every later validation).

**A stale blob is rejected with the drift** (KP005): when the note changed since the
agent read it, the call says so, names both blobs, and nothing is staged. The agent
reads the note again and redoes its change on the current text; a person never has
to rebase an agent's proposal that was stale before it was staged.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from curator import redaction
from curator.errors import NotFound, UsageError
from curator.operations import gather as sources
from curator.operations import recovery, stage
from curator.proposals import diff as diff_mod
from curator.proposals import events as events_mod
from curator.proposals import filters, store
from curator.proposals.hunks import HunkConflict
from curator.proposals.hunks import apply as apply_hunks
from curator.proposals.manifest import Author, Op
from curator.settings import Settings
from curator.validator.finding import Finding
from curator.validator.rules.content import over_file_limit, over_proposal_limit
from curator.validator.rules.paths import path_findings
from curator.validator.state import RepoState
from curator.validator.subject import Drift, manifest_of
from curator.validator.verdict import validate_proposal
from curator.vault.discover import Vault
from curator.vault.identity import is_ulid, new_ulid
from curator.vault.note import NotANote, parse

LOCK_WAIT = 30.0
"""Seconds a proposal waits for another writer (another server, a CLI command) to finish."""
MAX_CHANGES = 100


@dataclass
class ChangeIn:
    op: Op
    path: str
    blob: str | None = None
    content: str | None = None
    diff: str | None = None


@dataclass
class Outcome:
    id: str
    staged: bool
    findings: list[Finding] = field(default_factory=list)
    auto_applicable: bool = False
    minted: list[str] = field(default_factory=list)
    drift: Drift | None = None
    revises: str | None = None
    """The proposal this one is a revision of (``revises``); superseded by it once it is staged."""

    def to_json(self) -> dict[str, Any]:
        fixes = sorted({f"{f.path}: {f.message}" for f in self.findings})
        return {
            "id": self.id,
            "revises": self.revises,
            "verdict": "valid" if self.staged else "rejected",
            "staged": self.staged,
            "auto_applicable": self.auto_applicable,
            "findings": [f.to_json() for f in self.findings],
            "what_to_fix": fixes,
            "minted": self.minted,
            "next": (
                (f"It supersedes {self.revises}. " if self.revises else "")
                + f"A person reviews it (curator review) and applies it (curator apply {self.id}); "
                f"kp_proposal('{self.id}') shows its status."
                if self.staged
                else "Nothing was staged and nothing was written. Fix each finding and call kp_propose again."
            ),
        }


def _path_findings(vault: Vault, settings: Settings, changes: list[ChangeIn]) -> list[Finding]:
    """The validator's path rule, before anything is read or written: a path that climbs out,
    goes into .git/, .kp/, a producer's folder or a submodule, or through a symlink, never
    reaches the disk."""
    state = RepoState(vault, settings)
    return [f for c in changes for f in path_findings(c.path, state)]


def _read_current(vault: Vault, path: str) -> bytes | None:
    try:
        fd = os.open(vault.abspath(path), os.O_RDONLY | os.O_NOFOLLOW)
    except (FileNotFoundError, NotADirectoryError):
        return None
    with os.fdopen(fd, "rb") as f:
        return f.read()


def _shown_blob(path: str, current: bytes) -> str:
    """The blob kp_read shows for the note as it is now (``redaction.shown_blob``): the git id, or
    for a note with redacted values its receipt. Only that is accepted, and only that is named
    when the two differ: the git id of such a note would confirm a guessed secret."""
    from curator.index.documents import git_blob_id

    blob = git_blob_id(current)
    try:
        note = parse(path, current)
    except NotANote:
        return redaction.shown_blob(blob, current.decode("utf-8", "replace"), {})
    return redaction.shown_blob(blob, note.text, {str(k): v for k, v in note.meta.items()})


def _draft(vault: Vault, c: ChangeIn, minted: list[str], read_blobs: dict[str, bytes]) -> stage.Draft | Finding:
    from curator.index.documents import git_blob_id

    if c.op == "create":
        if c.content is None:
            return Finding("KP001", c.path, "a create needs the note's full content in `content`")
        content, kp_id = sources.with_kp_id(c.content.encode("utf-8"), minted, c.path)
        return stage.Draft("create", c.path, content=content, kp_id=kp_id)
    if not c.blob:
        return Finding("KP005", c.path, f"a {c.op} needs `blob`: the blob kp_read returned for this note")
    current = _read_current(vault, c.path)
    if current is None:
        return Finding("KP005", c.path, "the note does not exist in the vault (any more); kp_read it or create it")
    now = _shown_blob(c.path, current)
    if now != c.blob:
        return Finding(
            "KP005",
            c.path,
            f"the note changed since you read it (you read blob {c.blob[:12]}, it is now {now[:12]}); "
            "kp_read it again and redo the change on its current text",
        )
    # The proposal diffs the note as git stores it (its clean filters: a CRLF working copy
    # under Curator's eol=lf is LF), as `curator propose` does; `blob` above is what kp_read saw.
    stored = filters.clean(vault.repo, c.path, current)
    base = git_blob_id(stored)
    read_blobs[base] = stored
    if c.op == "delete":
        return stage.Draft("delete", c.path, base_blob=base, diff=sources.unified(c.path, stored, None))
    if c.content is not None and c.diff is not None:
        return Finding("KP001", c.path, "give either `content` (the whole new note) or `diff`, not both")
    if c.content is not None:
        new = filters.clean(vault.repo, c.path, c.content.encode("utf-8"))
        if new == stored:
            return Finding("KP001", c.path, "the new content is the same as the note; leave it out of the proposal")
        return stage.Draft("modify", c.path, base_blob=base, diff=sources.unified(c.path, stored, new))
    if c.diff is None:
        return Finding("KP001", c.path, "a modify needs `content` (the whole new note) or `diff` (a unified diff)")
    return _from_diff(c, stored, base)


def _from_diff(c: ChangeIn, current: bytes, blob: str) -> stage.Draft | Finding:
    # Agents write hunks, plain `diff -u` output or git diffs: all become one git-style section.
    text = c.diff or ""
    if not text.startswith(("---", "diff --git")):
        text = f"--- a/{c.path}\n+++ b/{c.path}\n{text}"
    if not text.startswith("diff --git"):
        text = f"diff --git a/{c.path} b/{c.path}\n{text}"
    try:
        sections = diff_mod.parse(text if text.endswith("\n") else text + "\n")
    except diff_mod.DiffError as e:
        return Finding("KP001", c.path, f"the diff cannot be read: {e}")
    if len(sections) != 1 or sections[0].path != c.path or sections[0].op != "modify":
        return Finding("KP001", c.path, f"the diff must change {c.path} alone (one file, no create or delete)")
    try:
        apply_hunks(current.decode("utf-8"), sections[0].hunks)
    except (HunkConflict, UnicodeDecodeError) as e:
        why = e.message if isinstance(e, HunkConflict) else "the note is not UTF-8"
        return Finding(
            "KP005", c.path, f"the diff does not apply to the blob you read: {why}", getattr(e, "line", None)
        )
    body = sections[0].text if sections[0].text.endswith("\n") else sections[0].text + "\n"
    return stage.Draft("modify", c.path, base_blob=blob, diff=body)


def propose(
    vault: Vault,
    settings: Settings,
    title: str,
    rationale: str,
    changes: list[ChangeIn],
    author: Author,
    revises: str | None = None,
    kept_in: str | None = None,
) -> Outcome:
    """Stage an agent's changes; with ``revises``, as a revision of that pending proposal (which
    it supersedes once staged): the answer to a reviewer's request for changes. ``kept_in``:
    where verdicts are kept (``validator.verdicts``): a new proposal's is kept as it is staged."""
    from curator.operations import revise

    title, rationale = title.strip(), rationale.strip()
    if not title or any(ord(ch) < 32 or ord(ch) == 127 for ch in title):
        raise UsageError("the title must be one line of text, without control characters")
    if not rationale:
        raise UsageError("the rationale is empty: say why the change is right, for the person who reviews it")
    if not changes or len(changes) > MAX_CHANGES:
        raise UsageError(f"give between 1 and {MAX_CHANGES} changes")
    if revises is not None:
        revises = revises.strip()
        revise.check_revisable(vault, revises)  # a missing or decided one: one line, nothing read or written
        _check_own(vault, settings, revises, author)
    ulid = new_ulid()
    bad_paths = _path_findings(vault, settings, changes)
    if bad_paths:
        return Outcome(ulid, False, bad_paths, revises=revises)
    with recovery.locked(vault, "kp_propose", wait=LOCK_WAIT):
        return _stage(vault, settings, ulid, title, rationale, changes, author, revises, kept_in)


def _check_own(vault: Vault, settings: Settings, ulid: str, author: Author) -> None:
    """An agent revises only its own proposals: a revision supersedes the one it revises, and
    taking a person's or another agent's proposal out of the queue is no agent's decision."""
    manifest = manifest_of(store.load_within(vault.root, ulid, settings.limits))
    if manifest is None or manifest.author != author:
        # The other author's name is not quoted: it is another agent's text, outside a frame.
        raise UsageError(
            f"proposal {ulid} was not staged by {author}: an agent revises only its own proposals; "
            "propose your change as a new proposal"
        )


def _stage(
    vault: Vault,
    settings: Settings,
    ulid: str,
    title: str,
    rationale: str,
    changes: list[ChangeIn],
    author: Author,
    revises: str | None = None,
    kept_in: str | None = None,
) -> Outcome:
    from curator.operations import revise

    minted: list[str] = []
    read_blobs: dict[str, bytes] = {}
    drafts: list[stage.Draft] = []
    problems: list[Finding] = []
    given = sum(len((c.content or c.diff or "").encode("utf-8")) for c in changes)
    whole = over_proposal_limit(".kp/proposals/" + ulid, given, settings.limits, "the proposal's changes")
    if whole is not None:
        return Outcome(ulid, False, [whole], revises=revises)
    for c in changes:
        # A content or diff over the file limit is refused before it is diffed or applied: the
        # validator would refuse it anyway, after seconds of work on megabytes.
        over = None
        if c.content is not None:
            over = over_file_limit(c.path, len(c.content.encode("utf-8")), settings.limits, "the new content")
        elif c.diff is not None:
            over = over_proposal_limit(c.path, len(c.diff.encode("utf-8")), settings.limits, "the diff")
        got = over if over is not None else _draft(vault, c, minted, read_blobs)
        if isinstance(got, Finding):
            problems.append(got)
        else:
            drafts.append(got)
    if problems:
        return Outcome(ulid, False, sorted(problems, key=lambda f: f.sort_key()), minted=minted, revises=revises)
    base = stage.head_commit(vault)
    # The notes as the agent read them that git never stored: the validator reads them
    # from memory, and they are written only if the proposal is staged.
    unstored = {oid: data for oid, data in read_blobs.items() if vault.repo.get(oid) is None}
    if revises is not None:
        made = revise.stage_revision(
            vault,
            settings,
            revises,
            drafts,
            how="answer",
            by=str(author),
            title=title,
            rationale=rationale,
            author=author,
            base=base,
            blobs=unstored,
            ulid=ulid,
        )
        staged = made.staged
    else:
        staged = stage.stage(
            vault,
            settings,
            drafts,
            title=title,
            rationale=rationale,
            author=author,
            base=base,
            blobs=unstored,
            ulid=ulid,
            kept_in=kept_in,
        )
    report = staged.report
    if not staged.ok:
        return Outcome(ulid, False, report.findings, minted=minted, revises=revises)
    return Outcome(ulid, True, [], report.auto_applicable, minted, report.drift, revises)


def proposal_status(vault: Vault, settings: Settings, ulid: str) -> dict[str, Any]:
    if not is_ulid(ulid):
        raise UsageError(f"{ulid!r} is not a proposal id (a ULID, as kp_propose returned it)")
    if ulid not in store.list_ids(vault.root):
        raise NotFound(f"no proposal {ulid} in .kp/proposals/ (a rejected proposal is never staged)")
    from curator.operations import revise

    report = validate_proposal(RepoState(vault, settings), store.load_within(vault.root, ulid, settings.limits))
    subject = report.subject
    m = subject.manifest if subject else None
    # The reviewer's words come from the events Curator committed, never from the work tree's copy.
    committed = subject.committed_events if subject and not subject.committed_event_problems else []
    asked = events_mod.changes_requested(committed)
    return {
        "id": ulid,
        "title": m.title if m else None,
        "rationale": m.rationale if m else None,
        "author": str(m.author) if m else None,
        "created": m.created if m else None,
        "supersedes": m.supersedes if m else None,
        "superseded_by": revise.newer_revision(vault, ulid) if report.status == "superseded" else None,
        "changes_requested": {"by": asked.by, "at": asked.at, "reason": asked.reason} if asked else None,
        "status": report.status,
        "verdict": "valid" if report.ok else "rejected",
        "auto_applicable": report.auto_applicable,
        "drift": report.drift,
        "changes": [
            {"op": v.change.op, "path": v.change.path} for v in (report.subject.changes if report.subject else [])
        ],
        "events": [{k: v for k, v in vars(e).items() if v is not None} for e in committed],
        "findings": [f.to_json() for f in report.findings],
    }
