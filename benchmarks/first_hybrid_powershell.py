"""First hybrid index of the powershell-docs tree with the local model: this checkout beside
an older one (the peer), one fresh index each on the same vault, side by side.

    python benchmarks/first_hybrid_powershell.py [--files 300] [--peer DIR [--peer-only]] [--rounds 1]

``--files N`` keeps the first N markdown files in path order (a fixed subset; 0 = the whole
3,112-file tree). ``--peer DIR`` is an older checkout of Curator (e.g. ``git archive
80c2144^ | tar -x -C DIR``), run with this checkout's virtual environment. Each side gets
its own empty index folder; the machine's load average is printed beside each run, since
the figures move with what else the machine is doing; CPU seconds (the index process and
its workers) move much less. They are read from ``/proc`` every half second for the
index process and every process under it, since ``RUSAGE_CHILDREN`` misses workers that
their parent never waits for (an older checkout's figure came out at less than half of
its real cost that way).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, powershell_vault


def subset(vault: Path, keep: int) -> int:
    """Delete all but the first ``keep`` markdown files; commit. Returns the files left."""
    kept = set(sorted(p for p in vault.rglob("*.md") if ".git" not in p.parts)[:keep])
    for p in [p for p in vault.rglob("*") if p.is_file() and ".git" not in p.parts]:
        if p not in kept:
            p.unlink()
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b"}
    env |= {"GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"}
    subprocess.run(["git", "add", "-A"], cwd=vault, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "subset"], cwd=vault, check=True, env=env)
    return len(kept)


TICKS = os.sysconf("SC_CLK_TCK")


def _processes() -> dict[int, tuple[int, float]]:
    """Every process: pid -> (parent pid, CPU seconds so far)."""
    out: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                rest = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(entry)] = (int(rest[1]), (int(rest[11]) + int(rest[12])) / TICKS)
    return out


class TreeCPU:
    """CPU seconds of a process and everything under it, sampled from /proc until stopped."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.seen: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        procs = _processes()
        tree = {self.root}
        grew = True
        while grew:
            grew = False
            for pid, (ppid, _cpu) in procs.items():
                if ppid in tree and pid not in tree:
                    tree.add(pid)
                    grew = True
        for pid in tree:
            if pid in procs:
                self.seen[pid] = max(self.seen.get(pid, 0.0), procs[pid][1])

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            self._sample()

    def stop(self) -> float:
        self._sample()
        self._stop.set()
        self._thread.join()
        return sum(self.seen.values())


def first_index(code: Path, vault: Path) -> dict[str, float | int | str]:
    env = {**os.environ, "PYTHONPATH": str(code), "HF_HUB_OFFLINE": "1"}
    env["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="curator-bench-cache-")
    env.pop("CURATOR_EMBEDDER", None)
    load = os.getloadavg()[0]
    start = time.perf_counter()
    # Run from the vault: `python -m` puts the working folder first on sys.path, and run
    # from a checkout it would import that checkout's curator whatever PYTHONPATH says.
    proc = subprocess.Popen(
        [sys.executable, "-m", "curator", "--vault", str(vault), "--json", "index"],
        env=env,
        cwd=vault,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    tree = TreeCPU(proc.pid)
    out, err = proc.communicate()
    seconds = time.perf_counter() - start
    cpu = tree.stop()
    if proc.returncode != 0:
        sys.exit(f"{code}: curator index failed ({proc.returncode}): {err[-2000:]}")
    report = json.loads(out)
    return {
        "seconds": seconds,
        "cpu": cpu,
        "passages": report["passages"],
        "embedded": report["embedded"],
        "load_before": load,
        "load_after": os.getloadavg()[0],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=300, help="first N markdown files (0: the whole tree)")
    ap.add_argument("--peer", type=Path, help="an older checkout of Curator to run beside this one")
    ap.add_argument("--peer-only", action="store_true", help="run the peer alone (the whole tree takes hours)")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    vault = powershell_vault()
    files = (
        subset(vault, args.files)
        if args.files
        else sum(1 for p in vault.rglob("*") if p.is_file() and ".git" not in p.parts)
    )
    sides = [] if args.peer_only and args.peer else [("this checkout", ROOT)]
    sides += [(f"peer {args.peer}", args.peer)] if args.peer else []
    print(f"vault: {files} files ({'first ' + str(args.files) + ' markdown files' if args.files else 'whole tree'})")
    for r in range(args.rounds):
        for name, code in sides:
            m = first_index(code, vault)
            rate = float(m["embedded"]) / float(m["seconds"])
            per_cpu = float(m["embedded"]) / float(m["cpu"])
            print(
                f"  round {r + 1}: {name}: {m['seconds']:.1f}s wall, {m['cpu']:.1f}s CPU, {m['passages']} passages, "
                f"{m['embedded']} embedded, {rate:.1f} passages/s, {per_cpu:.1f} per CPU-second "
                f"(load average {m['load_before']:.1f} -> {m['load_after']:.1f})",
                flush=True,
            )


if __name__ == "__main__":
    main()
