"""A proposal read and worked out once: manifest, diff, pre- and post-images, drift.

Rules only look at a ``Subject``; building it is where files are read. Paths
that would escape the vault are never read. A file's ``Drift`` is a ``typing.Literal``, as every
state Curator reads and writes as text is (``proposals.events`` says why).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from curator import yaml_reader
from curator.proposals import events as events_mod
from curator.proposals import manifest_yaml
from curator.proposals.diff import DiffError, FilePatch
from curator.proposals.diff import parse as parse_diff
from curator.proposals.hunks import HunkConflict, Placed, place
from curator.proposals.layout import EVENTS, MANIFEST
from curator.proposals.store import ProposalDir
from curator.validator.state import RepoState
from curator.vault.frontmatter import FrontmatterError, Split
from curator.vault.frontmatter import load as load_frontmatter
from curator.vault.frontmatter import read as read_frontmatter
from curator.vault.frontmatter import split as split_frontmatter
from curator.vault.paths import escape_reason

if TYPE_CHECKING:
    # pydantic is a third of `curator validate`'s start-up: a commit that touches only
    # notes (the usual pre-commit run) never loads it.
    from curator.proposals.manifest import Change, Manifest


Drift = Literal["clean", "drifted", "conflicts"]
"""The drift pre-flight's word on a file: unchanged since the proposal's base, changed but the
diff still applies (hunks re-anchored where they moved), or a hunk no longer applies."""
WORST_FIRST: tuple[Drift, ...] = ("conflicts", "drifted", "clean")
"""A proposal's drift is its worst file's."""


@dataclass(frozen=True)
class Frontmatter:
    """A text's frontmatter as ``vault.frontmatter.read`` gives it, or the error it raised."""

    meta: dict[str, Any] | None
    """None: the frontmatter cannot be read (``error`` says why)."""
    split: Split | None
    error: FrontmatterError | None


@dataclass
class ChangeView:
    change: Change
    patch: FilePatch | None = None
    new_bytes: bytes | None = None
    """Create: the content under files/."""
    base_bytes: bytes | None = None
    """Modify/delete: the content of base_blob (as git's clean filters would store it now), when the repository has it."""
    current_bytes: bytes | None = None
    """The work tree's file, if any, as git would store it (clean filters applied)."""
    post_from_base: str | None = None
    post_from_current: str | None = None
    current_placed: list[Placed] = field(default_factory=list)
    """Where each hunk applies in the work tree's file (``git apply``'s places, offsets included)."""
    base_placed: list[Placed] = field(default_factory=list)
    """Where each hunk applies in the base blob."""
    base_conflict: HunkConflict | None = None
    current_conflict: HunkConflict | None = None
    drift: Drift | None = None
    """clean, drifted (still applies) or conflicts."""
    readable: bool = True
    _by_text: dict[str, Frontmatter] = field(default_factory=dict, repr=False, compare=False)
    _by_block: dict[str, dict[str, Any] | FrontmatterError] = field(default_factory=dict, repr=False, compare=False)

    def frontmatter(self, text: str) -> Frontmatter:
        """``text``'s frontmatter (the post- or pre-image), read once however many rules ask (a
        6,500-note proposal read each note's five times, a third of its validation), and once
        for both images when the change leaves the block as it was."""
        known = self._by_text.get(text)
        if known is not None:
            return known
        split = split_frontmatter(text)
        if split.yaml is None or split.unclosed:
            try:
                meta, split = read_frontmatter(text)
                known = Frontmatter(meta, split, None)
            except FrontmatterError as e:
                known = Frontmatter(None, None, e)
        else:
            block = self._by_block.get(split.yaml)
            if block is None:
                try:
                    block = load_frontmatter(split.yaml)
                except FrontmatterError as e:
                    block = e
                self._by_block[split.yaml] = block
            if isinstance(block, FrontmatterError):
                known = Frontmatter(None, None, block)
            else:
                known = Frontmatter(block, split, None)
        self._by_text[text] = known
        return known

    def meta(self, text: str | None) -> dict[str, Any] | None:
        """``text``'s frontmatter mapping, or None when there is no text or it cannot be read."""
        return None if text is None else self.frontmatter(text).meta

    @property
    def post_text(self) -> str | None:
        """What the file will hold after applying (create content or patched text)."""
        if self.change.op == "create":
            if self.new_bytes is None:
                return None
            try:
                return self.new_bytes.decode("utf-8")
            except UnicodeDecodeError:
                return None
        if self.change.op == "delete":
            return None
        return self.post_from_current if self.post_from_current is not None else self.post_from_base

    @property
    def largest_offset(self) -> int:
        """How far (in lines) the furthest hunk moved from where the proposal put it."""
        return max((abs(p.offset) for p in self.current_placed), default=0)

    @property
    def pre_text(self) -> str | None:
        raw = self.base_bytes if self.base_bytes is not None else self.current_bytes
        if raw is None:
            return None
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return None


