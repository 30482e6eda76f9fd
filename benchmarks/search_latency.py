"""Search latency over a question set: each question searched ``--runs`` times in one process
against an index already built, after one warm-up pass; the median and 90th percentile of one
search (the Searcher's own work: legs, language, translations, fusion, hits).

    python benchmarks/search_latency.py --index-dir DIR --set benchmarks/multilingual_help \\
        --mode lexical --runs 3 [--peer CHECKOUT]

``--peer`` runs the same in a subprocess with PYTHONPATH at another checkout of Curator (e.g.
``git archive REV | tar -x -C DIR``), on the same index, and prints both. Set CURATOR_EMBEDDER=none
for a lexical index.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def measure(index_dir: str, questions: list[str], mode: str, runs: int) -> tuple[float, float]:
    from curator.index import db
    from curator.index import epoch as epochs
    from curator.search.engine import Searcher

    ep = epochs.serving(index_dir)
    if ep is None:
        raise SystemExit(f"no index in {index_dir}")
    conn = db.connect(ep.path, readonly=True)  # with sqlite-vec loaded, as a search opens it
    searcher = Searcher(conn, ep.id)
    for q in questions:
        searcher.search(q, mode=mode)
    times = []
    for _ in range(runs):
        for q in questions:
            start = time.perf_counter()
            searcher.search(q, mode=mode)
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.9 * len(times))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index-dir", required=True, help="an index folder Curator built")
    ap.add_argument("--set", default="benchmarks/multilingual_help", help="the folder of queries.jsonl")
    ap.add_argument("--mode", default="lexical", help="lexical, vector or hybrid")
    ap.add_argument("--runs", type=int, default=3, help="searches of each question")
    ap.add_argument("--peer", help="another checkout of Curator to measure beside this one")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)  # a peer run: print JSON
    a = ap.parse_args()
    lines = (Path(a.set) / "queries.jsonl").read_text(encoding="utf-8").splitlines()
    questions = [json.loads(line)["text"] for line in lines if line.strip()]
    median, p90 = measure(a.index_dir, questions, a.mode, a.runs)
    if a.worker:
        print(json.dumps([median, p90]))
        return
    print(f"this  {len(questions)} questions x {a.runs}, {a.mode}: median {median:.1f} ms, p90 {p90:.1f} ms")
    if a.peer:
        args = [sys.executable, os.path.abspath(__file__), "--index-dir", a.index_dir, "--set", a.set]
        args += ["--mode", a.mode, "--runs", str(a.runs), "--worker"]
        env = {**os.environ, "PYTHONPATH": os.path.abspath(a.peer)}
        out = subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout
        peer_median, peer_p90 = json.loads(out)
        print(f"peer  {a.peer}: median {peer_median:.1f} ms, p90 {peer_p90:.1f} ms")


if __name__ == "__main__":
    main()
