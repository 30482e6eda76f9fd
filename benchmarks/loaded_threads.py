"""The example vault's first index and a hybrid query on a machine two busy processes load.

"before" pins every pool to all the cores, as Curator did before it sized them
(CURATOR_THREADS = the core count: torch's and numpy's BLAS default); "after" lets Curator
take the cores left free. Rounds interleave the two; medians of each.

    python benchmarks/loaded_threads.py [--rounds 3] [--busy 2]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUSY = "while True: pass"


def run(args: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "curator", *args], env=env, check=True, capture_output=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--busy", type=int, default=2)
    args = ap.parse_args()
    cores = len(os.sched_getaffinity(0))
    work = Path(tempfile.mkdtemp(prefix="curator-loaded-"))
    vault = work / "vault"
    subprocess.run([str(ROOT / "scripts" / "make-example-vault"), str(vault)], check=True, capture_output=True)
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(args.busy)]
    try:
        time.sleep(5)  # let the load average see them
        print(f"{cores} cores, {args.busy} busy processes; load average {os.getloadavg()}")
        sides = {"before (all cores)": str(cores), "after (free cores)": None}
        index: dict[str, list[float]] = {k: [] for k in sides}
        query: dict[str, list[float]] = {k: [] for k in sides}
        for r in range(args.rounds):
            for name, threads in sides.items():
                env = {**os.environ, "XDG_CACHE_HOME": str(work / "cache")}
                env.pop("CURATOR_THREADS", None)
                if threads:
                    env["CURATOR_THREADS"] = threads
                idx = work / f"idx-{r}-{threads or 'free'}"
                base = ["--vault", str(vault), "--index-dir", str(idx)]
                index[name].append(run([*base, "index"], env))
                query[name].append(
                    run([*base, "search", "several programs reading one database while one writes"], env)
                )
                shutil.rmtree(idx, ignore_errors=True)
                print(f"  round {r + 1} {name}: index {index[name][-1]:.2f}s, hybrid query {query[name][-1]:.2f}s")
        print(f"\n{'':<22}{'first index':>12}{'hybrid query':>14}   (medians of {args.rounds}, whole processes)")
        for name in sides:
            print(f"{name:<22}{statistics.median(index[name]):>11.2f}s{statistics.median(query[name]):>13.2f}s")
        print(f"load average after: {os.getloadavg()}")
    finally:
        for p in busy:
            p.kill()
            p.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
