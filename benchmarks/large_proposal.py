"""One proposal of 3,000 changes (``curator adopt`` on the powershell-docs tree): how long
``adopt``, ``validate ULID``, ``proposals`` and ``apply ULID`` take as processes, medians
of --runs fresh copies of the vault; with ``--peer REV`` the same steps with that revision
of Curator (``git archive``d to a temp folder, run with PYTHONPATH), interleaved run by run.

    python benchmarks/large_proposal.py [--runs 3] [--peer REV]

Wall and CPU time (user + system, from the children's rusage) are both printed: on a loaded
machine the CPU time says more.

The vault is made as a user would: unpacked, ``git init``, ``curator init``, and the notes
committed with CRLF renormalized as ``curator init`` advises, so every note can be adopted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import peer_checkout, powershell_vault, process_times

STEPS = ("adopt", "validate", "proposals", "apply")
GIT_ENV = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"}


def prepared_vault() -> Path:
    vault = powershell_vault()
    env = {**os.environ, **GIT_ENV}
    subprocess.run([sys.executable, "-m", "curator", "--vault", str(vault), "init"], check=True, capture_output=True)
    subprocess.run(["git", "add", "-A"], cwd=vault, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "curator init"], cwd=vault, check=True, env=env)
    subprocess.run(["git", "add", "--renormalize", "."], cwd=vault, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "LF line endings"], cwd=vault, check=True, env=env)
    return vault


def timed(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[tuple[float, float], str]:
    """((wall, CPU) seconds, stdout) of one step's process (``common.process_times``)."""
    wall, cpu, out = process_times(cmd, env, cwd)
    return (wall, cpu), out


def one_run(template: Path, env: dict[str, str]) -> dict[str, tuple[float, float]]:
    work = Path(tempfile.mkdtemp(prefix="curator-large-"))
    vault = work / template.name
    shutil.copytree(template, vault, symlinks=True)
    curator = [sys.executable, "-m", "curator", "--vault", str(vault)]
    try:
        times: dict[str, tuple[float, float]] = {}
        times["adopt"], out = timed([*curator, "--json", "adopt"], env, cwd=vault)
        data = json.loads(out)
        ulid = data["staged"]
        assert ulid and len(data["adopted"]) > 3000, (ulid, len(data["adopted"]))
        times["validate"], _ = timed([*curator, "validate", ulid], env, cwd=vault)
        times["proposals"], out = timed([*curator, "proposals"], env, cwd=vault)
        assert ulid in out
        times["apply"], _ = timed([*curator, "apply", ulid, "--yes"], env, cwd=vault)
        log = subprocess.run(["git", "log", "-1", "--format=%s"], cwd=vault, capture_output=True, text=True).stdout
        assert log.startswith("Adopt "), log
        times["changes"] = (len(data["adopted"]), 0.0)
        return times
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--peer", help="a git revision (or a checkout folder) of older Curator to run side by side")
    args = ap.parse_args()
    template = prepared_vault()
    cache = tempfile.mkdtemp(prefix="curator-large-cache-")
    env = {**os.environ, **GIT_ENV, "CURATOR_EMBEDDER": "none", "XDG_CACHE_HOME": cache, "HF_HUB_OFFLINE": "1"}
    env.pop("CURATOR_VAULT", None)
    runners = {"this": env}
    if args.peer:
        runners[f"peer {args.peer}"] = {**env, "PYTHONPATH": peer_checkout(args.peer)}
    results: dict[str, list[dict[str, tuple[float, float]]]] = {name: [] for name in runners}
    for _ in range(args.runs):
        for name, e in runners.items():
            results[name].append(one_run(template, e))
    changes = int(results["this"][0]["changes"][0])
    print(f"one adopt proposal of {changes} changes on powershell-docs; medians of {args.runs} runs")
    names = list(runners)
    print(
        f"{'step':<10}"
        + "".join(f"{n + ' wall / CPU':>34}" for n in names)
        + ("   ratio wall / CPU" if len(names) == 2 else "")
    )
    for step in STEPS:
        meds = [
            (statistics.median(r[step][0] for r in results[n]), statistics.median(r[step][1] for r in results[n]))
            for n in names
        ]
        row = f"{step:<10}" + "".join(f"{w:>24.2f}s / {c:>5.2f}s" for w, c in meds)
        if len(meds) == 2:
            row += f"   {meds[1][0] / meds[0][0]:.1f}x / {meds[1][1] / meds[0][1]:.1f}x"
        print(row)
    if len(names) == 2:
        print("(ratio: peer / this; CPU is the process's user + system time)")


if __name__ == "__main__":
    main()
