"""Boilerplate crowding: how many top-10 slots a footer every note repeats takes, this checkout
beside another, on the multilingual help vault (benchmarks/multilingual/) with a footer added.

    python benchmarks/boilerplate.py [--modes lexical,vector,hybrid] [--peer DIR|REV] [--json]

Each note of ``multilingual/vault`` gets the same footer section, as a published garden's
notes do (its own heading; a link to the note's own page, so no two copies are byte-identical):

    ## About this page
    [This note in GitHub](https://github.com/…/<path>) · Edit it there and send a pull request …

The vault is a fresh git repository, indexed with ``curator index`` (the configured embedder,
the local model by default) into a folder outside it; then each question of
``multilingual/queries.jsonl`` is run in each mode as ``curator search Q --json --k 10``, in
this process (``multilingual.curator``), and so are a few questions about the footer itself.

Reported per mode: footer slots (hits in a top 10 whose breadcrumb is the footer's, over all
questions), questions with a footer in their top 10, MRR@10 of the judged pages
(``multilingual/qrels.tsv``), and for each footer question the rank of its first footer hit
(it should still find one). ``--peer`` runs the same with another checkout (a folder, or a git
revision unpacked by ``common.peer_checkout``) as a subprocess with PYTHONPATH set to it.
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
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import peer_checkout
from multilingual import DATA, GIT_ENV, K, curator, load_qrels, load_queries, notes_of

HEADING = "About this page"
FOOTER = (
    "\n\n## {heading}\n\n[This note in GitHub](https://github.com/example-garden/vault/blob/main/{path}) · "
    "Edit it there and send a pull request; every page of this garden is published from that repository "
    "with Obsidian and licensed under CC BY 4.0. Questions and corrections are welcome in the issue tracker.\n"
)
FOOTER_QUERIES = (
    "edit this note in GitHub and send a pull request",
    "licensed under CC BY 4.0 published with Obsidian",
)
MODES = ("lexical", "vector", "hybrid")


def make_vault() -> Path:
    vault = Path(tempfile.mkdtemp(prefix="curator-boilerplate-")) / "vault"
    shutil.copytree(DATA / "vault", vault)
    for note in sorted(vault.rglob("*.md")):
        rel = note.relative_to(vault).as_posix()
        with open(note, "a", encoding="utf-8") as f:
            f.write(FOOTER.format(heading=HEADING, path=rel))
    env = {**os.environ, **GIT_ENV}
    subprocess.run(["git", "init", "-q"], cwd=vault, check=True)
    subprocess.run(["git", "add", "-A"], cwd=vault, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "vault"], cwd=vault, check=True, env=env)
    return vault


def is_footer(hit: dict) -> bool:
    return str(hit.get("breadcrumb", "")).endswith(HEADING)


def measure(modes: list[str]) -> dict:
    vault = make_vault()
    index_dir = Path(tempfile.mkdtemp(prefix="curator-boilerplate-index-"))
    base = ["--vault", str(vault), "--index-dir", str(index_dir)]
    cpu0, t0 = time.process_time(), time.perf_counter()
    code, out, err = curator([*base, "index"])
    index_seconds = time.perf_counter() - t0
    if code != 0:
        sys.exit(f"curator index failed ({code}): {err.strip() or out.strip()}")
    qrels = load_qrels()
    result: dict = {
        "curator": os.path.dirname(sys.modules["curator"].__file__ or ""),
        "index_seconds": round(index_seconds, 1),
        "modes": {},
    }
    for mode in modes:
        slots, crowded, rr, ms = 0, 0, [], []
        for q in load_queries():
            s0 = time.perf_counter()
            code, out, err = curator([*base, "search", q["text"], "--json", "--mode", mode, "--k", str(K)])
            ms.append((time.perf_counter() - s0) * 1000)
            hits = json.loads(out)["hits"] if code == 0 else []
            footers = sum(1 for h in hits if is_footer(h))
            slots += footers
            crowded += footers > 0
            judged = qrels.get(q["id"], {})
            ranks = [i for i, p in enumerate(notes_of(hits)[:K], start=1) if p in judged]
            rr.append(1.0 / ranks[0] if ranks else 0.0)
        targeted = {}
        for text in FOOTER_QUERIES:
            code, out, err = curator([*base, "search", text, "--json", "--mode", mode, "--k", str(K)])
            hits = json.loads(out)["hits"] if code == 0 else []
            first = next((i for i, h in enumerate(hits, start=1) if is_footer(h)), None)
            targeted[text] = {"first_footer": first, "footers": sum(1 for h in hits if is_footer(h))}
        result["modes"][mode] = {
            "queries": len(rr),
            "footer_slots": slots,
            "crowded_queries": crowded,
            "mrr@10": round(statistics.fmean(rr), 4),
            "median_ms": round(statistics.median(ms), 1),
            "targeted": targeted,
        }
    result["cpu_seconds"] = round(time.process_time() - cpu0, 1)
    shutil.rmtree(vault.parent, ignore_errors=True)
    shutil.rmtree(index_dir, ignore_errors=True)
    return result


def run_peer(peer: str, modes: list[str]) -> dict:
    folder = tempfile.mkdtemp(prefix="curator-boilerplate-peer-")
    out = os.path.join(folder, "result.json")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", out, "--modes", ",".join(modes)]
    env = {**os.environ, "PYTHONPATH": peer}
    r = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"the peer run failed: {r.stderr.strip()[-2000:]}")
    with open(out, encoding="utf-8") as f:
        data: dict = json.load(f)
    shutil.rmtree(folder, ignore_errors=True)
    return data


def show(name: str, result: dict) -> None:
    print(f"{name}: {result['curator']}  index {result['index_seconds']}s  cpu {result['cpu_seconds']}s")
    for mode, m in result["modes"].items():
        print(
            f"  {mode:<8} footer slots {m['footer_slots']:>4} of {m['queries'] * K}  "
            f"questions crowded {m['crowded_queries']:>3}/{m['queries']}  MRR@10 {m['mrr@10']:.4f}  "
            f"median {m['median_ms']:.0f} ms"
        )
        for text, t in m["targeted"].items():
            print(f"           footer question {text!r}: first footer at {t['first_footer']}, {t['footers']} in top 10")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--peer", help="another checkout (folder) or git revision to run beside this one")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    if args.worker:
        data = measure(modes)
        with open(args.worker, "w", encoding="utf-8") as f:
            json.dump(data, f)
        return
    sides = []
    if args.peer:
        sides.append(("before", run_peer(peer_checkout(args.peer), modes)))
    sides.append(("after" if args.peer else "this", measure(modes)))
    if args.json:
        print(json.dumps(dict(sides), indent=2))
        return
    for name, result in sides:
        show(name, result)


if __name__ == "__main__":
    main()
