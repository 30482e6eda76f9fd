"""The queue as the review UI sees it: one entry per proposal, checked by the validator.

No Textual here: the app's workers call these functions off the UI thread, and
each call opens its own repository object (pygit2 objects are not shared
between threads).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from curator.diffview.visible import visible
from curator.proposals import store
from curator.proposals.events import PENDING, Status, changes_requested
from curator.validator.state import RepoState
from curator.validator.subject import Drift
from curator.vault.discover import Vault

if TYPE_CHECKING:
    from curator.proposals.events import Event
    from curator.settings import Settings
    from curator.validator.finding import Finding
    from curator.validator.verdict import ProposalReport
    from curator.validator.verdicts import Verdict

CHECKING = "checking…"
DriftShown = Literal[Drift, "new", ""]
"""The queue's drift column: a pending proposal's drift, ``new`` for one that only creates (nothing
to drift from), or empty until it is checked and for a decided one."""


@dataclass
class Entry:
    id: str
    title: str = ""
    """Made visible (no control characters)."""
    author: str = ""
    created: str | None = None
    verdict: str = CHECKING
    """valid, rejected, or checking… until the validator has run."""
    drift: DriftShown = ""
    files: int = 0
    status: Status = PENDING
    event: Event | None = None
    """The event that decided it, once decided."""
    report: ProposalReport | None = field(default=None, repr=False)
    """The validator's report, with the proposal as read (its changes for the diff)."""
    kept: Verdict | None = field(default=None, repr=False)
    """A verdict kept from an earlier judgement of the same inputs (``validator.verdicts``),
    until a report replaces it: the verdict without the proposal's changes."""
    digest: str | None = None
    """The digest of the proposal folder the kept verdict is of (what ``a`` applies)."""
    gone: bool = False
    """The proposal folder was removed while the UI was open."""
    maybe_decided: bool = False
    """Its folder holds an events.jsonl: most likely decided, so kept out of view until the
    validator says (the status itself only ever comes from the events committed in HEAD)."""
    supersedes: str | None = None
    """The proposal this one is a revision of (its manifest says)."""
    requested: Event | None = None
    """The reviewer's request for changes, while it is pending (from the committed events)."""
    version: int = 1
    """Its place in its revision chain (v1, v2, …), worked out by the queue from every entry."""
    chain: list[str] = field(default_factory=list)
    """The ids of its revision chain, oldest first, when it has one (else empty)."""

    @property
    def checked(self) -> bool:
        return self.report is not None or self.kept is not None or self.gone

    @property
    def findings(self) -> Sequence[Finding]:
        return self.report.findings if self.report else self.kept.findings if self.kept else ()

    @property
    def ok(self) -> bool:
        return self.report.ok if self.report else self.kept.ok if self.kept else False

    def shown_digest(self) -> str | None:
        """The digest of the folder the verdict shown is of: what ``a`` applies, and nothing else."""
        if self.report is not None and self.report.subject is not None:
            return self.report.subject.proposal.digest()
        return self.digest if self.kept is not None else None

    @property
    def held_back(self) -> bool:
        """Out of the pending view until the validator has read its committed events."""
        return self.maybe_decided and not self.checked

    @property
    def apply_blocker(self) -> str | None:
        """Why ``a`` is disabled for this proposal, or None when it may be applied."""
        if self.gone:
            return "the proposal folder is gone"
        if self.status != PENDING:
            return f"already {self.status}"
        if not self.checked:
            return "the pre-flight check is still running"
        if self.drift == "conflicts":
            return "it conflicts with the vault as it is now (b rebases it)"
        if not self.ok:
            first = self.findings[0]
            return f"the validator rejects it: {first.code} {visible(first.path)}"
        return None

    @property
    def rebase_blocker(self) -> str | None:
        if self.gone or self.status != PENDING or not self.checked:
            return "nothing to rebase"
        if self.drift not in ("drifted", "conflicts"):
            return "it applies as it is"
        if any(f.code != "KP005" for f in self.findings):
            return "it is rejected for more than drift"
        return None

    def matches(self, query: str) -> bool:
        """``/`` filter: every word must occur in the title, author, verdict, drift or id."""
        hay = f"{self.title} {self.author} {self.verdict} {self.drift} {self.status} {self.id}".casefold()
        return all(word in hay for word in query.casefold().split())


def summarise(entry: Entry, data: dict[str, Any] | None) -> Entry:
    """Copy what a manifest says into a row that the validator has not reached yet."""
    if entry.checked or data is None:
        return entry
    title, author, changes = data.get("title"), data.get("author"), data.get("changes")
    if isinstance(title, str) and title.strip():
        entry.title = visible(title)
    if isinstance(author, dict) and isinstance(author.get("kind"), str) and isinstance(author.get("name"), str):
        entry.author = visible(f"{author['kind']}:{author['name']}")
    if isinstance(data.get("created"), str):
        entry.created = data["created"]
    if isinstance(changes, list):
        entry.files = len(changes)
    if isinstance(data.get("supersedes"), str):
        entry.supersedes = data["supersedes"]
    return entry


