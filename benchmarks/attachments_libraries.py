"""Which PDF library Curator extracts text with: speed and text quality of pypdfium2, pypdf
and pdfminer.six on the same real PDFs (SciFact abstracts typeset by ReportLab, one and two
columns), each library's plain page-by-page text extraction, nothing of Curator's.

    python benchmarks/attachments_libraries.py [--pdfs 60] [--runs 3]

Quality is measured against the text that was typeset: word recall (how many of its words
come out, as a multiset) and bigram recall (how many pairs of neighbouring words come out
neighbouring: words run together, split, or columns interleaved all lose bigrams).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import itertools

import attachments_corpus

WORD = re.compile(r"\w+")


def _pypdfium2(path: Path) -> list[str]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def _pypdf(path: Path) -> list[str]:
    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(str(path)).pages]


def _pdfminer(path: Path) -> list[str]:
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTTextContainer

    return [
        "".join(el.get_text() for el in page if isinstance(el, LTTextContainer)) for page in extract_pages(str(path))
    ]


LIBRARIES: dict[str, Callable[[Path], list[str]]] = {
    "pypdfium2": _pypdfium2,
    "pypdf": _pypdf,
    "pdfminer.six": _pdfminer,
}


def _words(text: str) -> list[str]:
    # A word hyphenated across a line comes out as two pieces in every library alike.
    return [w.casefold() for w in WORD.findall(text.replace("-\n", "").replace("-\r\n", ""))]


def recall(source: str, extracted: str) -> tuple[float, float]:
    want, got = _words(source), _words(extracted)
    words = sum((Counter(want) & Counter(got)).values()) / len(want)
    pairs = Counter(itertools.pairwise(want))
    found = Counter(itertools.pairwise(got))
    bigrams = sum((pairs & found).values()) / max(1, sum(pairs.values()))
    return words, bigrams


def measure(folder: Path, sources: dict[str, str], runs: int) -> dict[str, dict[str, float]]:
    results: dict[str, dict[str, float]] = {}
    files = sorted(folder.glob("*.pdf"))
    for name, extract in LIBRARIES.items():
        seconds = []
        pages = 0
        texts: dict[str, str] = {}
        for _ in range(runs):
            started = time.perf_counter()
            pages = 0
            for f in files:
                got = extract(f)
                pages += len(got)
                texts[f.name] = "\n".join(got)
            seconds.append(time.perf_counter() - started)
        scores = [recall(sources[n], texts[n]) for n in sorted(sources)]
        results[name] = {
            "pages": pages,
            "pages_per_s": pages / statistics.median(seconds),
            "word_recall": statistics.fmean(s[0] for s in scores),
            "bigram_recall": statistics.fmean(s[1] for s in scores),
        }
    return results


def _one(lib: str, path: str) -> None:
    """Child process: extract one file with one library, print pages and characters."""
    got = LIBRARIES[lib](Path(path))
    print(len(got), sum(len(t.strip()) for t in got), repr("".join(got)[:24]))


def hostile(work: Path, timeout: float) -> None:
    """Each library on the CJK and hostile files, each file in its own process with a wall-clock limit."""
    import subprocess

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.attachments import documents

    files = {
        "cjk.pdf": documents.cjk_pdf(work / "cjk.pdf", ["中文测试第一页。知识管理", "第二页：检索增强"]),
        "bomb-64mb.pdf": work / "bomb.pdf",
        "nested-100k.pdf": work / "nested.pdf",
        "broken-xref.pdf": work / "broken.pdf",
        "3000-pages.pdf": work / "many.pdf",
    }
    (work / "bomb.pdf").write_bytes(documents.bomb_pdf(64 * 1024 * 1024))
    (work / "nested.pdf").write_bytes(documents.nested_pdf())
    (work / "broken.pdf").write_bytes(documents.broken_xref_pdf())
    (work / "many.pdf").write_bytes(documents.many_pages_pdf(3000))
    print(f"hostile and CJK files, one process each, {timeout:.0f} s wall-clock limit:")
    for name, path in files.items():
        for lib in LIBRARIES:
            started = time.perf_counter()
            try:
                r = subprocess.run(
                    [sys.executable, __file__, "--one", lib, str(path)], capture_output=True, text=True, timeout=timeout
                )
                what = r.stdout.strip() if r.returncode == 0 else f"error: {r.stderr.strip().splitlines()[-1][:60]}"
            except subprocess.TimeoutExpired:
                what = "still running at the limit"
            print(f"  {name:<16}{lib:<14}{time.perf_counter() - started:>7.2f} s  {what}")


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--one":
        _one(sys.argv[2], sys.argv[3])
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdfs", type=int, default=60)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=60.0)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="curator-pdf-libs-"))
    for columns in (1, 2):
        folder = work / f"columns-{columns}"
        sources = attachments_corpus.build(folder, args.pdfs, columns=columns)
        print(f"{args.pdfs} PDFs, {columns} column(s):")
        print(f"  {'library':<14}{'pages':>7}{'pages/s':>10}{'words':>9}{'bigrams':>9}")
        for name, r in measure(folder, sources, args.runs).items():
            print(
                f"  {name:<14}{r['pages']:>7}{r['pages_per_s']:>10.1f}"
                f"{r['word_recall']:>9.3f}{r['bigram_recall']:>9.3f}"
            )
    hostile(work, args.timeout)


if __name__ == "__main__":
    main()
