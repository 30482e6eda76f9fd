"""Attachments: pages a second that `curator index` extracts and indexes, beside the chosen
library's own plain extraction of the same files.

    python benchmarks/attachments_index.py [--pdfs 210] [--runs 3]

The PDFs are SciFact abstracts typeset by ReportLab (benchmarks/attachments_corpus.py), six
to a file, in a git vault with `attachments.include: ["*.pdf"]`. Interleaved, per run:

1. plain pypdfium2: every page's text, in this process, one file after another (what the
   library does alone, with no limits and no index);
2. `curator index` on a fresh index folder, lexical (CURATOR_EMBEDDER=none): each file read in
   its sandboxed child (several at once), split into passages by page and outline, written to
   SQLite with its FTS rows;
3. a no-change `curator index` (a stat walk).

Medians, and the ratio of the first two: what the sandbox, the passages and the index cost on
top of the extraction itself. Embedding is left out (it is the same per passage as for notes;
benchmarks/embed_throughput.py measures it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import attachments_corpus
from common import GIT_ENV


def plain(folder: Path) -> tuple[int, float]:
    import pypdfium2 as pdfium

    started = time.perf_counter()
    pages = 0
    for f in sorted(folder.rglob("*.pdf")):
        pdf = pdfium.PdfDocument(str(f))
        for i in range(len(pdf)):
            pdf[i].get_textpage().get_text_range()
            pages += 1
        pdf.close()
    return pages, time.perf_counter() - started


def index(vault: Path, index_dir: Path) -> tuple[float, dict[str, object]]:
    env = {**os.environ, "CURATOR_EMBEDDER": "none", "HF_HUB_OFFLINE": "1"}
    started = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "curator", "--vault", str(vault), "--index-dir", str(index_dir), "--json", "index"],
        env=env,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - started
    if r.returncode != 0:
        sys.exit(f"curator index failed: {r.stderr}")
    return elapsed, json.loads(r.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdfs", type=int, default=210)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="curator-attach-bench-"))
    vault = work / "vault"
    attachments_corpus.build(vault / "papers", args.pdfs)
    (vault / ".kp").mkdir()
    (vault / ".kp" / "config.yaml").write_text('attachments:\n  include: ["*.pdf"]\n')
    subprocess.run(["git", "init", "-q"], cwd=vault, check=True)
    subprocess.run(["git", "add", "-A"], cwd=vault, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "papers"], cwd=vault, check=True, env={**os.environ, **GIT_ENV})
    plains, firsts, nochange = [], [], []
    pages = 0
    report: dict[str, object] = {}
    for run in range(args.runs):
        pages, seconds = plain(vault / "papers")
        plains.append(seconds)
        index_dir = work / f"index-{run}"
        seconds, report = index(vault, index_dir)
        firsts.append(seconds)
        nochange.append(index(vault, index_dir)[0])
    files = args.pdfs
    p, f, n = statistics.median(plains), statistics.median(firsts), statistics.median(nochange)
    print(f"{files} PDFs, {pages} pages; medians of {args.runs} runs, interleaved")
    print(f"  plain pypdfium2 extraction      {p:7.2f} s  {pages / p:7.1f} pages/s")
    print(f"  curator index (first, lexical)  {f:7.2f} s  {pages / f:7.1f} pages/s  ({report['passages']} passages)")
    print(f"  curator index (no change)       {n:7.2f} s")
    print(f"  ratio first index / plain extraction: {f / p:.2f}")
    print(json.dumps({"pdfs": files, "pages": pages, "plain_s": p, "index_s": f, "nochange_s": n, "ratio": f / p}))


if __name__ == "__main__":
    main()
