"""Staging a proposal: build it in memory, validate it, and only then write it.

``stage()`` is the one way a proposal enters ``.kp/proposals/`` — ``curator
propose`` and the MCP server's ``kp_propose`` both call it, with the vault lock
held. A proposal is assembled and validated in memory, so one the validator
rejects never touches the disk: no folder, no file under ``files/``, no loose
object in ``.git``. Every path is checked by ``curator.vault.paths`` (the
function the validator's KP002 rule uses) before it is joined to a folder.

A valid proposal is written to a hidden ``.staging-<ULID>`` folder and renamed
into place, so a reader never sees half a proposal. When it came from work-tree
edits, those files are then restored. A propose journal in the git directory
(``curator-propose.json``) names the staging folder and every file to restore,
so a kill at any point is finished or undone by the next Curator command
(``curator.operations.recovery``): before the rename the folder is removed and the
files are untouched; after it the restores are completed.
"""

from __future__ import annotations

import io
import os
import shutil
import stat
from dataclasses import dataclass, field

from curator import clock, faults
from curator.errors import UsageError
from curator.fsutil import fsync_dir, write_atomic
from curator.operations import propose_journal, recovery
from curator.operations.propose_journal import STAGING_PREFIX, Restore
from curator.proposals import store
from curator.proposals.layout import DIFF, FILES, MANIFEST, PROPOSALS_DIR
from curator.proposals.manifest import AUTHOR_KINDS, Author, Change, Manifest, Op
from curator.settings import Settings
from curator.validator import verdict_key, verdicts
from curator.validator.state import RepoState
from curator.validator.verdict import ProposalReport, validate_proposal
from curator.vault import packs
from curator.vault.discover import Vault
from curator.vault.identity import new_ulid
from curator.vault.paths import UnsafePath, escape_reason


@dataclass
class Draft:
    op: Op
    path: str
    base_blob: str | None = None
    diff: str | None = None
    content: bytes | None = None
    kp_id: str | None = None


@dataclass
class Staged:
    id: str
    report: ProposalReport
    folder: str | None = None
    """The proposal's folder once staged; None when the validator rejected it."""
    restored: list[Restore] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.folder is not None


def parse_author(text: str) -> Author:
    kind, sep, name = text.partition(":")
    if not sep or kind not in AUTHOR_KINDS or not name.strip():
        raise UsageError(f"--author must be kind:name with kind agent, human or librarian, not {text!r}")
    return Author.model_validate({"kind": kind, "name": name.strip()})


def default_author(vault: Vault) -> Author:
    try:
        name = vault.repo.config["user.name"]
    except (KeyError, ValueError):  # no user.name in any git config
        name = os.environ.get("USER") or "someone"
    return Author(kind="human", name=str(name))


def head_commit(vault: Vault) -> str:
    repo = vault.repo
    if repo.head_is_unborn:
        raise UsageError("the vault has no commits yet; commit once, then propose against it")
    return str(repo.head.target)


def _yaml_text(manifest: Manifest) -> bytes:
    """proposal.yaml: the header by ruamel's round-trip dumper (a multi-line rationale stays one
    double-quoted line), the list of changes by its C emitter, in the same order of keys.

    The round-trip dumper is pure Python: for an adopt of 3,090 notes it was a third of the
    command's CPU time, the C emitter a fifth of that. Both write the same block style; a
    path holding a quote may be quoted the other way, which reads back the same."""
    from ruamel.yaml import YAML

    data = manifest.to_yaml_dict()
    changes = data.pop("changes", None)
    y = YAML(typ="rt")
    y.width = 4096
    y.default_flow_style = False
    buf = io.StringIO()
    y.dump(data, buf)
    if changes is not None:
        fast = YAML(typ="safe")
        fast.width = 4096
        fast.default_flow_style = False
        fast.allow_unicode = True
        fast.sort_base_mapping_type_on_output = False  # type: ignore[assignment]  # ruamel declares it None
        fast.dump({"changes": changes}, buf)
    return buf.getvalue().encode("utf-8")


def build(
    drafts: list[Draft],
    *,
    ulid: str,
    title: str,
    rationale: str,
    author: Author,
    base: str,
    supersedes: str | None = None,
    revised_by: Author | None = None,
) -> store.ProposalDir:
    """The proposal as the validator reads it, held in memory; nothing is written."""
    drafts = sorted(drafts, key=lambda d: d.path)
    manifest = Manifest(
        schema="proposals/v1",
        id=ulid,
        title=title,
        rationale=rationale,
        author=author,
        created=clock.iso(),
        base=base,
        changes=[
            Change.model_validate({"op": d.op, "path": d.path, "kp_id": d.kp_id, "base_blob": d.base_blob})
            for d in drafts
        ],
        supersedes=supersedes,
        revised_by=revised_by,
    )
    p = store.ProposalDir(ulid, f"{PROPOSALS_DIR}/{ulid}")
    p.manifest = _yaml_text(manifest)
    p.total_bytes += len(p.manifest)
    diffs = "".join(d.diff for d in drafts if d.diff)
    if diffs:
        p.diff = diffs.encode("utf-8")
        p.total_bytes += len(p.diff)
    for d in drafts:
        if d.op == "create" and d.content is not None:
            p.files[d.path] = store.StoredFile(len(d.content), d.content)
            p.total_bytes += len(d.content)
    return p