def fill(entry: Entry, report: ProposalReport) -> Entry:
    """Copy a validator report into an entry."""
    entry.report, entry.kept = report, None
    entry.gone = not report.subject or not report.subject.proposal.exists
    subject = report.subject
    m = subject.manifest if subject else None
    # A manifest the validator rejects keeps what the row read of it (made visible), so a
    # proposal with one bad field is still known by its title.
    entry.title = visible(m.title) if m else entry.title or "(unreadable proposal.yaml)"
    entry.author = visible(str(m.author)) if m else entry.author
    entry.created = m.created if m else entry.created
    entry.verdict = "valid" if report.ok else "rejected"
    changes = subject.changes if subject else []
    creates_only = bool(changes) and all(v.change.op == "create" for v in changes)
    # A decided proposal has no drift to show: its change is in the vault (against which it
    # "conflicts"), or never will be.
    pending = report.status == PENDING
    entry.drift = (report.drift or ("new" if creates_only else "")) if pending else ""
    entry.files = len(subject.changes) if subject else 0
    entry.status = report.status
    decided = [e for e in subject.events if e.event == report.status] if subject else []
    entry.event = decided[0] if decided else None
    entry.supersedes = m.supersedes if m else None
    trusted = subject.committed_events if subject and not subject.committed_event_problems else []
    entry.requested = changes_requested(trusted)
    return entry


def fill_kept(entry: Entry, kept: Verdict, digest: str | None) -> Entry:
    """Copy a kept verdict into an entry (``fill`` for a verdict read back, not judged now)."""
    entry.report, entry.kept, entry.digest = None, kept, digest
    entry.gone = not kept.exists
    entry.title = visible(kept.title) if kept.title is not None else entry.title or "(unreadable proposal.yaml)"
    entry.author = visible(kept.author) if kept.author is not None else entry.author
    entry.created = kept.created or entry.created
    entry.verdict = kept.verdict
    creates_only = bool(kept.changes) and all(op == "create" for op, _path in kept.changes)
    pending = kept.status == PENDING
    entry.drift = (kept.drift or ("new" if creates_only else "")) if pending else ""
    entry.files = len(kept.changes)
    entry.status = kept.status
    entry.event = kept.decided
    entry.supersedes = kept.supersedes
    entry.requested = kept.requested
    return entry


def fresh(vault: Vault) -> Vault:
    """A vault object of this thread's own (its pygit2 repository is not shared)."""
    return Vault(vault.root, vault.git_dir)


def list_ids(vault: Vault) -> list[str]:
    return store.list_ids(vault.root)


@dataclass
class Read:
    """One proposal as the pre-flight read it, in one view of the repository: its kept verdict
    is looked up and its report made on the same reading (the work tree walked once, the
    proposal's folder read once), not on two."""

    state: RepoState
    proposal: store.ProposalDir


def read(vault: Vault, settings: Settings, ulid: str) -> Read:
    v = fresh(vault)
    return Read(RepoState(v, settings), store.load_within(v.root, ulid, settings.limits))


def check(
    vault: Vault, settings: Settings, ulid: str, kept_in: str | None = None, done: Read | None = None
) -> ProposalReport:
    """The pre-flight: the validator (with its drift check against the work tree) on one proposal,
    its full report with the proposal as read (what the diff is drawn from).

    ``kept_in``: where verdicts are kept (``validator.verdicts``). A verdict kept of the same
    proposal, HEAD, config and work tree gives the findings, and the proposal is only read (a
    6,500-note adopt: a few seconds, not the rules' many); one judged now is kept. ``done``:
    the reading ``kept`` made, taken again."""
    from curator.validator import verdicts
    from curator.validator.verdict import validate_proposal

    done = done or read(vault, settings, ulid)
    state, proposal = done.state, done.proposal
    if kept_in is None:
        return validate_proposal(state, proposal)
    found = verdicts.verdict(state, proposal, kept_in)
    return found.report if found.report is not None else verdicts.report(state, proposal, kept_in)


def kept(vault: Vault, settings: Settings, ulid: str, kept_in: str | None) -> tuple[tuple[Verdict, str] | None, Read]:
    """The verdict kept of one proposal on the inputs it meets now (``verdicts.kept``) with the
    digest of the folder it is of (what ``a`` applies), None when none is kept (nothing is
    judged); and the reading it was looked up on, for ``check``."""
    from curator.validator import verdicts

    done = read(vault, settings, ulid)
    if kept_in is None:
        return None, done
    found = verdicts.kept(done.state, done.proposal, kept_in)
    return ((found, done.proposal.digest()) if found is not None else None), done


def check_all(
    vault: Vault, settings: Settings, ids: list[str], skip: Callable[[str], bool] | None = None
) -> Iterator[ProposalReport]:
    """Every proposal in ``ids``, one repository state shared (the vault is walked once).

    ``skip``: asked just before each proposal; a pre-flight checking it already delivers its report."""
    from curator.validator.verdict import validate_proposal

    v = fresh(vault)
    state = RepoState(v, settings)
    for ulid in ids:
        if skip is None or not skip(ulid):
            yield validate_proposal(state, store.load_within(v.root, ulid, settings.limits))


def judge_all(
    vault: Vault, settings: Settings, ids: list[str], kept_in: str | None, skip: Callable[[str], bool] | None = None
) -> Iterator[tuple[Verdict, str | None]]:
    """The verdict on every proposal in ``ids`` through ``validator.verdicts`` (kept in the folder
    ``kept_in``: read back while nothing it depends on changed, else judged and kept; None:
    ``check_all``), one repository state shared; with each verdict read back, the digest of the
    folder it is of (what ``a`` applies), else None (its report has the proposal as read)."""
    from curator.validator.verdicts import of_report, verdict

    if kept_in is None:
        yield from ((of_report(report), None) for report in check_all(vault, settings, ids, skip))
        return
    v = fresh(vault)
    state = RepoState(v, settings)
    for ulid in ids:
        if skip is None or not skip(ulid):
            proposal = store.load_within(v.root, ulid, settings.limits)
            found = verdict(state, proposal, kept_in)
            yield found, proposal.digest() if found.report is None else None
