"""The queue as the review UI sees it: one entry per proposal, checked by the validator.

No Textual here: the app's workers call these functions off the UI thread, and
each call opens its own repository object (pygit2 objects are not shared
between threads).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from curator.diffview.visible import visible
from curator.proposals import store
from curator.vault.discover import Vault

if TYPE_CHECKING:
    from curator.proposals.events import Event
    from curator.settings import Settings
    from curator.validator import ProposalReport

CHECKING = "checking…"


@dataclass
class Entry:
    id: str
    title: str = ""
    """Made visible (no control characters)."""
    author: str = ""
    created: str | None = None
    verdict: str = CHECKING
    """valid, rejected, or checking… until the validator has run."""
    drift: str = ""
    """clean, drifted, conflicts, new (creates only: nothing to drift from), or empty until checked."""
    files: int = 0
    status: str = "pending"
    event: Event | None = None
    """The event that decided it, once decided."""
    report: ProposalReport | None = field(default=None, repr=False)
    gone: bool = False
    """The proposal folder was removed while the UI was open."""

    @property
    def checked(self) -> bool:
        return self.report is not None or self.gone

    @property
    def apply_blocker(self) -> str | None:
        """Why ``a`` is disabled for this proposal, or None when it may be applied."""
        if self.gone:
            return "the proposal folder is gone"
        if self.status != "pending":
            return f"already {self.status}"
        if self.report is None:
            return "the pre-flight check is still running"
        if self.drift == "conflicts":
            return "it conflicts with the vault as it is now (b rebases it)"
        if not self.report.ok:
            first = self.report.findings[0]
            return f"the validator rejects it: {first.code} {visible(first.path)}"
        return None

    @property
    def rebase_blocker(self) -> str | None:
        if self.gone or self.status != "pending" or self.report is None:
            return "nothing to rebase"
        if self.drift not in ("drifted", "conflicts"):
            return "it applies as it is"
        if any(f.code != "KP005" for f in self.report.findings):
            return "it is rejected for more than drift"
        return None

    def age(self, now: dt.datetime) -> str:
        if not self.created:
            return ""
        try:
            when = dt.datetime.fromisoformat(self.created.replace("Z", "+00:00"))
        except ValueError:
            return "?"
        secs = max(0, int((now - when).total_seconds()))
        for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
            if secs >= size:
                return f"{secs // size}{unit}"
        return f"{secs}s"

    def matches(self, query: str) -> bool:
        """``/`` filter: every word must occur in the title, author, verdict, drift or id."""
        hay = f"{self.title} {self.author} {self.verdict} {self.drift} {self.status} {self.id}".casefold()
        return all(word in hay for word in query.casefold().split())


_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def created_from_ulid(ulid: str) -> str | None:
    """When a ULID was minted (its first ten characters are milliseconds since 1970), as UTC ISO-8601.

    The queue shows ages at once from this, before any manifest is read."""
    if len(ulid) != 26 or any(c not in _CROCKFORD for c in ulid[:10]):
        return None
    ms = 0
    for c in ulid[:10]:
        ms = ms * 32 + _CROCKFORD.index(c)
    try:
        when = dt.datetime.fromtimestamp(ms / 1000, dt.UTC)
    except (OverflowError, OSError, ValueError):
        return None
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def fill(entry: Entry, report: ProposalReport) -> Entry:
    """Copy a validator report into an entry."""
    entry.report = report
    entry.gone = not report.subject or not report.subject.proposal.exists
    subject = report.subject
    m = subject.manifest if subject else None
    entry.title = visible(m.title) if m else "(unreadable proposal.yaml)"
    entry.author = visible(str(m.author)) if m else ""
    entry.created = m.created if m else entry.created
    entry.verdict = "valid" if report.ok else "rejected"
    changes = subject.changes if subject else []
    creates_only = bool(changes) and all(v.change.op == "create" for v in changes)
    entry.drift = report.drift or ("new" if creates_only and report.status == "pending" else "")
    entry.files = len(subject.changes) if subject else 0
    entry.status = report.status
    decided = [e for e in subject.events if e.event == report.status] if subject else []
    entry.event = decided[0] if decided else None
    return entry


def fresh(vault: Vault) -> Vault:
    """A vault object of this thread's own (its pygit2 repository is not shared)."""
    return Vault(vault.root, vault.git_dir)


def list_ids(vault: Vault) -> list[str]:
    return store.list_ids(vault.root)


def check(vault: Vault, settings: Settings, ulid: str) -> ProposalReport:
    """The pre-flight: the validator (with its drift check against the work tree) on one proposal."""
    from curator.validator import validate_proposal
    from curator.validator.state import RepoState

    v = fresh(vault)
    return validate_proposal(RepoState(v, settings), store.load_within(v.root, ulid, settings.limits))


def check_all(vault: Vault, settings: Settings, ids: list[str]) -> Iterator[ProposalReport]:
    """Every proposal in ``ids``, one repository state shared (the vault is walked once)."""
    from curator.validator import validate_proposal
    from curator.validator.state import RepoState

    v = fresh(vault)
    state = RepoState(v, settings)
    for ulid in ids:
        yield validate_proposal(state, store.load_within(v.root, ulid, settings.limits))
