"""The leak scanner on the corpus of secret shapes (tests/leaks_corpus.py): recall by shape, false
positives by family of negatives and on real documentation, lines a CPU second, and CPU time on
pathological long lines.

Recall counts a sample as caught when the scanner names a secret in it and redaction leaves none
of its secret substrings behind (a Stripe key redacted to its first 24 characters is a miss). The
same corpus (this checkout's) is scanned by each side. Speed: about ``--lines`` lines of the
powershell-docs tree (../shared/data) as 50-line texts taken evenly across it, scanned with no
cache, in CPU time, median of ``--runs`` runs, the two sides interleaved round by round; the same
lines count what real documentation gets flagged (``--lines 1100000`` takes the whole tree, about
a million lines). Pathological lines are timed at 25 KB and 50 KB: a linear scan takes twice as
long on twice the line, a quadratic one four times.

    python benchmarks/leak_corpus.py [--n 200] [--lines 20000] [--runs 5] [--peer DIR] [--show]

Run it from a folder that is not a checkout: each side is a subprocess with PYTHONPATH set to its
checkout (this one, and ``--peer DIR``), so neither picks up the other's ``curator``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# ../shared/data beside the project (a clone in a folder of clones finds it further up).
DATA = next((p / "shared" / "data" for p in ROOT.parents if (p / "shared" / "data").is_dir()), ROOT / "missing")
# Units repeated into long lines that make a backtracking pattern retry from every position
# (tests/test_leak_corpus.py holds the scanner to a CPU second on 100 KB).
PATHOLOGICAL = {
    "slashes": "//",
    "eyJ": "eyJ",
    "eyJ and dots": "eyJa.",
    "colons": "a:",
    "at signs": "a:b@",
    "assignments": "password=",
    "keys and colons": "key: ",
    "quotes": "token='",
    "bearer": "Bearer ",
    "mixed case": "Ab3",
    "words and digits": "Win32_",
    "one letter": "a",
}


def pathological_line(unit: str, size: int) -> str:
    return ("https://" + unit * (size // len(unit)))[:size]


def corpus_module() -> Any:
    spec = importlib.util.spec_from_file_location("leaks_corpus", ROOT / "tests" / "leaks_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["leaks_corpus"] = module
    spec.loader.exec_module(module)
    return module


def doc_lines(limit: int) -> list[list[str]]:
    """About ``limit`` lines of the powershell-docs notes as 50-line texts, taken evenly across the
    tree (every k-th text of the sorted notes), so every folder is in the sample."""
    tarball = DATA / "powershell-docs.tar.gz"
    if not tarball.exists() or limit <= 0:
        return []
    notes = []
    with tarfile.open(tarball) as tar:
        for m in tar:  # in the archive's order: a gzip stream read out of order is read again from the start
            f = tar.extractfile(m) if m.isfile() and m.name.endswith(".md") else None
            if f is not None:
                notes.append((m.name, f.read().decode("utf-8", "replace").replace("\r\n", "\n").split("\n")))
    texts = [lines[i : i + 50] for _, lines in sorted(notes) for i in range(0, len(lines), 50)]
    step = max(1, round(sum(map(len, texts)) / limit))
    return texts[::step]


def worker(args: argparse.Namespace) -> None:
    from curator import leaks, redaction

    out: dict[str, Any] = {"curator": str(Path(leaks.__file__).resolve().parent.parent)}
    texts = doc_lines(args.lines)
    if not args.timing_only:
        lc = corpus_module()
        recall = {}
        for shape, samples in lc.corpus(args.n).items():
            caught, missed = 0, []
            for s in samples:
                clean, kinds = redaction.redact(s.text)
                if kinds and not any(secret in clean for secret in s.secrets):
                    caught += 1
                elif len(missed) < 3:
                    missed.append(s.text)
            recall[shape] = {"caught": caught, "n": len(samples), "missed": missed}
        false = {}
        for family, items in lc.negatives().items():
            flagged = [(t, kinds) for t in items if (kinds := leaks.find_secrets(t))]
            false[family] = {"flagged": len(flagged), "n": len(items), "examples": flagged[:3]}
        docs = []
        for text in texts:
            found = leaks.scan("\n".join(text))
            docs += [(text[n], sorted({k.kind for k in found if k.line == n})) for n in sorted({k.line for k in found})]
        worst = {}
        for name, unit in PATHOLOGICAL.items():
            times = []
            for size in (25_000, 50_000):
                t = time.process_time()
                leaks._scan(pathological_line(unit, size))
                times.append(time.process_time() - t)
            worst[name] = times
        out.update(recall=recall, false=false, docs={"flagged": len(docs), "examples": docs[:20]}, worst=worst)
    runs = []
    joined = ["\n".join(t) for t in texts]
    for _ in range(args.runs):
        t = time.process_time()  # CPU time: the machine's load moves wall time more than the scanner
        for text in joined:
            leaks._scan(text)
        runs.append(time.process_time() - t)
    out["lines"] = sum(len(t) for t in texts)
    out["runs"] = runs
    print(json.dumps(out))


def side(checkout: str, args: argparse.Namespace, timing_only: bool) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--n", str(args.n), "--lines", str(args.lines)]
    cmd += ["--runs", str(args.runs)] + (["--timing-only"] if timing_only else [])
    env = {**os.environ, "PYTHONPATH": checkout}
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"the scanner of {checkout} failed: {r.stderr}")
    return dict(json.loads(r.stdout))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200, help="positives a shape")
    ap.add_argument("--lines", type=int, default=20_000, help="powershell-docs lines to time (0: none)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs a side (interleaved, one a round)")
    ap.add_argument("--peer", help="another checkout whose scanner runs beside this one's")
    ap.add_argument("--show", action="store_true", help="print misses, false positives and flagged doc lines")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--timing-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args)
        return
    checkouts = [str(ROOT)] + ([os.path.abspath(args.peer)] if args.peer else [])
    runs = args.runs
    args.runs = 1
    results = [side(c, args, timing_only=False) for c in checkouts]
    for _ in range(runs - 1):
        for c, res in zip(checkouts, results, strict=True):
            res["runs"] += side(c, args, timing_only=True)["runs"]
    report(results, args)


def _pct(a: int, b: int) -> str:
    return f"{a:>4}/{b:<4} {100 * a / b:5.1f}%" if b else "   -"


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    width = 34
    head = "".join(f"{r['curator']:>26.26}  " for r in results)
    print(f"leak corpus: {args.n} positives a shape; recall = caught and redacted whole")
    print(f"{'shape':<{width}}{head}")
    totals = [[0, 0] for _ in results]
    for shape in results[0]["recall"]:
        cells = []
        for t, r in zip(totals, results, strict=True):
            c = r["recall"][shape]
            t[0] += c["caught"]
            t[1] += c["n"]
            cells.append(f"{_pct(c['caught'], c['n']):>26}  ")
        print(f"{shape:<{width}}{''.join(cells)}")
    print(f"{'all positives':<{width}}{''.join(f'{_pct(a, b):>26}  ' for a, b in totals)}")
    print(f"\n{'negatives (flagged)':<{width}}{head}")
    totals = [[0, 0] for _ in results]
    for family in results[0]["false"]:
        cells = []
        for t, r in zip(totals, results, strict=True):
            f = r["false"][family]
            t[0] += f["flagged"]
            t[1] += f["n"]
            cells.append(f"{_pct(f['flagged'], f['n']):>26}  ")
        print(f"{family:<{width}}{''.join(cells)}")
    print(f"{'all negatives':<{width}}{''.join(f'{_pct(a, b):>26}  ' for a, b in totals)}")
    lines = results[0]["lines"]
    if lines:
        print(
            f"{'powershell-docs lines':<{width}}"
            + "".join(f"{_pct(r['docs']['flagged'], lines):>26}  " for r in results)
        )
        speeds = [lines / statistics.median(r["runs"]) for r in results]
        print(f"\nscan speed, {lines} lines, median of {len(results[0]['runs'])} runs:")
        print(f"{'lines a CPU second':<{width}}" + "".join(f"{s:>26,.0f}  " for s in speeds))
        if len(speeds) == 2:
            print(f"{'this / peer':<{width}}{speeds[0] / speeds[1]:>26.2f}")
    print(f"\n{'pathological lines':<{width}}" + "".join(f"{'CPU s at 50 KB (x 25 KB)':>26}  " for _ in results))
    for name in results[0]["worst"]:
        cells = [
            f"{r['worst'][name][1]:>17.3f} ({r['worst'][name][1] / max(r['worst'][name][0], 1e-6):4.1f})  "
            for r in results
        ]
        print(f"{name:<{width}}" + "".join(f"{c:>28}" for c in cells))
    if args.show:
        for r in results:
            print(f"\n== {r['curator']}")
            for shape, c in r["recall"].items():
                for text in c["missed"]:
                    print(f"missed [{shape}] {text!r}")
            for family, f in r["false"].items():
                for text, kinds in f["examples"]:
                    print(f"flagged [{family}] {text!r} {kinds}")
            for text, kinds in r["docs"]["examples"]:
                print(f"flagged [docs] {text[:160]!r} {kinds}")


if __name__ == "__main__":
    main()
