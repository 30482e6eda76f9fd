"""How the two legs of a hybrid search are fused, measured on SciFact: the ablation table.

    python benchmarks/fusion_ablation.py [--data ../shared/data/scifact]

Uses ``curator bench``'s cached index (built and embedded on first use, exactly as
``curator bench DIR --mode all`` builds it), runs the lexical and the vector leg once per
query, and fuses them offline in each way below. Choices are made on SciFact's *train*
queries and reported on its *test* queries, so a variant cannot win by fitting the queries it
is scored on. The first row is what ``curator search`` does (reciprocal-rank fusion of
passages, k 60, equal weights).

Variants: the RRF constant k; the vector leg's weight; and fusing per document (each leg's
passages reduced to their documents, best passage first, before fusion) instead of per
passage, which is what max-pooling a long document's windows amounts to.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from curator.bench import beir
from curator.bench.metrics import ndcg_at, recall_at
from curator.bench.runner import CORPUS, _build, _index_dir
from curator.index import reading
from curator.search.engine import Searcher
from curator.settings import Settings

DEPTH = 200
Ranked = list[tuple[str, int]]
"""A leg's ranking as (document, passage id), best first."""


def document_fusion(legs: dict[str, Ranked], k: int, vector_weight: float) -> list[str]:
    """Each leg's passages reduced to their documents (best passage first), then fused."""
    scores: dict[str, float] = {}
    for name, ranked in legs.items():
        weight = vector_weight if name == "vector" else 1.0
        docs = list(dict.fromkeys(d for d, _ in ranked))
        for rank, d in enumerate(docs, start=1):
            scores[d] = scores.get(d, 0.0) + weight / (k + rank)
    return [d for d, _ in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))][:100]


def passage_fusion(legs: dict[str, Ranked], k: int, vector_weight: float) -> list[str]:
    """As ``curator search`` fuses: passages, then each document at its best passage."""
    scores: dict[int, float] = {}
    owner: dict[int, str] = {}
    for name, ranked in legs.items():
        weight = vector_weight if name == "vector" else 1.0
        for rank, (doc, pid) in enumerate(ranked, start=1):
            scores[pid] = scores.get(pid, 0.0) + weight / (k + rank)
            owner[pid] = doc
    docs: list[str] = []
    seen: set[str] = set()
    for pid, _ in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])):
        if owner[pid] not in seen:
            seen.add(owner[pid])
            docs.append(owner[pid])
    return docs[:100]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(Path(__file__).resolve().parent.parent.parent / "shared/data/scifact"))
    args = ap.parse_args()
    splits = {s: beir.load(args.data, s) for s in ("train", "test")}
    settings = Settings()
    conn, built = _build(splits["test"], settings, _index_dir(splits["test"], None), False, True, print)
    searcher = Searcher(conn, built["epoch"])
    prefix = CORPUS.ref("")
    doc_of: dict[int, str] = {}

    def doc(pid: int) -> str:
        if pid not in doc_of:
            p = reading.passage(conn, pid)
            doc_of[pid] = p.path.removeprefix(prefix) if p else "?"
        return doc_of[pid]

    legs: dict[str, dict[str, dict[str, Ranked]]] = {}
    started = time.perf_counter()
    for split, data in splits.items():
        legs[split] = {}
        for qid, text in data.queries.items():
            _result, _fused, ran = searcher.rank(text, mode="hybrid", depth=DEPTH)
            legs[split][qid] = {leg.name: [(doc(pid), pid) for pid, _ in leg.ranked] for leg in ran}
    print(
        f"{built['passages']} passages, embedder {built['embedder']}; "
        f"{sum(len(q) for q in legs.values())} queries run in {time.perf_counter() - started:.0f}s"
    )

    def score(split: str, k: int, w: float, per_document: bool) -> tuple[float, float]:
        data = splits[split]
        nd, rc = [], []
        for qid, q_legs in legs[split].items():
            ranked = (document_fusion if per_document else passage_fusion)(q_legs, k, w)
            nd.append(ndcg_at(ranked, data.qrels[qid], 10))
            rc.append(recall_at(ranked, data.qrels[qid], 100))
        return statistics.fmean(nd), statistics.fmean(rc)

    rows = []
    for per_document in (False, True):
        for k in (10, 30, 60, 100):
            for w in (0.5, 0.75, 1.0, 1.25, 1.5):
                train = score("train", k, w, per_document)
                test = score("test", k, w, per_document)
                rows.append((per_document, k, w, train, test))
    print(f"{'fusion':<14}{'k':>5}{'w_vec':>7}{'train nDCG@10':>15}{'test nDCG@10':>14}{'test R@100':>12}")
    best = max(rows, key=lambda r: r[3][0])
    for per_document, k, w, train, test in rows:
        mark = "  <- today" if (not per_document and k == 60 and w == 1.0) else ""
        mark += "  <- best on train" if (per_document, k, w) == best[:3] else ""
        name = "per document" if per_document else "per passage"
        print(f"{name:<14}{k:>5}{w:>7.2f}{train[0]:>15.4f}{test[0]:>14.4f}{test[1]:>12.4f}{mark}")
    conn.close()


if __name__ == "__main__":
    main()
