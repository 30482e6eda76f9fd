"""Staging a proposal: write ``.kp/proposals/<ULID>/`` atomically, then validate it.

A proposal is assembled in a hidden folder beside the queue and renamed into
place, so a reader never sees half a proposal. One the validator rejects is
not staged: the caller gets the findings and nothing is left behind.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import shutil
from dataclasses import dataclass

from curator.errors import UsageError
from curator.fsutil import fsync_dir, write_atomic
from curator.proposals import store
from curator.proposals.layout import DIFF, FILES, MANIFEST, PROPOSALS_DIR
from curator.proposals.manifest import Author, Change, Manifest
from curator.vault.discover import Vault
from curator.vault.identity import new_ulid


@dataclass
class Draft:
    op: str
    path: str
    base_blob: str | None = None
    diff: str | None = None
    content: bytes | None = None
    kp_id: str | None = None


def parse_author(text: str) -> Author:
    kind, sep, name = text.partition(":")
    if not sep or kind not in ("agent", "human", "librarian") or not name.strip():
        raise UsageError(f"--author must be kind:name with kind agent, human or librarian, not {text!r}")
    return Author(kind=kind, name=name.strip())


def default_author(vault: Vault) -> Author:
    try:
        name = vault.repo.config["user.name"]
    except (KeyError, ValueError):  # no user.name in any git config
        name = os.environ.get("USER") or "someone"
    return Author(kind="human", name=str(name))


def _yaml_text(manifest: Manifest) -> bytes:
    from ruamel.yaml import YAML

    y = YAML(typ="rt")
    y.width = 4096
    y.default_flow_style = False
    buf = io.StringIO()
    y.dump(manifest.to_yaml_dict(), buf)
    return buf.getvalue().encode("utf-8")


def write(
    vault: Vault,
    drafts: list[Draft],
    *,
    title: str,
    rationale: str,
    author: Author,
    base: str,
    ulid: str | None = None,
    supersedes: str | None = None,
) -> tuple[str, str]:
    """Write a proposal into a hidden staging folder; returns (id, staging path)."""
    if not drafts:
        raise UsageError("nothing to propose: no changed notes")
    ulid = ulid or new_ulid()
    drafts = sorted(drafts, key=lambda d: d.path)
    manifest = Manifest(
        schema="proposals/v1",
        id=ulid,
        title=title,
        rationale=rationale,
        author=author,
        created=dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        base=base,
        changes=[Change(op=d.op, path=d.path, kp_id=d.kp_id, base_blob=d.base_blob) for d in drafts],
        supersedes=supersedes,
    )
    root = os.path.join(vault.root, PROPOSALS_DIR)
    staging = os.path.join(root, f".staging-{ulid}")
    os.makedirs(staging)
    write_atomic(os.path.join(staging, MANIFEST), _yaml_text(manifest))
    diffs = "".join(d.diff for d in drafts if d.diff)
    if diffs:
        write_atomic(os.path.join(staging, DIFF), diffs.encode("utf-8"))
    for d in drafts:
        if d.op == "create" and d.content is not None:
            write_atomic(os.path.join(staging, FILES, *d.path.split("/")), d.content)
    return ulid, staging


def publish(vault: Vault, ulid: str, staging: str) -> str:
    final = os.path.join(vault.root, PROPOSALS_DIR, ulid)
    os.rename(staging, final)
    fsync_dir(os.path.dirname(final))
    return final


def discard(staging: str) -> None:
    shutil.rmtree(staging, ignore_errors=True)


def load_staging(vault: Vault, staging: str, ulid: str) -> store.ProposalDir:
    """Load a staging folder as if it were already in the queue (for validation)."""
    return store.load(vault.root, ulid, folder=staging)


def head_commit(vault: Vault) -> str:
    repo = vault.repo
    if repo.head_is_unborn:
        raise UsageError("the vault has no commits yet; commit once, then propose against it")
    return str(repo.head.target)
