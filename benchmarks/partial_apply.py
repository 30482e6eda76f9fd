"""Keeping part of a proposal: ``curator apply ULID --hunks PATH:N --yes`` against applying the
whole proposal (``curator apply ULID --yes``), as processes, on fresh copies of one vault.

    python benchmarks/partial_apply.py [--runs 5] [--files 20] [--hunks 4]

The proposal changes ``--files`` notes of 400 lines in ``--hunks`` places each; the partial
apply keeps one hunk of each file (a revision staged, the old proposal superseded in a commit
of its own, the revision applied). Medians of wall and CPU time (user + system of the child,
from its rusage), runs interleaved so both see the same machine.
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
from common import GIT_ENV, interleaved, process_times

ENV = {**os.environ, **GIT_ENV, "CURATOR_EMBEDDER": "none"}


def curator(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "curator", *args], env=ENV, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"curator {' '.join(args)} failed: {done.stderr}")
    return done.stdout


def template(files: int, hunks: int) -> tuple[Path, str]:
    """A committed vault holding one pending proposal, and the proposal's id."""
    root = Path(tempfile.mkdtemp(prefix="curator-bench-partial-")) / "vault"
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    curator("--vault", str(root), "init")
    for n in range(files):
        lines = "".join(f"Line {i} of note {n}.\n" for i in range(1, 401))
        (root / "notes").mkdir(exist_ok=True)
        (root / "notes" / f"n{n:03d}.md").write_text(f"---\nkp_id: kp:01J00000000000000000{n:06d}\n---\n{lines}")
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=ENV)
    subprocess.run(["git", "commit", "-qm", "notes"], cwd=root, check=True, env=ENV)
    step = 400 // hunks
    for n in range(files):
        path = root / "notes" / f"n{n:03d}.md"
        text = path.read_text()
        for h in range(hunks):
            line = 1 + h * step + step // 2
            text = text.replace(f"Line {line} of note {n}.\n", f"Line {line} of note {n}, changed.\n")
        path.write_text(text)
    out = curator("--vault", str(root), "--json", "propose", "--title", "Change every note", "--rationale", "bench")
    pid = json.loads(out)["id"]
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=ENV)
    subprocess.run(["git", "commit", "-qm", "proposal"], cwd=root, check=True, env=ENV)
    return root, pid


def timed_apply(root: Path, args: list[str]) -> tuple[float, float]:
    wall, cpu, _out = process_times([sys.executable, "-m", "curator", "--vault", str(root), "apply", *args, "--yes"], ENV)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--hunks", type=int, default=4)
    args = ap.parse_args()
    src, pid = template(args.files, args.hunks)
    keep = [a for n in range(args.files) for a in ("--hunks", f"notes/n{n:03d}.md:2")]
    results: dict[str, list[tuple[float, float]]] = {"whole": [], "partial": []}
    for _n, kind, extra in interleaved({"whole": [], "partial": keep}, args.runs):
        work = Path(tempfile.mkdtemp(prefix="curator-bench-partial-run-")) / "vault"
        shutil.copytree(src, work, symlinks=True)
        results[kind].append(timed_apply(work, [pid, *extra]))
        shutil.rmtree(work.parent, ignore_errors=True)
    shutil.rmtree(src.parent, ignore_errors=True)
    print(f"a proposal of {args.files} files x {args.hunks} hunks; medians of {args.runs} runs")
    for kind, label in (("whole", "apply ULID (all of it)"), ("partial", "apply ULID --hunks (1 hunk a file)")):
        walls = [w for w, _ in results[kind]]
        cpus = [c for _, c in results[kind]]
        print(f"  {label:36} wall {statistics.median(walls) * 1000:6.0f} ms   cpu {statistics.median(cpus) * 1000:6.0f} ms")
    w = statistics.median(w for w, _ in results["partial"]) / statistics.median(w for w, _ in results["whole"])
    c = statistics.median(c for _, c in results["partial"]) / statistics.median(c for _, c in results["whole"])
    print(f"  partial / whole: wall {w:.2f}x, cpu {c:.2f}x")


if __name__ == "__main__":
    main()
