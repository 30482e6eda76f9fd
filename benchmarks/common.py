"""Shared set-up for the benchmark scripts: the powershell-docs tree as a git vault."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"


def powershell_vault() -> Path:
    tarball = DATA / "powershell-docs.tar.gz"
    if not tarball.exists():
        sys.exit(f"missing {tarball}: the benchmarks read ../shared/data beside the project")
    work = Path(tempfile.mkdtemp(prefix="curator-bench-"))
    with tarfile.open(tarball) as tar:
        tar.extractall(work, filter="data")
    vault = next(p for p in work.iterdir() if p.is_dir())
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@b",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@b",
    }
    subprocess.run(["git", "init", "-q"], cwd=vault, check=True)
    subprocess.run(["git", "add", "-A"], cwd=vault, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "docs"], cwd=vault, check=True, env=env)
    return vault


def peer_checkout(rev: str) -> str:
    """Older Curator to run beside this one (with PYTHONPATH): a checkout folder, or a git
    revision of this repository unpacked to a temp folder."""
    if os.path.isdir(rev):
        return os.path.abspath(rev)
    folder = tempfile.mkdtemp(prefix="curator-peer-")
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
    return folder


def timed(cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> tuple[float, str]:
    start = time.perf_counter()
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {r.stderr}")
    return elapsed, r.stdout


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000
