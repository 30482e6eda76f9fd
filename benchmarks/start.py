"""A `curator search` process from start to exit, lexical and hybrid, beside a peer checkout.

    python benchmarks/start.py [--runs 21] [--peer REV] [--query TEXT]

One copy of the example vault, indexed once by each side with the local model (each side has
its own index, in its own XDG cache), then `curator search QUERY --json` run as a new process
again and again: lexical (no model: imports, opening the epoch, the stat walk that finds
nothing changed, FTS5) and hybrid (the query's vector too: numpy and the model's weights).
The runs alternate (this, peer, peer, this, ...) so that both sides meet the same load. Each
side's median wall time is printed with its median CPU time (user + system, the child's
rusage), which a busy machine inflates less than the wall clock; the machine's load average
is printed beside them.

With ``--peer REV`` (a git revision or a checkout folder, see ``common.peer_checkout``) the
peer runs from that Curator with PYTHONPATH; without it only this checkout runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import example_sides, interleaved, process_times

QUERY = "why is the database locked"
MODES = ("lexical", "hybrid")


def _run(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one search process, which must find something."""
    wall, cpu, out = process_times(cmd, env, cwd)
    if not json.loads(out)["hits"]:
        sys.exit(f"{' '.join(cmd)} found nothing")
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--peer", help="a git revision (or a checkout folder) of older Curator to run side by side")
    ap.add_argument("--query", default=QUERY)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        vault, sides = example_sides(Path(tmp), "local", args.peer)
        curator = [sys.executable, "-m", "curator", "--vault", str(vault)]
        walls: dict[tuple[str, str], list[float]] = {(s, m): [] for s in sides for m in MODES}
        cpus: dict[tuple[str, str], list[float]] = {(s, m): [] for s in sides for m in MODES}
        for n, name, env in interleaved(sides, args.runs + 1):
            for mode in MODES:
                wall, cpu = _run([*curator, "--json", "search", args.query, "--mode", mode], env, vault)
                if n:  # the first round warms the page cache and writes each side's bytecode
                    walls[name, mode].append(wall)
                    cpus[name, mode].append(cpu)
    out: dict[str, object] = {"query": args.query, "runs": args.runs, "peer": args.peer}
    for (name, mode), values in walls.items():
        wall = statistics.median(values) * 1000
        cpu = statistics.median(cpus[name, mode]) * 1000
        key = "this" if name == "this" else "peer"
        out[f"{key}_{mode}_median_ms"] = round(wall, 1)
        out[f"{key}_{mode}_cpu_ms"] = round(cpu, 1)
        print(f"curator search --mode {mode} ({name}): median {wall:.0f} ms, CPU {cpu:.0f} ms of {len(values)} runs")
    if args.peer:
        for mode in MODES:
            ratio = out[f"this_{mode}_median_ms"] / out[f"peer_{mode}_median_ms"]  # type: ignore[operator]
            cpu_ratio = out[f"this_{mode}_cpu_ms"] / out[f"peer_{mode}_cpu_ms"]  # type: ignore[operator]
            out[f"{mode}_over_peer"] = round(ratio, 2)
            out[f"{mode}_cpu_over_peer"] = round(cpu_ratio, 2)
            print(f"{mode}: this takes {ratio:.2f}x the peer's wall time, {cpu_ratio:.2f}x its CPU time")
    out["load_average"] = round(os.getloadavg()[0], 2)
    print(f"load average {out['load_average']}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
