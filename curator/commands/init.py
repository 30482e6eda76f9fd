"""``curator init``: set up ``.kp/`` and ``.gitattributes`` in a vault (idempotent)."""

from __future__ import annotations

import os
from importlib import resources
from typing import TYPE_CHECKING

from curator import output
from curator.commands.app import App
from curator.errors import WriteRefused
from curator.fsutil import write_atomic
from curator.vault import git
from curator.vault.globs import compile_globs
from curator.vault.paths import symlink_on_path

if TYPE_CHECKING:
    from curator.vault.discover import Vault

GITATTRIBUTES = (
    "# Curator: notes keep LF line endings so proposal diffs apply byte for byte",
    "*.md text eol=lf",
    "*.markdown text eol=lf",
    "*.mdx text eol=lf",
    "*.txt text eol=lf",
    "# Curator: proposal files are stored exactly as written (no end-of-line conversion)",
    ".kp/proposals/** -text",
)


def default_config_text() -> str:
    return resources.files("curator").joinpath("default_config.yaml").read_text("utf-8")


KEEP = ".kp/proposals/.gitkeep"
CONFIG = ".kp/config.yaml"
ATTRIBUTES = ".gitattributes"


def _refuse_symlinks(vault: Vault) -> None:
    """Init writes no file through a symlink (a committed ``.gitattributes -> /elsewhere``, say):
    every file it may write is checked, folders on the way included, before anything is written."""

    for rel in (KEEP, CONFIG, ATTRIBUTES):
        through = symlink_on_path(vault.root, rel)
        if through:
            raise WriteRefused(
                f"{through} is a symlink; curator init writes nothing through one, and nothing was written",
                hint=f"make {through} a regular {'file' if through == rel else 'folder'}, then run curator init again",
            )


def run(app: App) -> int:
    vault = app.vault()
    _refuse_symlinks(vault)
    done: list[str] = []
    keep = vault.abspath(KEEP)
    if not os.path.lexists(keep):
        write_atomic(keep, b"", within=vault.root)
        done.append("created .kp/proposals/")
    if not os.path.lexists(vault.config_path):
        write_atomic(vault.config_path, default_config_text().encode("utf-8"), within=vault.root)
        done.append("wrote .kp/config.yaml")
    attrs_path = vault.abspath(ATTRIBUTES)
    existing = b""
    if os.path.lexists(attrs_path):
        fd = os.open(attrs_path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as f:
            existing = f.read()
    have = {ln.strip() for ln in existing.decode("utf-8", "surrogateescape").splitlines()}
    missing = [ln for ln in GITATTRIBUTES if ln not in have]
    if missing:
        sep = b"" if not existing or existing.endswith(b"\n") else b"\n"
        added = ("\n".join(missing) + "\n").encode("utf-8")
        write_atomic(attrs_path, existing + sep + added, within=vault.root)
        done.append(f"added {sum(not m.startswith('#') for m in missing)} line(s) to .gitattributes")
    crlf = crlf_notes(app)
    if app.json:
        output.emit_json({"vault": vault.root, "changed": done, "crlf_notes": crlf})
        return 0
    if done:
        for d in done:
            output.line(d)
    else:
        output.line(f"{vault.root} is already set up")
    if crlf:
        shown = ", ".join(output.safe_path(p) for p in crlf[:5]) + (
            f" and {len(crlf) - 5} more" if len(crlf) > 5 else ""
        )
        output.line(
            f"{len(crlf)} note(s) are committed with CRLF line endings ({shown}). With eol=lf, git stores each "
            "with LF the next time it is committed, and Curator compares and proposes them as LF already, so "
            "a proposal shows only real edits and its commit converts the note. To convert them all at once: "
            "git add --renormalize . && git commit -m 'LF line endings'"
        )
    if done:
        output.line("next: commit .kp/ and .gitattributes; `curator hooks install` adds the git hooks")
    return 0


def crlf_notes(app: App) -> list[str]:
    """Notes whose committed blob has CRLF line endings (git will store them with LF from now on)."""
    vault = app.vault()
    repo = vault.repo
    if repo.head_is_unborn:
        return []

    include = compile_globs(tuple(app.settings().notes.include))
    found = []
    stack = [("", repo.head.peel().tree)]
    while stack:
        prefix, tree = stack.pop()
        for entry in tree:
            path = f"{prefix}{entry.name}"
            if entry.type_str == "tree":
                stack.append((path + "/", git.tree(repo, entry.id)))
            elif entry.type_str == "blob" and include.match(path) and b"\r\n" in git.blob(repo, entry.id):
                found.append(path)
    return sorted(found)
