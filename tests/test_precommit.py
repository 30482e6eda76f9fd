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


@pytest.mark.slow
def test_a_built_wheel_ships_executable_hooks_that_install_and_run(tmp_path: Path) -> None:
    """`curator/hooks` is a link to the top-level `hooks/` in a checkout; a wheel must carry the scripts
    themselves, executable, and `hooks install` from the installed package must put working hooks in place."""
    import shutil
    import zipfile

    src = tmp_path / "src"  # a copy: building writes build/ and *.egg-info beside the sources
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("curator", "hooks"):
        shutil.copytree(ROOT / name, src / name, symlinks=True, ignore=ignore)
    assert (src / "curator" / "hooks").is_symlink()
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", tmp_path / "dist", src], check=True)
    (wheel,) = (tmp_path / "dist").glob("curator-*.whl")
    with zipfile.ZipFile(wheel) as z:
        shipped = {i.filename: i.external_attr >> 16 for i in z.infolist() if i.filename.startswith("curator/hooks/")}
        assert z.read("curator/hooks/pre-commit") == (ROOT / "hooks" / "pre-commit").read_bytes()
    assert sorted(shipped) == ["curator/hooks/post-checkout", "curator/hooks/post-merge", "curator/hooks/pre-commit"]
    assert all(mode & 0o100000 and mode & 0o111 == 0o111 for mode in shipped.values()), {
        k: oct(m) for k, m in shipped.items()
    }
    site = tmp_path / "site"
    subprocess.run([*pip, "install", "--no-deps", "--no-compile", "--target", site, wheel], check=True)
    assert not (site / "curator" / "hooks").is_symlink() and os.access(
        site / "curator" / "hooks" / "pre-commit", os.X_OK
    )
    v = _vault(tmp_path)
    # The installed package, not this checkout: PYTHONPATH first, and a working directory outside the checkout.
    env = {k: val for k, val in os.environ.items() if not k.startswith("CURATOR_")}
    env["PYTHONPATH"] = str(site)
    probe = [sys.executable, "-c", "import curator; print(curator.__file__)"]
    assert subprocess.run(probe, env=env, cwd=tmp_path, capture_output=True, text=True).stdout.startswith(str(site))
    r = subprocess.run(
        [sys.executable, "-m", "curator", "--vault", v.root, "hooks", "install"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    hook = v.root / ".git" / "hooks" / "pre-commit"
    assert os.access(hook, os.X_OK) and f"CURATOR_PYTHON={sys.executable}\n" in hook.read_text()
    v.write("notes/a.md", v.read("notes/a.md").replace("kp:01J000000000000000000000AA", "kp:other"))
    v.git("add", "notes/a.md")
    blocked = subprocess.run(["git", "commit", "-m", "forged id"], cwd=v.root, env=env, capture_output=True, text=True)
    assert blocked.returncode == 1 and "KP006" in blocked.stderr, blocked.stdout + blocked.stderr
