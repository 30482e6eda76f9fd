"""A decision commit checked for what it claims, not for what its trailers say.

Anyone can write ``Kp-Proposal:`` and ``Kp-Event:`` trailers (``git commit -m``), so
CI (``curator validate --commits``) takes a commit whose trailers name a decision as a
claim, and holds it to what Curator's own decision commits
(``curator.operations.decisions``, ``curator.operations.apply``) contain:

- ``applied``: each path the proposal changes holds its change applied to the
  parent's version (its post-image), the proposal is valid against the parent (every
  rule, as ``curator apply`` checked it before writing), and the commit changes
  nothing else but the proposal's own folder;
- ``rejected``: nothing but the proposal's own folder;
- ``superseded``: the same, and its reason names a newer revision of the proposal
  that exists (in the commit, or in the checked-out tree: a rebase stages the new
  revision beside the decision, to be committed after it).

The events rule (``rules/events.py``) has already checked that the commit appends
exactly one line to the proposal's committed ``events.jsonl``, that the line is the
event the trailer names, and that the proposal was pending in the parent.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from curator.proposals.events import CHANGES_REQUESTED, PENDING
from curator.proposals.layout import EVENTS, PROPOSALS_DIR
from curator.proposals.store import ProposalDir
from curator.proposals.trailers import message
from curator.validator.candidate import Candidate, tree_entry
from curator.validator.images import holds_post_images
from curator.validator.staged import TreeState
from curator.validator.staged_proposal import load_proposal

if TYPE_CHECKING:
    import pygit2

    from curator.proposals.events import Event
    from curator.validator.state import RepoState
    from curator.validator.subject import Subject
    from curator.validator.verdict import ProposalReport

_ULID = re.compile(r"\b[0-9A-HJKMNP-TV-Z]{26}\b")
_SHOWN = 3


Validate = Callable[["RepoState", ProposalDir], "ProposalReport"]
"""The validator itself (``validate_proposal``), passed in by it: an ``applied`` decision is held
to the proposal being valid against the commit's parent, judged by every rule."""


def check(subject: Subject, state: RepoState, event: Event, validate: Validate) -> list[str]:
    """What the commit holds that the decision it claims does not explain (empty: it is what Curator makes)."""
    if not isinstance(state, TreeState):  # trailers are read from commits only (CI's view)
        return ["only a commit records a decision"]
    tree = state
    p = subject.proposal
    own = f"{p.rel_dir}/"
    changes = {v.change.path for v in subject.changes} if event.event == "applied" else set()
    problems = []
    stray = [path for path in tree.changed if not path.startswith(own) and path not in changes]
    if stray:
        more = f" and {len(stray) - _SHOWN} more" if len(stray) > _SHOWN else ""
        problems.append(f"it also changes {', '.join(stray[:_SHOWN])}{more}, which no {event.event} decision does")
    if tree_entry(tree.head_tree, f"{own}proposal.yaml") is not None:
        # Committed before (reviewed as such, on a forge too): a decision appends its event and
        # leaves what was reviewed as it was.
        rewritten = [path for path in tree.changed if path.startswith(own) and path != f"{own}{EVENTS}"]
        if rewritten:
            problems.append(
                f"it rewrites the proposal it decides ({', '.join(rewritten[:_SHOWN])}), which a decision never does"
            )
    if event.event == "applied":
        problems += _applied(subject, tree, validate)
    elif event.event == "superseded":
        problems += _superseded(subject, tree, event)
    return problems


def as_curator_writes(state: RepoState, ulid: str, event: Event, line: bytes) -> list[str]:
    """What differs between a decision no content proves (``rejected``, ``superseded``,
    ``changes-requested``) and what ``curator reject``, ``request-changes`` and a revision
    write: the event's line (its keys in Curator's order, its time as Curator's clock writes it,
    its reason on one line) and the commit's message (the title Curator gives, the reason as
    its body, ``Kp-Author`` naming who the event says decided). A line typed by hand and
    committed with ``--no-verify`` is refused here as the hook refuses it: its reason would
    reach the agent through ``kp_proposal`` as a person's words. A forgery that copies Curator's
    form to the byte is not told apart from it; a forge's signed commits are the tool for that."""
    problems = []
    if line != (event.to_json() + "\n").encode("utf-8") or not _CLOCK.fullmatch(event.at):
        problems.append("its events.jsonl line is not written as Curator writes one")
    reason = event.reason or ""
    if reason != " ".join(reason.split()):
        problems.append("its reason spans lines or spaces as no reason Curator records does")
    title = (
        f"Changes requested on proposal {ulid}"
        if event.event == CHANGES_REQUESTED
        else f"{event.event.capitalize()} proposal {ulid}"
    )
    if isinstance(state, TreeState) and state.message != message(title, reason, ulid, event.event, event.by):
        problems.append(f"its message is not Curator's for that decision ({title}, the reason, Kp-Author: {event.by})")
    return problems


_CLOCK = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")


def _applied(subject: Subject, tree: TreeState, validate: Validate) -> list[str]:
    if not holds_post_images(subject, tree):
        return ["it does not hold the proposal's changes (each path as the change applied to the parent's version)"]

    paths = [v.change.path for v in subject.changes] + [f"{subject.proposal.rel_dir}/events.jsonl"]
    before = TreeState(
        tree.vault,
        tree.settings,
        _Before(tree.entries, tree.head_tree, paths),
        paths,
        tree.head_tree,
        name=f"the parent of {tree.candidate}",
    )
    report = validate(before, load_proposal(before, subject.proposal.id))
    if report.status != PENDING or report.findings:
        first = report.findings[0] if report.findings else None
        why = f"{first.code} {first.path}: {first.message}" if first else f"it is {report.status} there"
        return [f"the proposal it applies is not valid against the parent ({why})"]
    return []


def _superseded(subject: Subject, tree: TreeState, event: Event) -> list[str]:
    old = subject.proposal.id
    named = [u for u in _ULID.findall(event.reason or "") if u != old]
    # A ULID starts with its time of minting: a revision is minted after what it revises.
    newer = [u for u in named if u[:10] >= old[:10]]
    for new in newer:
        rel = f"{PROPOSALS_DIR}/{new}"
        if tree.under(rel) or _staged_beside(tree, rel):
            return []
    if not named:
        return ["its reason names no newer revision of the proposal"]
    if not newer:
        return [f"it names {named[0]}, which is not newer than the proposal it supersedes"]
    return [f"the revision it names ({newer[0]}) exists neither in the commit nor in the work tree"]


def _staged_beside(tree: TreeState, rel: str) -> bool:
    full = tree.vault.abspath(rel)
    return os.path.isdir(full) and not os.path.islink(full) and os.path.isfile(os.path.join(full, "proposal.yaml"))


class _Before:
    """The commit's tree with the proposal's paths and its events as the parent holds them: the
    tree ``curator apply`` validated the proposal against before it wrote the change."""

    same_on_disk: frozenset[str] = frozenset()

    def __init__(self, after: Candidate, parent: pygit2.Tree | None, paths: list[str]) -> None:
        self.after = after
        self.back: dict[str, tuple[str, int] | None] = {path: tree_entry(parent, path) for path in paths}

    def entry(self, path: str) -> tuple[str, int] | None:
        return self.back[path] if path in self.back else self.after.entry(path)

    def paths(self) -> list[str]:
        found = set(self.after.paths())
        for path, entry in self.back.items():
            if entry is None:
                found.discard(path)
            else:
                found.add(path)
        return sorted(found)
