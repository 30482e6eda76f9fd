"""``curator validate``: the validator over proposals and changed notes (the pre-commit entry).

It never writes the repository, the index or a proposal. The staged and commit
views keep one file of derived data in the git directory, the kp_ids of the last
committed tree they read (``validator.id_cache``), which any run may rebuild; the
work-tree view keeps its verdicts in the index folder (``validator.verdicts``).
"""

from __future__ import annotations

import os
import sys

from curator.commands.app import App
from curator.errors import EXIT_FAILED, EXIT_OK, UsageError
from curator.proposals import events as events_mod
from curator.proposals import store
from curator.proposals.layout import EVENTS, PROPOSALS_DIR, owner_of
from curator.settings import Settings
from curator.validator import staged as view
from curator.validator.notes import check_note
from curator.validator.report import Judged, commits_to_json, commits_to_text, to_json, to_text
from curator.validator.staged_proposal import load_proposal
from curator.validator.state import RepoState
from curator.validator.verdict_key import keeps
from curator.vault.discover import Vault
from curator.vault.identity import is_ulid
from curator.vault.paths import is_note_path


def _resolve(vault: Vault, targets: tuple[str, ...], settings: Settings) -> tuple[list[str], list[str]]:
    proposals: list[str] = []
    notes: list[str] = []
    for target in targets:
        if "/" not in target and os.path.isdir(os.path.join(vault.root, PROPOSALS_DIR, target)):
            proposals.append(target)
            continue
        if is_ulid(target) and not os.path.lexists(target):
            raise UsageError(f"no proposal {target} in {PROPOSALS_DIR}/")
        full = os.path.abspath(target)
        if not os.path.lexists(full) and not os.path.isabs(target):
            full = os.path.join(vault.root, target)  # relative to the vault when not to the cwd
        rel = os.path.relpath(full, vault.root).replace(os.sep, "/")
        if rel == ".." or rel.startswith("../"):
            raise UsageError(f"{target} is outside the vault {vault.root}")
        owner = owner_of(rel)
        if owner is not None:
            if os.path.isdir(os.path.join(vault.root, PROPOSALS_DIR, owner)):
                proposals.append(owner)
            continue
        if not os.path.lexists(full):
            if is_ulid(target):
                raise UsageError(f"no proposal {target} in {PROPOSALS_DIR}/")
            raise UsageError(f"no proposal or file named {target}")
        if is_note_path(rel, settings) and not os.path.isdir(full):
            notes.append(rel)
    return sorted(set(proposals)), sorted(set(notes))


def _pending(state: RepoState, ids: list[str]) -> list[str]:
    """The proposals HEAD's committed records leave undecided (a forged line decides nothing)."""
    return [
        pid
        for pid in ids
        if events_mod.committed_status(state.head_bytes(f"{PROPOSALS_DIR}/{pid}/{EVENTS}")) == events_mod.PENDING
    ]


def _commits(app: App, spec: str, fmt: str) -> int:
    from curator.validator.history import check_range

    reports = check_range(app.vault(), spec)
    sys.stdout.write(commits_to_json(reports) if (fmt == "json" or app.json) else commits_to_text(reports))
    return EXIT_OK if all(r.ok for r in reports) else EXIT_FAILED


def run(
    app: App,
    targets: tuple[str, ...],
    all_: bool,
    fmt: str,
    against: str = "HEAD",
    staged: bool = False,
    commits: str | None = None,
) -> int:
    from curator.validator.verdict import validate_proposal
    from curator.validator.verdicts import verdict

    if commits is not None:
        if staged or all_ or targets or against != "HEAD":
            raise UsageError("--commits checks each commit of a range; it takes no other target or mode")
        return _commits(app, commits, fmt)
    vault = app.vault()
    if staged:
        if all_ or against != "HEAD":
            raise UsageError("--staged checks the index against HEAD; it takes neither --all nor --against")

        tree_state = view.staged_state(vault)
        ids, note_paths = view.targets(tree_state, targets)
        reports: list[Judged] = [validate_proposal(tree_state, load_proposal(tree_state, pid)) for pid in ids]
        notes = [check_note(tree_state, p) for p in note_paths]
    else:
        settings = app.settings(use_cache=False)
        state = RepoState(vault, settings, against=against)
        _ = state.head_tree  # a bad --against is a usage error before any output
        if targets:
            ids, note_paths = _resolve(vault, targets, settings)
        else:
            every = store.list_ids(vault.root)
            ids, note_paths = (every if all_ else _pending(state, every)), []
        kept = app.verdicts() if keeps(state) else None
        reports = [verdict(state, store.load_within(vault.root, pid, settings.limits), kept) for pid in ids]
        notes = [check_note(state, p) for p in note_paths]
    text = to_json(reports, notes) if fmt == "json" or app.json else to_text(reports, notes, only_rejections=staged)
    sys.stdout.write(text)
    ok = all(r.ok for r in reports) and all(n.ok for n in notes)
    return EXIT_OK if ok else EXIT_FAILED
