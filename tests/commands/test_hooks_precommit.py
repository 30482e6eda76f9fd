"""`curator hooks pre-commit`: the pre-commit framework's configuration, printed with no
placeholder, runs this installation's validator on each commit, from a PATH without it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from curator.vault.identity import mint
from tests.conftest import ROOT, GitVault, make_git_vault, note

PRE_COMMIT = str(Path(sys.executable).parent / "pre-commit")


def _env(tmp: Path) -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k.startswith(("GIT_AUTHOR", "GIT_COMMITTER"))
    }
    env["PATH"] = "/usr/bin:/bin"  # as obsidian-git or a GUI commits: no virtualenv on PATH
    env["PRE_COMMIT_HOME"] = str(tmp / "pre-commit-home")
    return env


def _commit(v: GitVault, env: dict[str, str], *paths: str) -> subprocess.CompletedProcess[str]:
    v.git("add", *paths)
    return subprocess.run(["git", "commit", "-m", "notes"], cwd=v.root, capture_output=True, text=True, env=env)


def test_the_printed_config_runs_the_validator_on_each_commit(tmp_path: Path, cli) -> None:
    v = make_git_vault(tmp_path / "notes vault")
    v.write(".kp/config.yaml", "embedder:\n  provider: none\n")
    v.write("a.md", note("kp:01J000000000000000000000AA", "A"))
    r = cli("--vault", v.root, "hooks", "pre-commit")
    assert r.code == 0 and "YOUR-ORG" not in r.out and "repo: local" in r.out
    v.write(".pre-commit-config.yaml", r.out)
    v.commit("set up")
    env = _env(tmp_path)
    checked = subprocess.run([PRE_COMMIT, "validate-config"], cwd=v.root, capture_output=True, text=True, env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    installed = subprocess.run([PRE_COMMIT, "install"], cwd=v.root, capture_output=True, text=True, env=env)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    v.write("Books/New book.md", "---\ntitle: New book\nstatus: todo\n---\n# New book\n")
    refused = _commit(v, env, "Books/New book.md")
    assert refused.returncode == 1, refused.stdout + refused.stderr
    said = refused.stdout + refused.stderr  # git shows the hook's output on stderr
    assert "KP006" in said and "curator mint" in said
    v.write("Books/New book.md", f"---\nkp_id: {mint()}\ntitle: New book\nstatus: todo\n---\n# New book\n")
    passed = _commit(v, env, "Books/New book.md")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "curator validate" in passed.stderr + passed.stdout and "Passed" in passed.stderr + passed.stdout


def test_no_set_up_the_docs_give_has_a_placeholder() -> None:
    for doc in (ROOT / "README.md", ROOT / "docs" / "hooks-and-ci.md"):
        assert "YOUR-ORG" not in doc.read_text(encoding="utf-8"), doc
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "a new note needs a\n`kp_id` to be committed" in readme and "--mint-new" in readme
