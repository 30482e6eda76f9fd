"""``curator adopt``: one proposal that gives every note without a ``kp_id`` a minted one.

The way in for an existing vault (SPEC §1: identity is minted, never derived). Each
note's change is made by the byte-preserving frontmatter writer: a ``kp_id:`` line is
added to its frontmatter, or a frontmatter block holding only that line is put on top
of a note that has none; nothing else in the file changes. The proposal goes through
the ordinary path (staged, validated, reviewed, applied as one commit).

Left alone, by design, and named as such: templates (``curator.vault.templates``: a note
made from one copies its frontmatter, so a template must not carry an identity) and the
repository's own documents (``repository_document``: a forge shows README.md by name and
renders a frontmatter block as a table above it).

Skipped and named, so the rest proceed: notes whose frontmatter cannot be read or has
an invalid ``kp_id`` (a modify may not change one), notes with uncommitted edits or not
committed at all (a change is made against the committed blob; ``curator mint PATH`` gives
a new note its kp_id in place), and notes that a pending proposal already changes (so a
second run stages nothing while the first waits).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from curator import output
from curator.commands.app import App
from curator.errors import EXIT_FAILED
from curator.operations import recovery
from curator.proposals import store
from curator.proposals.events import PENDING
from curator.proposals.filters import clean
from curator.validator.state import RepoState
from curator.vault import frontmatter, git
from curator.vault import kp_id as kp_id_reader
from curator.vault import templates as tmpl
from curator.vault.identity import mint
from curator.vault.repodocs import repository_document
from curator.vault.survey import survey

if TYPE_CHECKING:
    from curator.operations.stage import Draft


@dataclass
class Plan:
    drafts: list[Draft] = field(default_factory=list)
    minted: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """Notes adopt cannot change safely, with what to do."""
    left_alone: list[tuple[str, str]] = field(default_factory=list)
    """Templates and repository documents: never given a kp_id by adopt, by design."""
    identified: int = 0


def _pending_paths(app: App) -> dict[str, str]:
    """Paths that pending proposals change, each with the first such proposal's id."""
    from curator.validator.subject import build

    vault = app.vault()
    state = RepoState(vault, app.settings())
    taken: dict[str, str] = {}
    for pid in store.list_ids(vault.root):
        subject = build(store.load(vault.root, pid), state)
        if subject.status != PENDING:
            continue
        for change in subject.changes:
            taken.setdefault(change.change.path, pid)
    return taken


def plan(app: App) -> Plan:
    from curator.operations.gather import unified
    from curator.operations.stage import Draft

    vault = app.vault()
    settings = app.settings()
    s = survey(vault, settings)
    repo = vault.repo
    head = None if repo.head_is_unborn else git.TreeEntries(repo, repo.head.peel().tree)
    taken = _pending_paths(app)
    templates = tmpl.on_disk(vault.root)
    out = Plan(skipped=[(u.path, u.reason) for u in s.unreadable])
    for note in s.notes:
        if note.kp_id:
            out.identified += 1
            continue
        problem = next((p for p in note.problems if p.code in ("malformed-frontmatter", "invalid-kp-id")), None)
        if problem is not None:
            out.skipped.append((note.path, f"{problem.code}: {problem.message}"))
            continue
        folder = tmpl.holding(note.path, templates)
        if folder is not None:
            out.left_alone.append(
                (note.path, f"a template ({folder.describe()}): notes made from it get their own kp_id")
            )
            continue
        document = repository_document(note.path)
        if document is not None:
            out.left_alone.append((note.path, document))
            continue
        if note.path in taken:
            out.skipped.append((note.path, f"already changed by pending proposal {taken[note.path]}"))
            continue
        raw = note.text.encode("utf-8")
        entry = head.get(note.path) if head is not None else None
        if entry is None or entry[1] == git.TREE:
            # The person's own new file: minted in place, not proposed against a blob.
            out.skipped.append(
                (note.path, f"not committed yet: `curator mint {shlex.quote(note.path)}` adds one in place")
            )
            continue
        # The note as git stores it now (a note committed with CRLF before `eol=lf` was set
        # is LF once cleaned): proposals diff and validate that form.
        blob = git.blob(repo, entry[0])
        committed = clean(repo, note.path, blob)
        same = blob.removeprefix(b"\xef\xbb\xbf") == raw  # the usual case, told without a filter
        if not same and committed.removeprefix(b"\xef\xbb\xbf") != clean(repo, note.path, raw):
            out.skipped.append((note.path, "has uncommitted edits: commit them, then run adopt again"))
            continue
        kp_id = mint()
        try:
            new_text = kp_id_reader.added(committed.decode("utf-8"), kp_id)
        except (frontmatter.FrontmatterError, UnicodeDecodeError) as e:
            out.skipped.append((note.path, f"frontmatter cannot take a kp_id line: {e}"))
            continue
        new = new_text.encode("utf-8")
        out.drafts.append(Draft("modify", note.path, base_blob=entry[0], diff=unified(note.path, committed, new)))
        out.minted.append((note.path, kp_id))
    out.skipped.sort()
    out.left_alone.sort()
    return out


