"""``curator hooks install``: put the plain git hooks from ``hooks/`` into the repository.

The scripts live once, in the top-level ``hooks/`` folder; the package reaches them
through ``curator/hooks`` (a link to it), which wheels carry as plain files. Each
installed copy records the interpreter that runs Curator (this one, unless
``--python`` says otherwise), so a commit does not depend on ``curator`` being on
PATH, and the shell patterns of the vault's notes, so a commit that touches no
note and nothing under ``.kp/`` passes without starting Python.

``--mint-new`` is the person's opt-in to having the pre-commit hook mint a ``kp_id``
into each new note they commit without one (``curator mint --staged``). It is recorded
in the installed hook, not in ``.kp/config.yaml``: the config is committed and shared by
every clone (CI's too), and sits in the work tree, where an agent with file tools could
switch on a write that runs at the person's commit; the hooks folder is this clone's own,
written by this command. Installing again keeps the choice unless told otherwise.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import subprocess
import sys
from importlib import resources

from curator import output
from curator.commands.app import App
from curator.errors import CheckFailed, CuratorError, UsageError
from curator.fsutil import write_atomic
from curator.validator.staged import staged_state
from curator.vault.discover import Vault

HOOKS = ("pre-commit", "post-merge", "post-checkout")
MARK = "# installed by curator"
_EXTENSION_GLOB = re.compile(r"^\*\.([A-Za-z0-9_+-]+)$")


def _hooks_dir(vault: Vault) -> str:
    """Where git runs this repository's hooks from: what ``git rev-parse --git-path hooks`` says
    (``core.hooksPath``, else the common git directory's ``hooks/``). A linked worktree's own git
    directory (``.git/worktrees/NAME``) is never it: git runs no hook from there."""
    try:
        done = subprocess.run(
            # Not --path-format=absolute: that resolves symlinks, and a symlinked hooks folder in
            # the vault must be seen (and refused) as the symlink it is.
            ["git", "-C", vault.root, "rev-parse", "--git-path", "hooks"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        done = None
    if done is not None and done.returncode == 0 and done.stdout.strip():
        return os.path.join(vault.root, done.stdout.strip())  # relative paths are the work tree's
    try:
        configured = vault.repo.config["core.hooksPath"]
    except KeyError:
        configured = None
    if configured:
        return configured if os.path.isabs(configured) else os.path.join(vault.root, configured)
    return os.path.join(_common_dir(vault.git_dir), "hooks")


def _common_dir(git_dir: str) -> str:
    """The repository's common git directory: a linked worktree's ``commondir`` file names it."""
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as f:
            common = f.read().strip()
    except OSError:
        return git_dir
    return os.path.normpath(os.path.join(git_dir, common))


def notes_pattern(include: tuple[str, ...]) -> str:
    """An ERE that matches every path ``include`` could match (and maybe more), for the hook's shell filter.

    Globs of the form ``*.EXT`` (in any folder) become ``\\.EXT$``; any other glob
    makes the pattern match everything, which only costs a Python start.
    """
    exts = []
    for glob in include:
        last = glob.rstrip("/").rsplit("/", 1)[-1]
        m = _EXTENSION_GLOB.match(last)
        if m is None:
            return "."
        exts.append(re.escape(m.group(1)))
    return r"\.(" + "|".join(sorted(set(exts))) + ")$"


def _staged_config_blob(vault: Vault) -> str:
    try:
        return str(vault.repo.index[".kp/config.yaml"].id)
    except KeyError:
        return ""


def render(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        line = f"{key}={shlex.quote(value) if value else ''}"

        def setting(_m: re.Match[str], line: str = line) -> str:
            return line  # a function, not a replacement string: a backslash in the value stays one

        text = re.sub(rf"^{key}=.*$", setting, text, flags=re.M)
    return text


def _keep_kp_ids(vault: Vault) -> None:
    """HEAD's kp_ids kept now, so the hook's first run need not read every note (``validator.id_cache``).
    Only a head start: whatever stops it here (a config that does not parse, say) the hook meets itself."""
    import pygit2

    with contextlib.suppress(CuratorError, pygit2.GitError, OSError, ValueError):
        _ = staged_state(vault).committed_kp_ids


def _minting(path: str) -> bool:
    """Whether the pre-commit hook Curator installed at ``path`` mints (``--mint-new``)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return False
    return MARK in text and re.search(r"^CURATOR_MINT_NEW=\S", text, re.M) is not None


def run(app: App, force: bool, python: str | None = None, mint_new: bool | None = None) -> int:
    vault = app.vault()
    interpreter = os.path.abspath(python) if python else sys.executable
    if not (os.path.isfile(interpreter) and os.access(interpreter, os.X_OK)):
        raise UsageError(f"--python {interpreter}: not an executable file")
    target = _hooks_dir(vault)
    if mint_new is None:
        mint_new = _minting(os.path.join(target, "pre-commit"))
    values = {
        "CURATOR_PYTHON": interpreter,
        "CURATOR_NOTES": notes_pattern(app.settings().notes.include),
        "CURATOR_CONFIG": _staged_config_blob(vault),
        "CURATOR_MINT_NEW": "1" if mint_new else "",
    }
    # A core.hooksPath inside the work tree is vault content: no symlinked folder on the way is followed.
    def under(folder: str) -> bool:
        return os.path.commonpath([os.path.abspath(target), os.path.abspath(folder)]) == os.path.abspath(folder)

    inside = under(vault.root) and not under(vault.git_dir)
    within = vault.root if inside else None
    if not inside:
        os.makedirs(target, exist_ok=True)
    installed, kept = [], []
    for name in HOOKS:
        text = render(resources.files("curator").joinpath("hooks", name).read_text("utf-8"), values)
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
        write_atomic(path, text.encode("utf-8"), 0o755, within=within)
        installed.append(name)
    _keep_kp_ids(vault)
    if app.json:
        output.emit_json(
            {
                "hooks_dir": target,
                "python": interpreter,
                "mint_new": mint_new,
                "installed": installed,
                "unchanged": kept,
            }
        )
    else:
        for name in installed:
            output.line(f"installed {output.escape(os.path.join(target, name))}")
        for name in kept:
            output.line(f"up to date {output.escape(os.path.join(target, name))}")
        output.line(f"the hooks run Curator with {output.escape(interpreter)}")
        output.line(f"git runs them from {output.escape(target)} (`git rev-parse --git-path hooks`)")
        if mint_new:
            output.line("a new note you commit without a kp_id gets one minted and staged (--no-mint-new to stop)")
        else:
            output.line(
                "a new note you commit without a kp_id is refused: `curator mint --new` gives your new notes "
                "one, or install with --mint-new to have the hook do it at each commit"
            )
    return 0
