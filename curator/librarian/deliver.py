"""Delivering a digest: a proposal by the librarian through the normal staging path.

The digest note is one ``create`` under the digest folder with a fresh ``kp:``
identity, so the validator finds it auto-applicable by construction; it is
applied without a person only when the validator says so, by the same code as
``curator apply``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from curator import yaml_reader
from curator.errors import Rejected
from curator.operations import decisions, stage
from curator.operations.committed import committed_status
from curator.proposals import store
from curator.proposals.events import PENDING
from curator.proposals.manifest import Author
from curator.settings import Settings
from curator.validator.state import RepoState
from curator.validator.verdict import ProposalReport, validate_proposal
from curator.vault.discover import Vault

AUTHOR = Author(kind="librarian", name="digest")
BY = f"{AUTHOR.kind}:{AUTHOR.name}"


@dataclass(frozen=True)
class Pending:
    id: str
    created: str
    paths: tuple[str, ...]


def pending_digests(vault: Vault, settings: Settings) -> list[Pending]:
    """Digests that no one has applied or rejected yet, oldest first: pending proposals by the
    librarian's digest that the validator finds auto-applicable, as every digest Curator stages is.
    Any other proposal that says ``author: {kind: librarian}`` (hand-written, invalid, or changing
    more than the digest folder) is not a digest: it waits for review like any proposal, and
    neither stops the next digest nor is superseded by ``--force``."""
    state: RepoState | None = None
    found = []
    for pid in store.list_ids(vault.root):
        p = store.load_within(vault.root, pid, settings.limits)
        if p.manifest is None:
            continue
        try:
            data = yaml_reader.load(p.manifest.decode("utf-8"), pure=True)
        except (yaml_reader.YamlRefused, UnicodeDecodeError):
            continue
        author = data.get("author") if isinstance(data, dict) else None
        if not isinstance(author, dict) or (author.get("kind"), author.get("name")) != (AUTHOR.kind, AUTHOR.name):
            continue
        if committed_status(vault, pid) != PENDING:
            continue
        state = state or RepoState(vault, settings)
        if not validate_proposal(state, p).auto_applicable:
            continue
        changes = data.get("changes") if isinstance(data.get("changes"), list) else []
        paths = tuple(str(c.get("path")) for c in changes if isinstance(c, dict) and c.get("path"))
        found.append(Pending(pid, str(data.get("created") or ""), paths))
    return sorted(found, key=lambda p: (p.created, p.id))


def free_path(vault: Vault, settings: Settings, day: str, taken: set[str]) -> str:
    """``<digest dir>/<day>.md``, or ``<day>-2.md`` and so on when that is taken."""
    folder = settings.notes.digest_dir.strip("/")
    n = 1
    while True:
        name = f"{day}.md" if n == 1 else f"{day}-{n}.md"
        path = f"{folder}/{name}" if folder else name
        if path not in taken and not os.path.lexists(vault.abspath(path)):
            return path
        n += 1


def stage_digest(
    vault: Vault,
    settings: Settings,
    path: str,
    content: bytes,
    kp_id: str,
    title: str,
    rationale: str,
    replaces: list[Pending] | None = None,
    ulid: str | None = None,
) -> tuple[str, ProposalReport]:
    """Stage and validate; the caller holds the vault lock. Rejected (nothing staged) if invalid.

    ``replaces``: pending digests the new one covers (``--force``); once it is staged,
    each gets a ``superseded`` decision naming it, so the queue holds one digest.
    """
    base = stage.head_commit(vault)
    draft = stage.Draft("create", path, content=content, kp_id=kp_id)
    replaces = replaces or []
    staged = stage.stage(
        vault,
        settings,
        [draft],
        title=title,
        rationale=rationale,
        author=AUTHOR,
        base=base,
        supersedes=replaces[-1].id if replaces else None,
        ulid=ulid,
    )
    report = staged.report
    if not staged.ok:
        first = report.findings[0]
        raise Rejected(
            f"the digest proposal is invalid: {first.code} {first.path}: {first.message}", hint="nothing was staged"
        )
    for old in replaces:
        decisions.record(vault, old.id, "superseded", BY, f"replaced by the digest {staged.id}")
    return staged.id, report
