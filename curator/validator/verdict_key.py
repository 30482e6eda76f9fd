"""What a kept verdict is keyed by (``validator.verdicts``): the proposal folder's bytes, HEAD,
the config as parsed, the work tree the proposal meets (every file's path, size and time from the
stat walk, git's own files), and Curator itself. Any of them changed: judged again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import time
from functools import lru_cache
from importlib import util
from typing import Any

from curator.proposals.layout import PROPOSALS_DIR
from curator.proposals.store import ProposalDir
from curator.validator.state import RepoState
from curator.vault.tree import GitView, walk

SCHEMA = "verdicts/1"
RACY_NS = 2_000_000_000
"""A file changed this recently may change again unseen (same size, same time)."""
GIT_FILES = ("index", "config", "info/exclude", "info/attributes", "HEAD")
"""Files of the git directory a verdict depends on (HEAD itself is in the key by commit)."""
LIBRARIES = ("pygit2", "ruamel.yaml", "unidiff", "detect_secrets", "pydantic")
WALKED = "_verdicts_walk"


def keeps(state: RepoState) -> bool:
    """Whether verdicts in ``state`` may be kept: the work tree against HEAD, as it is."""
    return type(state) is RepoState and state.against == "HEAD" and not state.overlay and not state.pending_blobs


def key_of(state: RepoState, proposal: ProposalDir, *, again: bool = False) -> str | None:
    if not keeps(state):
        return None
    h = hashlib.sha256()
    for part in (
        SCHEMA,
        code(),
        proposal.id,
        proposal.digest(),
        "events " + hashlib.sha256(proposal.events).hexdigest() if proposal.events is not None else "no events",
        f"exists {proposal.exists} bytes {proposal.total_bytes}",
        state.head_commit_id or "unborn",
        json.dumps(state.settings.to_dict(), sort_keys=True, default=str),
        worktree(state, proposal.id, again=again)[0],
    ):
        h.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return h.hexdigest()


def settled(state: RepoState, ulid: str) -> bool:
    """No file of the work tree changed so recently that a second change could go unseen; the
    proposal's own folder is keyed by its bytes (``ProposalDir.digest``), not by its files' times,
    so one staged a moment ago is settled all the same."""
    return time.time_ns() - worktree(state, ulid)[1] > RACY_NS


Walk = tuple[str, int, dict[str, tuple[str, int]]]
"""(a digest of the work tree outside the proposal folders, with git's own files; the newest time
among them; each proposal folder's digest and newest time, by its id)."""


def worktree(state: RepoState, ulid: str, *, again: bool = False) -> tuple[str, int]:
    """(a digest of the work tree's files by path, size and time, with git's own files, leaving
    out the folder of proposal ``ulid``; the newest time among them)."""
    outside, newest, folders = walk_tree(state, again=again)
    h = hashlib.sha256(outside.encode())
    for other in sorted(folders):
        if other != ulid:
            digest, when = folders[other]
            h.update(f"proposal {other} {digest}\n".encode())
            newest = max(newest, when)
    return h.hexdigest(), newest


def walk_tree(state: RepoState, *, again: bool = False) -> Walk:
    """The work tree walked once per state unless ``again`` (after judging: did it change meanwhile?).

    A proposal's own folder is left out of its key: what it holds is in the key by its bytes,
    and a verdict judged before it was written (``kept_staged``) is keyed as one judged after."""
    attr = WALKED
    known = getattr(state, attr, None)
    if known is not None and not again:
        return known  # type: ignore[no-any-return]
    outside = hashlib.sha256()
    newest = 0
    by_folder: dict[str, tuple[Any, int]] = {}
    prefix = PROPOSALS_DIR + "/"
    # Folders git ignores are not entered (a virtualenv, an index kept in the vault): what a
    # proposal may write there is refused by its path alone.
    listing = walk(state.vault.root, GitView(state.vault).dir_ignored, sizes=True)
    for f in sorted(listing.files, key=lambda f: f.path):
        line = f"{f.path}\0{f.size}\0{f.mtime_ns}\n".encode("utf-8", "surrogateescape")
        ulid, sep, _rest = f.path[len(prefix) :].partition("/") if f.path.startswith(prefix) else ("", "", "")
        if sep:
            h, when = by_folder.get(ulid) or (hashlib.sha256(), 0)
            h.update(line)
            by_folder[ulid] = (h, max(when, f.mtime_ns))
            continue
        outside.update(line)
        newest = max(newest, f.mtime_ns)
    for skip in sorted(listing.skips, key=lambda s: s.path):
        outside.update(f"skip {skip.path}\0{skip.reason}\n".encode("utf-8", "surrogateescape"))
    for pruned in sorted(listing.pruned):
        outside.update(f"pruned {pruned}\n".encode("utf-8", "surrogateescape"))
    config = os.path.join(state.vault.root, ".kp", "config.yaml")
    elsewhere = [os.path.join(state.vault.git_dir, name) for name in GIT_FILES] + [config, *git_user_files(state)]
    for path in elsewhere:
        try:
            st = os.stat(path)
        except OSError:
            outside.update(f"{path} absent\n".encode("utf-8", "surrogateescape"))
            continue
        outside.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\n".encode("utf-8", "surrogateescape"))
        newest = max(newest, st.st_mtime_ns)
    folders = {ulid: (h.hexdigest(), when) for ulid, (h, when) in by_folder.items()}
    known = (outside.hexdigest(), newest, folders)
    setattr(state, attr, known)
    return known


def git_user_files(state: RepoState) -> list[str]:
    """The user's and the system's git config, ignore and attribute files (line endings, ignores)."""
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    found = [os.path.join(home, ".gitconfig"), "/etc/gitconfig"]
    found += [os.path.join(xdg, "git", name) for name in ("config", "ignore", "attributes")]
    found += [os.environ[v] for v in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM") if os.environ.get(v)]
    with contextlib.suppress(Exception):  # pygit2 raises its own errors on an odd config
        config = state.repo.config
        for name in ("core.excludesFile", "core.attributesFile"):
            if name in config:
                found.append(os.path.expanduser(str(config[name])))
    return found


@lru_cache(maxsize=1)
def code() -> str:
    """Curator as installed: its source files by path, size and time, and the judging libraries'
    files. A new release, an edited checkout or an upgraded library judges again."""
    return sources(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sources(root: str) -> str:
    """A digest of the Python and YAML files under ``root`` (path, size, time) and of the judging
    libraries' files."""
    h = hashlib.sha256(sys.version.encode())
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".py", ".yaml")):
                st = os.stat(os.path.join(folder, name))
                rel = os.path.relpath(os.path.join(folder, name), root)
                h.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))
    for lib in LIBRARIES:
        # Found, not imported (detect-secrets alone is a tenth of a second): a library upgraded
        # or reinstalled rewrites the file its package starts from.
        spec = util.find_spec(lib)
        origin = spec.origin if spec is not None else None
        try:
            seen = os.stat(origin) if origin else None
        except OSError:
            seen = None
        size, mtime = (seen.st_size, seen.st_mtime_ns) if seen is not None else (-1, -1)
        h.update(f"{lib} {origin} {size} {mtime}\n".encode())
    return h.hexdigest()


def prime(state: RepoState) -> None:
    """Walk the work tree now, before a proposal is judged to be staged: ``kept_staged`` keeps its
    verdict only if the tree is as this walk found it once the proposal is written."""
    if keeps(state):
        walk_tree(state)


def walked(state: RepoState) -> bool:
    """Whether ``state``'s work tree was walked (``prime``) before what is judged in it."""
    return getattr(state, WALKED, None) is not None
