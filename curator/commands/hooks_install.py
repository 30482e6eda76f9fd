"""``curator hooks install``: copy the plain git hooks from ``hooks/`` into the repository."""

from __future__ import annotations

import os
import stat
from importlib import resources

from curator import output
from curator.app import App
from curator.errors import CheckFailed

HOOKS = ("pre-commit", "post-merge", "post-checkout")
MARK = "# installed by curator"


def _hooks_dir(app: App) -> str:
    vault = app.vault()
    try:
        configured = vault.repo.config["core.hooksPath"]
    except KeyError:
        configured = None
    if configured:
        return configured if os.path.isabs(configured) else os.path.join(vault.root, configured)
    return os.path.join(vault.git_dir, "hooks")


def run(app: App, force: bool) -> int:
    target = _hooks_dir(app)
    os.makedirs(target, exist_ok=True)
    installed, kept = [], []
    for name in HOOKS:
        text = resources.files("curator").joinpath("hooks", name).read_text("utf-8")
        path = os.path.join(target, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                current = f.read()
            if current == text:
                kept.append(name)
                continue
            if MARK not in current and not force:
                raise CheckFailed(
                    f"{path} exists and was not written by curator",
                    hint="chain it yourself, or pass --force to replace it",
                )
        tmp = path + ".curator-tmp"
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, os.stat(tmp).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        os.replace(tmp, path)
        installed.append(name)
    if app.json:
        output.emit_json({"hooks_dir": target, "installed": installed, "unchanged": kept})
    else:
        for name in installed:
            output.line(f"installed {os.path.join(target, name)}")
        for name in kept:
            output.line(f"up to date {os.path.join(target, name)}")
    return 0
