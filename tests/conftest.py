"""Fixtures: real git vaults in temporary folders, the real CLI in-process or as a process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test gets its own cache (settings cache, index) and no stray configuration."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    runtime = tmp_path_factory.mktemp("runtime")  # the MCP server's HTTP tokens
    runtime.chmod(0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
    for var in (
        "CURATOR_VAULT",
        "CURATOR_INDEX_DIR",
        "CURATOR_EMBEDDER",
        "CURATOR_FAULT",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "CURATOR_EMBED_BASE_URL",
        "CURATOR_EMBED_API_KEY",
        "CURATOR_EMBED_MODEL",
        "CURATOR_EMBED_DIMS",
        "OLLAMA_HOST",
    ):
        monkeypatch.delenv(var, raising=False)
    # The machine's zone reads dates notes write without one (notes.timezone unset): the
    # same answers on every machine.
    monkeypatch.setenv("TZ", "UTC")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test Person")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "test@example.org")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test Person")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "test@example.org")


def git(cwd: Path | str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, check=check, capture_output=True, text=True)


class GitVault:
    def __init__(self, root: Path) -> None:
        self.root = root

    def write(self, rel: str, content: str | bytes) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_bytes(content.encode("utf-8"))
        else:
            path.write_bytes(content)
        return path

    def read(self, rel: str) -> str:
        return (self.root / rel).read_text(encoding="utf-8")

    def commit(self, message: str = "notes") -> str:
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "--no-verify", "--allow-empty", "-m", message)
        return git(self.root, "rev-parse", "HEAD").stdout.strip()

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return git(self.root, *args, check=check)

    def status(self) -> str:
        return git(self.root, "status", "--porcelain=v1", "--untracked-files=all").stdout


def make_git_vault(path: Path) -> GitVault:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "-c", "init.defaultBranch=main", "init", "-q")
    git(path, "config", "user.name", "Test Person")
    git(path, "config", "user.email", "test@example.org")
    git(path, "config", "core.autocrlf", "false")
    return GitVault(path)


NOTE = """---
kp_id: {kp_id}
title: {title}
---
# {title}

{body}
"""


def note(kp_id: str, title: str, body: str = "Some text.") -> str:
    return NOTE.format(kp_id=kp_id, title=title, body=body)


@pytest.fixture
def vault(tmp_path: Path) -> GitVault:
    """A small committed vault with two notes and Curator's config."""
    v = make_git_vault(tmp_path / "vault")
    v.write(".kp/config.yaml", (ROOT / "curator" / "default_config.yaml").read_text())
    v.write(
        "notes/alpha.md",
        note("kp:01J0000000000000000000ALPH", "Alpha", "Alpha links to [[Beta]].\nSecond line.\nThird line.\n"),
    )
    v.write("notes/beta.md", note("kp:01J0000000000000000000BETA", "Beta", "Beta text.\n"))
    v.commit("initial")
    return v


@pytest.fixture
def example_vault(tmp_path: Path) -> GitVault:
    dest = tmp_path / "example"
    subprocess.run([str(ROOT / "scripts" / "make-example-vault"), str(dest)], check=True, capture_output=True)
    return GitVault(dest)


class Result:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def __repr__(self) -> str:
        return f"Result(code={self.code}, out={self.out!r}, err={self.err!r})"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    """Run the real CLI in-process: cli(*args) -> Result."""
    from curator.cli.main import main

    def run(*args: str | Path) -> Result:
        capsys.readouterr()
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


def run_process(
    *args: str | Path,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    input: str | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """Run curator as a separate process (for exit codes, stderr and import checks)."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    return subprocess.run(
        [sys.executable, "-m", "curator", *map(str, args)],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        input=input,
        timeout=timeout,
    )


@pytest.fixture(scope="session")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One pre-commit store for the session: the hook's environment is built once."""
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture(scope="session")
def framework_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This project as it is on disk (untracked files too), committed to a clean repository.

    `pre-commit try-repo` on a repository with uncommitted changes builds a new
    environment on every call; on a clean one it reuses the first, so the hook matrix
    costs seconds, not minutes.
    """
    import shutil

    dest = tmp_path_factory.mktemp("curator-repo")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for raw in listed:
        rel = raw.decode("utf-8", "surrogateescape")
        if not rel or not os.path.lexists(ROOT / rel) or rel.startswith((".venv/", ".kp-example/.git/")):
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if os.path.islink(ROOT / rel):
            os.symlink(os.readlink(ROOT / rel), target)
        elif (ROOT / rel).is_file():
            shutil.copy2(ROOT / rel, target)
    git(dest, "-c", "init.defaultBranch=main", "init", "-q")
    git(dest, "add", "-A")
    git(dest, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--no-verify", "-m", "snapshot")
    return dest
