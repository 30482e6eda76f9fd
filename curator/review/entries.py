"""The queue as the review UI sees it: one entry per proposal, checked by the validator.

No Textual here: the app's workers call these functions off the UI thread, and
each call opens its own repository object (pygit2 objects are not shared
between threads).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from curator import clock, yaml_reader
from curator.diffview.visible import visible
from curator.proposals import store
from curator.proposals.events import changes_requested
from curator.proposals.layout import DIFF, EVENTS, FILES, MANIFEST, PROPOSALS_DIR
from curator.validator.state import RepoState
from curator.vault.discover import Vault
from curator.vault.paths import escape_reason

if TYPE_CHECKING:
    from curator.proposals.events import Event
    from curator.settings import Settings
    from curator.validator.subject import ChangeView
    from curator.validator.verdict import ProposalReport

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
        return self.report is not None or self.gone

    @property
    def held_back(self) -> bool:
        """Out of the pending view until the validator has read its committed events."""
        return self.maybe_decided and not self.checked

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
        when = clock.from_epoch(ms / 1000)
    except (OverflowError, OSError, ValueError):
        return None
    return clock.iso(when)


# Manifests read before the first paint: one change is about 150 bytes, so this is a proposal of
# a few hundred files. Larger ones (an adopt of thousands of notes: half a megabyte, a second or
# two of YAML) are shown by their id at first and read after the first paint.
MANIFEST_CAP = 64 * 1024
# Large manifests kept parsed (their bytes and data), a few at a time.
LARGE_KEPT = 4
_large: dict[str, tuple[bytes, dict[str, Any] | None]] = {}
_large_lock = threading.Lock()


def _folder(vault: Vault, ulid: str) -> store.DiskFolder:
    return store.folder_of(vault.root, ulid)


def list_queue(vault: Vault) -> list[tuple[str, bool]]:
    """Every proposal id, and whether its folder holds an events.jsonl (a hint it was decided)."""
    return [(ulid, os.path.lexists(os.path.join(vault.root, PROPOSALS_DIR, ulid, EVENTS))) for ulid in list_ids(vault)]


def read_manifest(vault: Vault, ulid: str, cap: int = MANIFEST_CAP) -> dict[str, Any] | None:
    """proposal.yaml as plain data, for the queue's row before the validator has run.

    No pydantic here (a third of a second to import): the row only shows the title, author,
    age and number of files, each checked for its type and made visible; the validator's
    reading replaces it."""
    raw = _folder(vault, ulid).file(MANIFEST, cap)
    if raw is None:
        return None
    if len(raw) <= MANIFEST_CAP:
        return _parse(raw)
    # A large one is read by the queue's worker and by the pre-flight's stored diff, often at
    # the same moment: parsed once (the same bytes give the same data).
    key = os.path.join(vault.root, ulid)
    with _large_lock:
        found = _large.get(key)
        if found is not None and found[0] == raw:
            return found[1]
        data = _parse(raw)
        if len(_large) >= LARGE_KEPT:
            _large.clear()
        _large[key] = (raw, data)
        return data


def _parse(raw: bytes) -> dict[str, Any] | None:
    try:
        data = yaml_reader.load(raw.decode("utf-8"))
    except (yaml_reader.YamlRefused, ValueError):
        return None
    return data if isinstance(data, dict) else None


def summarise(entry: Entry, data: dict[str, Any] | None) -> Entry:
    """Copy what a manifest says into a row that the validator has not reached yet."""
    if entry.report is not None or data is None:
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


def _head(text: str, sections: int) -> str:
    """The first ``sections`` file sections of a git diff (each starts a line with ``diff --git``)."""
    at = 0
    for _ in range(sections):
        at = text.find("\ndiff --git ", at + 1)
        if at < 0:
            return text
    return text[: at + 1]


def stored_changes(
    vault: Vault, settings: Settings, ulid: str, first: int | None = None
) -> tuple[list[ChangeView], int] | None:
    """The changes as the proposal's own files state them, read without the repository,
    and how many of the manifest's changes are left out.

    What the diff pane shows while the pre-flight runs: the manifest's changes with their
    sections of changes.diff, and created files from files/. No base, no drift and no
    verdict (the pre-flight's model replaces this one). ``first``: only the first that many
    sections of the diff are read (a screenful of an adopt proposal's thousands), and only
    the changes found in them are given. None when the manifest or the diff cannot be read;
    the pre-flight then says why."""
    from curator.proposals.diff import DiffError, FilePatch, parse
    from curator.proposals.manifest import parse as parse_manifest
    from curator.validator.subject import ChangeView

    folder = _folder(vault, ulid)
    limits = settings.limits
    raw = folder.file(DIFF, limits.max_proposal_bytes)
    data = read_manifest(vault, ulid, limits.max_proposal_bytes)
    manifest, _problems = parse_manifest(data) if data is not None else (None, [])
    if manifest is None:
        return None
    try:
        text = raw.decode("utf-8") if raw else ""
        patches = parse(_head(text, first) if first is not None else text)
    except (DiffError, UnicodeDecodeError):
        return None
    by_path: dict[str, FilePatch] = {}
    for fp in patches:
        by_path.setdefault(fp.path, fp)
    views: list[ChangeView] = []
    for change in manifest.changes:
        if first is not None and (len(views) >= first or (change.op != "create" and change.path not in by_path)):
            continue
        view = ChangeView(change)
        views.append(view)
        if escape_reason(change.path):
            view.readable = False
        elif change.op == "create":
            view.new_bytes = folder.file(f"{FILES}/{change.path}", limits.max_file_bytes)
        else:
            view.patch = by_path.get(change.path)
    return views, len(manifest.changes) - len(views)


def fill(entry: Entry, report: ProposalReport) -> Entry:
    """Copy a validator report into an entry."""
    entry.report = report
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
    pending = report.status == "pending"
    entry.drift = (report.drift or ("new" if creates_only else "")) if pending else ""
    entry.files = len(subject.changes) if subject else 0
    entry.status = report.status
    decided = [e for e in subject.events if e.event == report.status] if subject else []
    entry.event = decided[0] if decided else None
    entry.supersedes = m.supersedes if m else None
    trusted = subject.committed_events if subject and not subject.committed_event_problems else []
    entry.requested = changes_requested(trusted)
    return entry


def fresh(vault: Vault) -> Vault:
    """A vault object of this thread's own (its pygit2 repository is not shared)."""
    return Vault(vault.root, vault.git_dir)


def list_ids(vault: Vault) -> list[str]:
    return store.list_ids(vault.root)


def check(vault: Vault, settings: Settings, ulid: str) -> ProposalReport:
    """The pre-flight: the validator (with its drift check against the work tree) on one proposal."""
    from curator.validator.verdict import validate_proposal

    v = fresh(vault)
    return validate_proposal(RepoState(v, settings), store.load_within(v.root, ulid, settings.limits))


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