def stage(
    vault: Vault,
    settings: Settings,
    drafts: list[Draft],
    *,
    title: str,
    rationale: str,
    author: Author,
    base: str,
    restores: list[Restore] | None = None,
    blobs: dict[str, bytes] | None = None,
    ulid: str | None = None,
    supersedes: str | None = None,
    revised_by: Author | None = None,
    kept_in: str | None = None,
) -> Staged:
    """Validate ``drafts`` as a proposal and stage it only if it is valid, under the vault lock.

    ``restores``: work-tree files to put back once the proposal holds their edits
    (the validator sees them as restored). ``blobs``: base blobs the proposal names
    that the object store lacks; written only when the proposal is staged. ``kept_in``: where
    verdicts are kept (``validator.verdicts``): the verdict of a staged proposal is kept there
    when nothing stood in front of the work tree, and the review reads it back at once.
    """
    if not drafts:
        raise UsageError("nothing to propose: no changed notes")
    with recovery.locked(vault, "propose"):
        return _stage(
            vault,
            settings,
            drafts,
            title,
            rationale,
            author,
            base,
            restores,
            blobs,
            ulid,
            supersedes,
            revised_by,
            kept_in,
        )


def _stage(
    vault: Vault,
    settings: Settings,
    drafts: list[Draft],
    title: str,
    rationale: str,
    author: Author,
    base: str,
    restores: list[Restore] | None,
    blobs: dict[str, bytes] | None,
    ulid: str | None,
    supersedes: str | None,
    revised_by: Author | None,
    kept_in: str | None = None,
) -> Staged:
    ulid = ulid or new_ulid()
    restores = restores or []
    proposal = build(
        drafts,
        ulid=ulid,
        title=title,
        rationale=rationale,
        author=author,
        base=base,
        supersedes=supersedes,
        revised_by=revised_by,
    )
    overlay = {r.path: (None if r.restore is None else propose_journal.restore_bytes(vault, r)) for r in restores}
    state = RepoState(vault, settings, overlay, blobs=blobs)
    if kept_in is not None:
        verdict_key.prime(state)
    report = validate_proposal(state, proposal)
    if not report.ok:
        return Staged(ulid, report)
    folder = _publish(vault, proposal, restores, blobs or {})
    verdicts.kept_staged(state, report, kept_in)
    return Staged(ulid, report, folder, restores)


def proposals_root(vault: Vault) -> str:
    """``.kp/proposals`` as a real folder of the vault (made if missing), never through a symlink."""
    here = vault.root
    for part in PROPOSALS_DIR.split("/"):
        here = os.path.join(here, part)
        try:
            st = os.lstat(here)
        except FileNotFoundError:
            os.mkdir(here)
            continue
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
            raise UsageError(
                f"{vault.relpath(here)} is not a plain folder (a symlink or a file); Curator writes proposals "
                "only inside the vault",
                hint=f"make {vault.relpath(here)} a real folder",
            )
    return here


def _publish(vault: Vault, proposal: store.ProposalDir, restores: list[Restore], blobs: dict[str, bytes]) -> str:
    root = proposals_root(vault)
    ulid = proposal.id
    staging = os.path.join(root, STAGING_PREFIX + ulid)
    final = os.path.join(root, ulid)
    propose_journal.save(vault, ulid, restores)
    faults.point("propose:after-journal")
    try:
        os.mkdir(staging)
        assert proposal.manifest is not None
        write_atomic(os.path.join(staging, MANIFEST), proposal.manifest, within=staging)
        if proposal.diff is not None:
            write_atomic(os.path.join(staging, DIFF), proposal.diff, within=staging)
        for rel, stored in proposal.files.items():
            # Validated already (KP002); checked again here because this is where the path is joined.
            reason = escape_reason(rel)
            if reason:
                raise UnsafePath(rel, reason)
            assert stored.data is not None
            write_atomic(os.path.join(staging, FILES, *rel.split("/")), stored.data, within=staging)
        faults.point("propose:mid-staging")
        # The restores' blobs too, so a recovery can finish the restore.
        packs.write_blobs(vault.repo, [*blobs.values(), *(r.data for r in restores if r.data is not None)])
        os.rename(staging, final)
    except BaseException:
        # Nothing is published and nothing restored: take the half-built folder back.
        shutil.rmtree(staging, ignore_errors=True)
        propose_journal.clear(vault)
        raise
    fsync_dir(root)
    faults.point("propose:after-publish")
    for n, r in enumerate(restores):
        propose_journal.restore(vault, r)
        if n == 0:
            faults.point("propose:mid-restore")
    propose_journal.clear(vault)
    return final
