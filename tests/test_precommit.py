"""The real pre-commit framework running Curator's hook, and Curator's own git hooks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from curator.vault.identity import mint
from tests.builders import created, make_proposal
from tests.conftest import ROOT, GitVault, make_git_vault, note

BIN = str(Path(sys.executable).parent)


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = BIN + os.pathsep + env.get("PATH", "")
    env["PRE_COMMIT_HOME"] = str(tmp)
    return env


def _vault(tmp_path: Path) -> GitVault:
    v = make_git_vault(tmp_path / "v")
    v.write("notes/a.md", note("kp:01J000000000000000000000AA", "A"))
    v.commit()
    return v


def test_manifest_is_valid() -> None:
    r = subprocess.run(
        [BIN + "/pre-commit", "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.slow
@pytest.mark.xdist_group("pre-commit")
def test_try_repo_passes_a_valid_proposal_and_blocks_an_invalid_one(
    tmp_path: Path, pre_commit_home: Path, framework_repo: Path
) -> None:
    v = _vault(tmp_path)
    c, f = created("notes/good.md", f"---\nkp_id: {mint()}\ntitle: Good\n---\n")
    good = make_proposal(v, [c], files=f)
    v.git("add", f".kp/proposals/{good}")
    cmd = [BIN + "/pre-commit", "try-repo", str(framework_repo), "curator-validate", "--verbose"]
    ok = subprocess.run(cmd, cwd=v.root, capture_output=True, text=True, env=_env(pre_commit_home), timeout=900)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "Passed" in ok.stdout
    c2, f2 = created(".curio/owned.md", f"---\nkp_id: {mint()}\n---\n")
    bad = make_proposal(v, [c2], files=f2)
    v.git("add", f".kp/proposals/{bad}")
    blocked = subprocess.run(cmd, cwd=v.root, capture_output=True, text=True, env=_env(pre_commit_home), timeout=900)
    assert blocked.returncode == 1, blocked.stdout + blocked.stderr
    assert "KP003" in blocked.stdout and "Failed" in blocked.stdout
    assert f"{good}: valid" not in blocked.stdout and "checked 2 proposal(s): 1 rejected" in blocked.stdout


def test_installed_git_hook_blocks_a_bad_commit(tmp_path: Path, cli) -> None:
    v = _vault(tmp_path)
    assert cli("--vault", v.root, "hooks", "install").code == 0
    hook = v.root / ".git" / "hooks" / "pre-commit"
    assert os.access(hook, os.X_OK)
    env = _env(tmp_path / "unused")
    v.write("notes/a.md", v.read("notes/a.md").replace("kp:01J000000000000000000000AA", "kp:other"))
    v.git("add", "notes/a.md")
    r = subprocess.run(["git", "commit", "-m", "change id"], cwd=v.root, capture_output=True, text=True, env=env)
    assert r.returncode != 0 and "KP006" in r.stdout + r.stderr
    v.git("checkout", "HEAD", "--", "notes/a.md")
    v.write("notes/a.md", v.read("notes/a.md") + "more text\n")
    v.git("add", "notes/a.md")
    r = subprocess.run(["git", "commit", "-m", "fine"], cwd=v.root, capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    again = cli("--vault", v.root, "--json", "hooks", "install")
    assert again.code == 0 and '"installed": []' in again.out


def test_hooks_install_does_not_clobber_a_foreign_hook(tmp_path: Path, cli) -> None:
    v = _vault(tmp_path)
    hook = v.root / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho mine\n")
    r = cli("--vault", v.root, "hooks", "install")
    assert r.code == 1 and "--force" in r.err
    assert hook.read_text() == "#!/bin/sh\necho mine\n"


def test_post_checkout_hook_reconciles_the_index(tmp_path: Path, cli) -> None:
    import time

    v = _vault(tmp_path)
    assert cli("--vault", v.root, "hooks", "install").code == 0
    env = {**_env(tmp_path / "unused"), "CURATOR_EMBEDDER": "fake"}
    subprocess.run(["git", "checkout", "-q", "-b", "topic"], cwd=v.root, env=env, check=True)
    cache = Path(os.environ["XDG_CACHE_HOME"]) / "curator"
    deadline = time.monotonic() + 60
    while not list(cache.rglob("CURRENT")):
        assert time.monotonic() < deadline, "the hook did not reconcile the index"
        time.sleep(0.2)
    r = cli("--vault", v.root, "--json", "ls")
    assert r.code == 0 and '"notes/a.md"' in r.out
