"""What a proposal's own files say, read without the repository or the validator: the queue's
ids, each manifest as plain data for its row, and the stored diff the diff pane shows while the
pre-flight runs. No Textual here; each read is bounded and never follows a symlink out of the
proposal's folder (``proposals.store``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from curator import clock, yaml_reader
from curator.proposals import manifest_yaml, store
from curator.proposals.layout import DIFF, EVENTS, FILES, MANIFEST, PROPOSALS_DIR
from curator.vault.discover import Vault
from curator.vault.paths import escape_reason

if TYPE_CHECKING:
    from curator.settings import Settings
    from curator.validator.subject import ChangeView

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


def _folder(vault: Vault, ulid: str) -> store.DiskFolder:
    return store.folder_of(vault.root, ulid)


def list_queue(vault: Vault) -> list[tuple[str, bool]]:
    """Every proposal id, and whether its folder holds an events.jsonl (a hint it was decided)."""
    return [
        (ulid, os.path.lexists(os.path.join(vault.root, PROPOSALS_DIR, ulid, EVENTS)))
        for ulid in store.list_ids(vault.root)
    ]


def read_manifest(vault: Vault, ulid: str, cap: int = MANIFEST_CAP) -> dict[str, Any] | None:
    """proposal.yaml as plain data, for the queue's row before the validator has run.

    No pydantic here (a third of a second to import): the row only shows the title, author,
    age and number of files, each checked for its type and made visible; the validator's
    reading replaces it."""
    raw = _folder(vault, ulid).file(MANIFEST, cap)
    if raw is None:
        return None
    try:
        data = manifest_yaml.load(raw)
    except (yaml_reader.YamlRefused, ValueError):
        return None
    return data if isinstance(data, dict) else None


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
