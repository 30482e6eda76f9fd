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
    if app.json:
        output.emit_json({"vault": vault.root, "changed": done})
    elif done:
        for d in done:
            output.line(d)
        output.line("next: commit .kp/ and .gitattributes; `curator hooks install` adds the git hooks")
    else:
        output.line(f"{vault.root} is already set up")
    return 0
