"""``curator mint [PATH...]``: a fresh ``kp_id``, or one added in place to your own new notes.

A note made outside ``curator new`` (in Obsidian, by a script) has no ``kp_id``, and the
pre-commit hook refuses a new note without one; ``curator adopt`` covers committed notes
only (its change is a proposal against the committed blob). ``mint`` closes that gap for
the person's own files: each named note that is new (not in HEAD) and has no ``kp_id`` gets
one added to its frontmatter by the byte-preserving writer, in place, written atomically.
It never touches a note that has a ``kp_id`` or is committed, nor a template (a note made
from a template copies its frontmatter, so a template must not carry an identity).
"""

from __future__ import annotations

import os
import shlex
import stat
from dataclasses import dataclass
from typing import TYPE_CHECKING

from curator import output
from curator.commands.app import App
from curator.errors import EXIT_FAILED
from curator.fsutil import write_atomic
from curator.index.refs import why_not_a_note
from curator.operations import recovery
from curator.vault import frontmatter
from curator.vault import templates as tmpl
from curator.vault.identity import mint
from curator.vault.note import NotANote, decode

if TYPE_CHECKING:
    import pygit2

    from curator.vault.templates import TemplateFolder


@dataclass
class Outcome:
    path: str
    kp_id: str | None = None
    skipped: str | None = None
    staged: bool = False
    """The note was in the git index: the kp_id is in the work tree until it is added again."""


def _one(app: App, path: str, head: pygit2.Tree | None, staged: set[str], templates: list[TemplateFolder]) -> Outcome:
    vault = app.vault()
    why = why_not_a_note(vault, app.settings(), path)
    if why is not None:
        return Outcome(path, skipped=why)
    folder = tmpl.holding(path, templates)
    if folder is not None:
        return Outcome(path, skipped=f"a template ({folder.describe()}): notes made from it get their own kp_id")
    try:
        committed = head is not None and head[path] is not None
    except (KeyError, ValueError):
        committed = False
    if committed:
        return Outcome(path, skipped="committed already: `curator adopt` gives committed notes a kp_id")
    full = vault.abspath(path)
    try:
        with open(full, "rb") as f:
            raw = f.read()
        text = decode(raw)
        meta, _ = frontmatter.read(text)
    except OSError as e:
        return Outcome(path, skipped=f"cannot read it: {e.strerror}")
    except NotANote as e:
        return Outcome(path, skipped=e.reason)
    except frontmatter.FrontmatterError as e:
        return Outcome(path, skipped=f"its frontmatter cannot be read ({e}); fix the YAML first")
    if meta.get("kp_id") is not None:
        return Outcome(path, skipped=f"has a kp_id already ({meta['kp_id']!r}); a kp_id is never replaced")
    kp_id = mint()
    bom = raw.startswith(b"\xef\xbb\xbf")
    try:
        new_text = frontmatter.update(text, {"kp_id": kp_id})
        if frontmatter.read(new_text)[0].get("kp_id") != kp_id:
            raise frontmatter.FrontmatterError("the new kp_id would not read back")
    except frontmatter.FrontmatterError as e:
        return Outcome(path, skipped=f"its frontmatter cannot take a kp_id line: {e}")
    new = ("\ufeff" if bom else "") + new_text
    write_atomic(full, new.encode("utf-8"), stat.S_IMODE(os.lstat(full).st_mode))
    return Outcome(path, kp_id=kp_id, staged=path in staged)


def run(app: App, paths: tuple[str, ...]) -> int:
    if not paths:
        kp_id = mint()
        if app.json:
            output.emit_json({"kp_id": kp_id})
        else:
            output.line(kp_id)
        return 0

    vault = app.vault()
    repo = vault.repo
    head = None if repo.head_is_unborn else repo.head.peel().tree
    staged = {e.path for e in repo.index}
    found = tmpl.on_disk(vault.root)
    wanted = list(dict.fromkeys(vault.user_path(p) for p in paths))
    with recovery.locked(vault, "mint"):
        outcomes = [_one(app, p, head, staged, found) for p in wanted]
    failed = any(o.skipped for o in outcomes)
    if app.json:
        output.emit_json(
            {
                "minted": [{"path": o.path, "kp_id": o.kp_id, "staged": o.staged} for o in outcomes if o.kp_id],
                "skipped": [{"path": o.path, "reason": o.skipped} for o in outcomes if o.skipped],
            }
        )
        return EXIT_FAILED if failed else 0
    readd = []
    for o in outcomes:
        if o.kp_id:
            output.line(f"{output.safe_path(o.path)}  {o.kp_id}")
            if o.staged:
                readd.append(o.path)
        else:
            output.line(f"skipped {output.safe_path(o.path)}: {o.skipped}")
    if readd:
        output.line(f"next: git add {' '.join(shlex.quote(p) for p in readd)} (the kp_id is in the work tree)")
    return EXIT_FAILED if failed else 0
