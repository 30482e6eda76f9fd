"""Building proposal directories by hand, as an agent with file tools could."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pygit2
from ruamel.yaml import YAML

from curator.operations.gather import unified
from curator.vault.identity import new_ulid
from tests.conftest import GitVault, note


def head_blob(vault: GitVault, path: str) -> tuple[str, bytes]:
    repo = pygit2.Repository(str(vault.root))
    entry = repo.head.peel().tree[path]
    return str(entry.id), bytes(repo[entry.id].data)


def modify(vault: GitVault, path: str, new: str | bytes, base: bytes | None = None) -> tuple[dict[str, Any], str]:
    """A modify change of ``path`` against HEAD (or ``base``), and its diff section."""
    oid, old = head_blob(vault, path)
    if base is not None:
        old = base
        oid = str(pygit2.Repository(str(vault.root)).create_blob(base))
    new_b = new.encode("utf-8") if isinstance(new, str) else new
    return {"op": "modify", "path": path, "base_blob": oid}, unified(path, old, new_b)


def delete(vault: GitVault, path: str) -> tuple[dict[str, Any], str]:
    oid, old = head_blob(vault, path)
    return {"op": "delete", "path": path, "base_blob": oid}, unified(path, old, None)


def make_proposal(
    vault: GitVault,
    changes: list[dict[str, Any]],
    *,
    diff: str = "",
    files: dict[str, bytes | str] | None = None,
    ulid: str | None = None,
    dirname: str | None = None,
    overrides: dict[str, Any] | None = None,
    events: bytes | None = None,
    title: str = "A proposal",
) -> str:
    ulid = ulid or new_ulid()
    folder = vault.root / ".kp" / "proposals" / (dirname or ulid)
    folder.mkdir(parents=True)
    head = vault.git("rev-parse", "HEAD").stdout.strip()
    manifest: dict[str, Any] = {
        "schema": "proposals/v1",
        "id": ulid,
        "title": title,
        "rationale": "because",
        "author": {"kind": "agent", "name": "tester"},
        "created": "2026-11-29T10:00:00Z",
        "base": head,
        "changes": changes,
    }
    manifest.update(overrides or {})
    buf = io.StringIO()
    YAML(typ="safe", pure=True).dump(manifest, buf)
    (folder / "proposal.yaml").write_text(buf.getvalue(), encoding="utf-8")
    if diff:
        (folder / "changes.diff").write_bytes(diff.encode("utf-8"))
    for rel, content in (files or {}).items():
        if "\x00" in rel or rel.startswith("/") or ".." in rel.split("/") or rel.startswith(".git/"):
            continue  # an unsafe name cannot (or must not) be written under files/
        target = folder / "files" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    if events is not None:
        (folder / "events.jsonl").write_bytes(events)
    return ulid


def created(path: str, content: str | bytes, kp_id: str | None = None) -> tuple[dict[str, Any], dict[str, bytes | str]]:
    change: dict[str, Any] = {"op": "create", "path": path}
    if kp_id:
        change["kp_id"] = kp_id
    return change, {path: content}


def tree_snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def user_work(v: GitVault) -> None:
    """A person's work in progress: a staged edit, an unstaged edit and an untracked file."""
    v.write("notes/staged.md", note("kp:01J00000000000000000STAGED", "Staged"))
    v.write("notes/unstaged.md", note("kp:01J0000000000000000UNSTAGE", "Unstaged"))
    v.commit("more")
    v.write("notes/staged.md", note("kp:01J00000000000000000STAGED", "Staged", "a staged edit"))
    v.git("add", "notes/staged.md")
    v.write("notes/unstaged.md", note("kp:01J0000000000000000UNSTAGE", "Unstaged", "an unstaged edit"))
    v.write("scratch.txt", "untracked scratch")


def user_state(v: GitVault) -> tuple[str, str, str, bytes]:
    """What ``user_work`` left, to compare after Curator has run: it must be exactly the same."""
    return (
        v.git("diff", "--cached", "--", "notes/staged.md").stdout,
        v.git("diff", "--", "notes/unstaged.md").stdout,
        v.git("show", ":notes/unstaged.md").stdout,
        (v.root / "scratch.txt").read_bytes(),
    )


def vault_lock_free(v: GitVault) -> bool:
    """Whether no process holds the vault lock (a kernel lock on the git directory)."""
    import fcntl
    import os

    fd = os.open(v.root / ".git", os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True