def _left_alone(p: Plan) -> str:
    """``; left alone: 2 template(s), 1 repository document(s)`` for the summary line."""
    templates = sum(1 for _path, why in p.left_alone if why.startswith("a template"))
    documents = len(p.left_alone) - templates
    parts = []
    if templates:
        parts.append(f"{templates} template(s)")
    if documents:
        parts.append(f"{documents} repository document(s)")
    return f"; left alone: {', '.join(parts)}" if parts else ""


def run(app: App, dry_run: bool) -> int:
    from curator.operations import stage

    vault = app.vault()
    with recovery.locked(vault, "adopt"):
        p = plan(app)
        staged_id: str | None = None
        report = None
        if p.drafts and not dry_run:
            n = len(p.drafts)
            staged = stage.stage(
                vault,
                app.settings(),
                p.drafts,
                title=f"Adopt {n} note{'s' if n != 1 else ''}: give each a minted kp_id",
                rationale=(
                    "curator adopt: every note without a kp_id gets one (kp: + a ULID), added to its "
                    "frontmatter, or in a new frontmatter block where the note has none. Nothing else "
                    "in any file changes."
                ),
                author=stage.default_author(vault),
                base=stage.head_commit(vault),
                kept_in=app.verdicts(),
            )
            report = staged.report
            staged_id = staged.id if staged.ok else None
    ok = report is None or report.ok
    if app.json:
        output.emit_json(
            {
                "staged": staged_id,
                "valid": ok,
                "adopted": [{"path": path, "kp_id": kp} for path, kp in p.minted] if ok else [],
                "already_identified": p.identified,
                "skipped": [{"path": path, "reason": why} for path, why in p.skipped],
                "left_alone": [{"path": path, "reason": why} for path, why in p.left_alone],
                "findings": [f.to_json() for f in report.findings] if report else [],
            }
        )
        return 0 if ok else EXIT_FAILED
    for path, why in p.left_alone:
        output.line(f"left alone {output.safe_path(path)}: {why}")
    for path, why in p.skipped:
        output.line(f"skipped {output.safe_path(path)}: {why}")
    if not p.drafts:
        output.line(f"nothing to adopt: {p.identified} note(s) already have a kp_id{_left_alone(p)}")
        return 0
    if dry_run:
        output.line(
            f"would give {len(p.drafts)} note(s) a kp_id; {p.identified} already have one; "
            f"{len(p.skipped)} skipped{_left_alone(p)}"
        )
        _tell_plain_text(p)
        return 0
    if report is not None and not report.ok:
        output.line("the adopt proposal was rejected by the validator; nothing was staged")
        for finding in report.findings[:20]:
            where = f"{finding.path}:{finding.line}" if finding.line else finding.path
            output.line(f"  {finding.code} {where}: {finding.message}")
        return EXIT_FAILED
    output.line(
        f"{staged_id}: valid — gives {len(p.drafts)} note(s) a kp_id; {p.identified} already had one; "
        f"{len(p.skipped)} skipped{_left_alone(p)}"
    )
    _tell_plain_text(p)
    output.line(f"next: curator review, or curator apply {staged_id} to apply it as one commit")
    return 0


def _tell_plain_text(p: Plan) -> None:
    """A .txt note gets a frontmatter block too: where that is a data file (Obsidian's help keeps
    `headings.txt` in every language folder), the person hears it before applying, not after."""
    texts = [path for path, _kp in p.minted if path.lower().endswith(".txt")]
    if texts:
        named = ", ".join(output.safe_path(t) for t in texts[:3]) + (", …" if len(texts) > 3 else "")
        output.line(
            f"{len(texts)} of them {'is a .txt file' if len(texts) == 1 else 'are .txt files'} ({named}): "
            f"{'it gets' if len(texts) == 1 else 'each gets'} a frontmatter block; "
            "keep plain-text data files out with notes.exclude"
        )
