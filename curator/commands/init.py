"""``curator init``: set up ``.kp/`` and ``.gitattributes`` in a vault (idempotent)."""

from __future__ import annotations

import os
from importlib import resources

from curator import output
from curator.app import App

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


def _write_new(path: str, text: str) -> None:
    tmp = f"{path}.curator-tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, path)


def run(app: App) -> int:
    vault = app.vault()
    done: list[str] = []
    os.makedirs(vault.proposals_dir, exist_ok=True)
    keep = os.path.join(vault.proposals_dir, ".gitkeep")
    if not os.path.exists(keep):
        open(keep, "w").close()
        done.append("created .kp/proposals/")
    if not os.path.exists(vault.config_path):
        _write_new(vault.config_path, default_config_text())
        done.append("wrote .kp/config.yaml")
    attrs_path = os.path.join(vault.root, ".gitattributes")
    existing = ""
    if os.path.exists(attrs_path):
        with open(attrs_path, encoding="utf-8", errors="surrogateescape", newline="") as f:
            existing = f.read()
    have = {ln.strip() for ln in existing.splitlines()}
    missing = [ln for ln in GITATTRIBUTES if ln not in have]
    if missing:
        sep = "" if not existing or existing.endswith("\n") else "\n"
        with open(attrs_path, "a", encoding="utf-8", errors="surrogateescape", newline="") as f:
            f.write(sep + "\n".join(missing) + "\n")
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
    from curator.vault.globs import compile_globs

    include = compile_globs(tuple(app.settings().notes.include))
    found = []
    stack = [("", repo.head.peel().tree)]
    while stack:
        prefix, tree = stack.pop()
        for entry in tree:
            path = f"{prefix}{entry.name}"
            if entry.type_str == "tree":
                stack.append((path + "/", repo[entry.id]))
            elif entry.type_str == "blob" and include.match(path) and b"\r\n" in repo[entry.id].data:
                found.append(path)
    return sorted(found)
