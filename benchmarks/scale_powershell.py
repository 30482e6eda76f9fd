"""Scale run on the powershell-docs tree (3,112 files):

1. first lexical index, files per second (median of --first-runs fresh indexes);
2. a no-change `curator index` process against a bare Python process that walks and stats
   the same tree, interleaved, medians and their ratio;
3. every note changed (a line added to each, as applying an adopt proposal changes them), then
   `curator index`, and again once they are restored: medians of --every-runs rounds, this and
   --peer interleaved, each with its own index;
4. ten files edited, then `curator index`: what was re-read, re-chunked and re-embedded.

    python benchmarks/scale_powershell.py [--runs 15] [--first-runs 5] [--every-runs 3] [--embedder fake|local|none]
        [--peer REV] [--busy N]

``--peer REV`` times that revision's first lexical index too (``git archive``d to a temp
folder, run with PYTHONPATH), interleaved run by run with this one's. ``--busy N`` keeps N other
processes spinning on the CPU during the first indexes (a busy machine).

Embedding counts need an embedder; `fake` (the hashing test double) counts the same
passages as the real model without an hour of CPU time; `local` runs the real one.
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
from common import median_ms, peer_checkout, powershell_vault, timed

WALK = """
import os, sys
n = 0
stack = [sys.argv[1]]
while stack:
    d = stack.pop()
    with os.scandir(d) as it:
        for e in it:
            if e.is_dir(follow_symlinks=False):
                if e.name != ".git":
                    stack.append(e.path)
            else:
                e.stat(follow_symlinks=False)
                n += 1
print(n)
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--first-runs", type=int, default=5)
    ap.add_argument("--embedder", default="fake", choices=["fake", "local", "none"])
    ap.add_argument("--peer", help="a git revision (or checkout folder) whose first index is timed beside this one's")
    ap.add_argument("--busy", type=int, default=0, help="processes kept spinning during the first indexes")
    ap.add_argument("--every-runs", type=int, default=3, help="rounds of every note changed, then restored")
    args = ap.parse_args()
    vault = powershell_vault()
    curator = [sys.executable, "-m", "curator", "--vault", str(vault)]
    env = {**os.environ, "CURATOR_EMBEDDER": "none", "HF_HUB_OFFLINE": "1"}
    files = sum(1 for p in vault.rglob("*") if p.is_file() and ".git" not in p.parts)

    firsts = []
    workers: list[int] = []
    peer_firsts: list[float] = []
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    peer_env = {**env, "PYTHONPATH": peer_checkout(args.peer)} if args.peer else None
    for _ in range(args.first_runs):
        for e, times in ((env, firsts), (peer_env, peer_firsts)):
            if e is None:
                continue
            if "XDG_CACHE_HOME" in e:
                shutil.rmtree(e["XDG_CACHE_HOME"])
            # Each run starts with nothing waiting to be written back: the unpacked tree and the
            # previous run's index would otherwise be flushed to disk during the next run.
            os.sync()
            e["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="curator-bench-cache-")
            t, out = timed([*curator, "--json", "index"], e, cwd=vault)
            times.append(t)
            if e is env:
                report = json.loads(out)
                workers.append(report.get("workers", 0))
    for burner in burners:
        burner.kill()
    first = statistics.median(firsts)
    print(f"vault: {files} files, {report['indexed']} notes, {report['passages']} passages")
    print(
        f"first lexical index: median {first:.2f}s = {files / first:.0f} files/s "
        f"(process wall time; {len(firsts)} fresh runs, {files / max(firsts):.0f}-{files / min(firsts):.0f} files/s; "
        f"{args.busy} busy process(es) beside it; workers {workers})"
    )
    if peer_firsts:
        peer = statistics.median(peer_firsts)
        print(
            f"  peer {args.peer}: median {peer:.2f}s = {files / peer:.0f} files/s, interleaved run by run; "
            f"this / peer throughput {peer / first:.2f}x"
        )

    cur, walk = [], []
    for _ in range(args.runs):
        cur.append(timed([*curator, "index", "--quiet"], env)[0])
        walk.append(timed([sys.executable, "-c", WALK, str(vault)])[0])
    c, w = median_ms(cur), median_ms(walk)
    print(
        f"no-change `curator index`: median {c:.0f} ms; bare python walk+stat: median {w:.0f} ms; "
        f"ratio {c / w:.2f}x ({args.runs} runs each, interleaved)"
    )

    if args.every_runs:
        every(vault, curator, env, peer_env, args)

    env["CURATOR_EMBEDDER"] = args.embedder
    if args.embedder != "none":
        env_cache = tempfile.mkdtemp(prefix="curator-bench-cache-")
        env["XDG_CACHE_HOME"] = env_cache
        t, out = timed([*curator, "--json", "index"], env)
        r = json.loads(out)
        print(f"first index with embedder {args.embedder}: {t:.1f}s, {r['embedded']} passages embedded")
    edited = sorted(p for p in vault.rglob("*.md") if ".git" not in p.parts)[::300][:10]
    for p in edited:
        lines = p.read_text(encoding="utf-8").split("\n")
        middle = len(lines) // 2
        lines.insert(middle, "An added sentence about remoting and sessions.")
        p.write_text("\n".join(lines), encoding="utf-8")
    t, out = timed([*curator, "--json", "index"], env)
    r = json.loads(out)
    print(
        f"after editing {len(edited)} files: {r['indexed']} indexed, {r['unchanged']} unchanged in {t:.2f}s; "
        f"{r['passages_written']} passages re-chunked, {r['embedded']} re-embedded, {r['vectors_reused']} vectors reused"
    )


def every(
    vault: Path, curator: list[str], env: dict[str, str], peer_env: dict[str, str] | None, args: argparse.Namespace
) -> None:
    """Every note changed, then restored: each a reindex of every note, on an index of its own a side."""
    notes = {p: p.read_bytes() for p in sorted(vault.rglob("*.md")) if ".git" not in p.parts}
    sides = {"this": {**env, "XDG_CACHE_HOME": tempfile.mkdtemp(prefix="curator-bench-cache-")}}
    if peer_env is not None:
        sides["peer"] = {**peer_env, "XDG_CACHE_HOME": tempfile.mkdtemp(prefix="curator-bench-cache-")}
    for e in sides.values():
        timed([*curator, "index", "--quiet"], e, cwd=vault)
    times: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(args.every_runs):
        for changed in (True, False):
            for p, raw in notes.items():
                p.write_bytes(raw + b"\nOne more line.\n" if changed else raw)
            for name, e in sides.items():
                os.sync()
                times[name].append(timed([*curator, "index", "--quiet"], e, cwd=vault)[0])
    this = statistics.median(times["this"])
    line = f"every note changed ({len(notes)}), then `curator index`: median {this:.2f}s of {len(times['this'])}"
    if "peer" in times:
        peer = statistics.median(times["peer"])
        line += f"; peer {args.peer} {peer:.2f}s, this / peer {this / peer:.2f}x (interleaved)"
    print(line)


if __name__ == "__main__":
    main()