@dataclass
class Subject:
    proposal: ProposalDir
    manifest: Manifest | None = None
    manifest_problems: list[str] = field(default_factory=list)
    raw_manifest: Any = None
    patches: list[FilePatch] = field(default_factory=list)
    diff_error: DiffError | None = None
    diff_not_utf8: bool = False
    changes: list[ChangeView] = field(default_factory=list)
    events: list[events_mod.Event] = field(default_factory=list)
    """The candidate's events (work tree, index or commit): untrusted."""
    event_problems: list[str] = field(default_factory=list)
    committed_events: list[events_mod.Event] = field(default_factory=list)
    """The events committed in HEAD (``--against``): what the status comes from."""
    committed_event_problems: list[str] = field(default_factory=list)
    accepted: events_mod.Event | None = None
    """A decision the candidate adds that Curator made (set by the events rule)."""

    @property
    def committed_status(self) -> events_mod.Status:
        return events_mod.status(self.committed_events)

    @property
    def status(self) -> events_mod.Status:
        """The committed status, or the decision the candidate adds (a request for changes it adds
        decides nothing: the proposal stays pending)."""
        if self.accepted is not None and events_mod.is_decision(self.accepted.event):
            return self.accepted.event
        return self.committed_status

    @property
    def drift(self) -> Drift | None:
        states = {v.drift for v in self.changes if v.drift}
        return next((d for d in WORST_FIRST if d in states), None)


def manifest_of(proposal: ProposalDir) -> Manifest | None:
    """The proposal's manifest as the validator reads it, or None when it cannot be read."""
    subject = Subject(proposal)
    _load_manifest(subject)
    return subject.manifest


def _load_manifest(subject: Subject) -> None:
    raw = subject.proposal.manifest
    if raw is None:
        size = subject.proposal.unread.get(MANIFEST)
        if size is not None:
            subject.manifest_problems.append(
                f"proposal.yaml is {size / (1024 * 1024):.1f} MiB, too large to read (limits.max_proposal_bytes); "
                "a manifest lists changes, it holds no content"
            )
        else:
            subject.manifest_problems.append("proposal.yaml is missing")
        return
    from curator.proposals.manifest import parse as parse_manifest

    try:
        data = manifest_yaml.load(raw)
    except UnicodeDecodeError:
        subject.manifest_problems.append("proposal.yaml is not UTF-8")
        return
    except yaml_reader.YamlTooLarge as e:
        subject.manifest_problems.append(f"proposal.yaml {e.problem}")
        return
    except yaml_reader.YamlRefused as e:
        subject.manifest_problems.append(f"proposal.yaml is not valid YAML: {e.problem}")
        return
    subject.raw_manifest = data
    subject.manifest, problems = parse_manifest(data)
    subject.manifest_problems.extend(problems)


def _decode(raw: bytes | None) -> str | None:
    if raw is None:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _images(view: ChangeView, state: RepoState) -> None:
    change, patch = view.change, view.patch
    if change.base_blob:
        if view.current_bytes is not None and _blob_id(view.current_bytes) == change.base_blob:
            # The work tree (cleaned) holds exactly the base blob (git's ids name content, and
            # cleaning is idempotent): the usual undrifted case needs no object read.
            view.base_bytes = view.current_bytes
        else:
            raw_base = state.blob(change.base_blob)
            view.base_bytes = None if raw_base is None else state.clean(change.path, raw_base)
    if patch is None or patch.binary:
        return
    delete = change.op == "delete"
    current_text = _decode(view.current_bytes)
    if view.current_bytes is None:
        view.current_conflict = HunkConflict(0, 0, "the file no longer exists")
    elif current_text is None:
        view.current_conflict = HunkConflict(0, 0, "the file is not UTF-8 text")
    else:
        try:
            view.post_from_current, view.current_placed = place(current_text, patch.hunks, delete=delete)
        except HunkConflict as e:
            view.current_conflict = e
    if current_text is not None and view.base_bytes == view.current_bytes:
        # Same text, same engine: applying the hunks to the base gives the same result.
        view.post_from_base, view.base_conflict = view.post_from_current, view.current_conflict
        view.base_placed = view.current_placed
    else:
        base_text = _decode(view.base_bytes)
        if base_text is not None:
            try:
                view.post_from_base, view.base_placed = place(base_text, patch.hunks, delete=delete)
            except HunkConflict as e:
                view.base_conflict = e
    if view.current_conflict is not None:
        view.drift = "conflicts"
    elif view.base_bytes is not None and view.current_bytes == view.base_bytes:
        view.drift = "clean"
    else:
        view.drift = "drifted"


def _blob_id(data: bytes) -> str:
    import pygit2

    return str(pygit2.hash(data))


def build(proposal: ProposalDir, state: RepoState) -> Subject:
    subject = Subject(proposal)
    if not proposal.exists:
        subject.manifest_problems.append("no such proposal directory")
        return subject
    _load_manifest(subject)
    if proposal.events is not None:
        subject.events, subject.event_problems = events_mod.parse(proposal.events)
    committed = state.head_bytes(f"{proposal.rel_dir}/{EVENTS}")
    if committed is not None:
        subject.committed_events, subject.committed_event_problems = events_mod.parse(committed)
    if proposal.diff is not None:
        text = _decode(proposal.diff)
        if text is None:
            subject.diff_not_utf8 = True
        else:
            try:
                subject.patches = parse_diff(text)
            except DiffError as e:
                subject.diff_error = e
    if subject.manifest is None:
        return subject
    by_path: dict[str, FilePatch] = {}
    for fp in subject.patches:
        by_path.setdefault(fp.path, fp)
    for change in subject.manifest.changes:
        view = ChangeView(change)
        subject.changes.append(view)
        if escape_reason(change.path) or state.symlink_on_path(change.path):
            view.readable = False
            continue
        view.current_bytes = state.worktree_clean(change.path)
        if change.op == "create":
            stored = proposal.files.get(change.path)
            view.new_bytes = stored.data if stored else None
        else:
            view.patch = by_path.get(change.path)
            _images(view, state)
    return subject
