"""CI's view: each commit of a pushed range, checked as the pre-commit hook checked it.

A commit is validated as a ``TreeState`` of its own tree against its first parent,
with the decision its trailers name (so Curator's own decision commits pass, and a
commit that changes an ``events.jsonl`` without them does not). A merge commit is
validated on what it introduces itself, the paths it holds differently from every parent
(``staged.merge_state``): what it brings in from a branch is checked commit by commit on
that branch, and a forgery hidden in the merge (``git merge --no-commit`` then edits
committed with ``--no-verify``) is caught.

Every commit of a range is judged by the config its base holds (what the protected branch has),
never by its own: a push that widens ``notes.exclude``, changes a committed kp_id and restores
the config would otherwise pass, each commit judged by rules it chose. A commit that changes
``.kp/config.yaml`` is itself a finding (KP007) naming the keys it changes: a person lets such a
change in past the gate, and only then is it the config later ranges are judged by.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from curator import settings as settings_mod
from curator.errors import UsageError
from curator.validator.config_change import config_bytes, config_finding
from curator.validator.finding import Finding, blocking
from curator.validator.notes import NoteReport, check_note
from curator.validator.staged import commit_state, merge_state, targets
from curator.validator.staged_proposal import load_proposal
from curator.validator.verdict import ProposalReport, validate_proposal

if TYPE_CHECKING:
    import pygit2

    from curator.vault.discover import Vault


@dataclass
class CommitReport:
    commit: str
    summary: str
    proposals: list[ProposalReport] = field(default_factory=list)
    notes: list[NoteReport] = field(default_factory=list)
    config: list[Finding] = field(default_factory=list)
    """KP007 when the commit changes ``.kp/config.yaml``: which keys, for a person to see."""

    @property
    def ok(self) -> bool:
        return all(p.ok for p in self.proposals) and all(n.ok for n in self.notes) and not blocking(self.config)

    def to_json(self) -> dict[str, Any]:
        return {
            "commit": self.commit,
            "ok": self.ok,
            "config": [f.to_json() for f in self.config],
            "proposals": [p.to_json() for p in self.proposals],
            "notes": [n.to_json() for n in self.notes],
        }


def commits_in(vault: Vault, spec: str) -> tuple[pygit2.Commit | None, list[pygit2.Commit]]:
    """The base of ``spec`` (``BASE..TIP``; None when it names none) and its commits, oldest
    first, merges included."""
    import pygit2

    repo = vault.repo
    base, sep, tip = spec.partition("..")
    if not sep or tip.startswith("."):
        raise UsageError(f"--commits {spec}: give a range BASE..TIP (the commit before the push, then HEAD)")
    try:
        tip_commit = repo.revparse_single(tip or "HEAD").peel(pygit2.Commit)
        base_commit = repo.revparse_single(base).peel(pygit2.Commit) if base else None
    except (KeyError, ValueError, pygit2.GitError):
        raise UsageError(f"--commits {spec}: no such commit in this repository") from None
    walker = repo.walk(tip_commit.id, pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.REVERSE)
    if base_commit is not None:
        walker.hide(base_commit.id)
    return base_commit, list(walker)


def check_range(vault: Vault, spec: str) -> list[CommitReport]:
    base, commits = commits_in(vault, spec)
    # The base's config (with no base, a new branch's whole history: its first commit's).
    first = base if base is not None else (commits[0] if commits else None)
    settings = settings_mod.parse((config_bytes(vault.repo, first.tree) if first is not None else None) or b"")
    kp_cache: dict[str, str | None] = {}
    out = []
    for commit in commits:
        merge = len(commit.parents) > 1
        state = merge_state(vault, commit, settings) if merge else commit_state(vault, commit, settings)
        state.share_kp_cache(kp_cache)
        ids, notes = targets(state)
        report = CommitReport(str(commit.id), commit.message.split("\n", 1)[0])
        report.proposals = [validate_proposal(state, load_proposal(state, pid)) for pid in ids]
        report.notes = [check_note(state, p) for p in notes]
        if base is not None or first is None or commit.id != first.id:
            report.config = config_finding(vault.repo, commit)
        out.append(report)
    return out
