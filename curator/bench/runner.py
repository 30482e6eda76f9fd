"""Running a BEIR benchmark: index the corpus once (cached), then every query per mode."""

from __future__ import annotations

import hashlib
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from curator.bench import beir
from curator.bench.metrics import ndcg_at, percentile, recall_at
from curator.embedders import all_embedders
from curator.embedders import base as embedders
from curator.errors import EmbedderError, UsageError
from curator.index import db, reading
from curator.index import epoch as epochs
from curator.index.corpus import index_items
from curator.index.embedding import embed_pending
from curator.index.normalise import tokenizer
from curator.locations import cache_root
from curator.settings import Settings
from curator.sources.base import Problems
from curator.sources.jsonl import JsonlSource, entries

SOURCE = "jsonl:bench"
CORPUS = JsonlSource("bench", "")
"""Names the corpus's items (``jsonl:bench/ID``); the path is each dataset's own."""
Say = Callable[[str], None]


def _index_dir(dataset: beir.Dataset, explicit: str | None) -> str:
    if explicit:
        return os.path.abspath(explicit)
    key = hashlib.sha256(os.path.abspath(dataset.corpus).encode()).hexdigest()[:10]
    return os.path.join(cache_root(), "bench", f"{dataset.name}-{key}")


def _build(
    dataset: beir.Dataset, settings: Settings, index_dir: str, fresh: bool, vectors: bool, say: Say
) -> tuple[Any, dict[str, Any]]:
    """The benchmark's index: built once and cached; embedded only when a mode needs vectors
    (a lexical run leaves passages pending, and a later vector run embeds just those)."""
    spec = embedders.resolve(settings)
    mode = settings.index.normalisation
    fp = epochs.fingerprint(spec, mode)
    with epochs.writer_lock(index_dir):
        ep = epochs.serving(index_dir)
        conn = None
        if ep is not None and not fresh:
            conn = db.connect(ep.path)
            if db.get_json(conn, "fingerprint") != fp:
                conn.close()
                conn = None
        built: dict[str, Any] = {}
        if conn is None:
            ep = epochs.new(index_dir, fp)
            say(f"indexing {dataset.corpus} into {index_dir} (lexical)")
            conn = db.connect(ep.path)
            db.building(conn)
            db.create_schema(conn, tokenizer=tokenizer(mode), dims=spec.dims)
            with conn:
                db.set_json(conn, "fingerprint", fp)
            started = time.perf_counter()
            problems = Problems()
            corpus = JsonlSource(CORPUS.name, dataset.corpus)
            indexed, _, _ = index_items(conn, SOURCE, corpus.kind, corpus.read(problems), vectors=spec.dims > 0)
            built = {
                "documents": indexed,
                "malformed_lines": problems.count,
                "lexical_seconds": round(time.perf_counter() - started, 2),
                "embed_seconds": 0.0,
            }
            db.serving(conn)
            with conn:
                db.set_json(conn, "bench.build", built)
            epochs.swap(ep)
            epochs.prune(index_dir, keep=ep)
        else:
            built = dict(db.get_json(conn, "bench.build", {}), cached=True)
            say(f"using the cached index in {index_dir} (--fresh rebuilds it)")
        pending = reading.counts(conn).pending_embeddings
        if vectors and spec.provider != "none" and pending:
            say(f"embedding {pending} passages with {spec.describe()}")
            t = time.perf_counter()
            embedder = all_embedders.create(spec)
            result = embed_pending(conn, embedder, settings.embedder.batch_size, _ticker(say, pending))
            if result.error:
                raise EmbedderError(result.error)
            built["embed_seconds"] = round(float(built.get("embed_seconds") or 0) + time.perf_counter() - t, 2)
            built["embedded_passages_per_second"] = round(result.embedded / max(time.perf_counter() - t, 1e-9), 1)
            built.pop("cached", None)
            with conn:
                db.set_json(conn, "bench.build", {k: v for k, v in built.items() if k != "cached"})
        counts = reading.counts(conn)
        built["passages"] = counts.passages
        built["pending_embeddings"] = counts.pending_embeddings
        assert ep is not None  # served, or made just above
        return conn, {**built, "epoch": ep.id, "embedder": spec.describe(), "normalisation": mode}


def _ticker(say: Say, total: int) -> Callable[[int], None]:
    """A line every tenth of the way: the benchmark's build can take a while."""
    state = {"done": 0, "next": max(total // 10, 1), "t0": time.perf_counter()}

    def tick(n: int) -> None:
        state["done"] += n
        if state["done"] >= state["next"] or state["done"] == total:
            rate = state["done"] / max(time.perf_counter() - state["t0"], 1e-9)
            left = (total - state["done"]) / rate if rate else 0
            say(f"embedded {state['done']}/{total} ({rate:.1f} passages/s, about {left:.0f}s left)")
            state["next"] += max(total // 10, 1)

    return tick


def _doc_ranking(conn: Any, fused: list[tuple[int, float]], k: int) -> list[str]:
    prefix = CORPUS.ref("")
    docs: list[str] = []
    seen: set[str] = set()
    for pid, _ in fused:
        p = reading.passage(conn, pid)
        if p and p.path not in seen:
            seen.add(p.path)
            docs.append(p.path.removeprefix(prefix))
            if len(docs) >= k:
                break
    return docs


def _score(rankings: dict[str, list[str]], dataset: beir.Dataset) -> tuple[float, float]:
    nd = [ndcg_at(rankings[q], dataset.qrels[q], 10) for q in rankings]
    rc = [recall_at(rankings[q], dataset.qrels[q], 100) for q in rankings]
    return statistics.fmean(nd), statistics.fmean(rc)


def _baseline(dataset: beir.Dataset, queries: dict[str, str]) -> dict[str, Any]:
    try:
        import bm25s
    except ImportError:
        raise UsageError("--baseline needs bm25s", hint="pip install bm25s (it is in the dev extra)") from None

    docs = list(entries(dataset.corpus, Problems()))
    ids = [d.id for d in docs]
    try:
        import Stemmer  # PyStemmer, when installed

        stemmer = Stemmer.Stemmer("english")
        stemmed = "snowball"
    except ImportError:
        stemmer, stemmed = None, "none"
    started = time.perf_counter()
    corpus_tokens = bm25s.tokenize(
        [f"{d.title} {d.text}" for d in docs], stopwords="en", stemmer=stemmer, show_progress=False
    )
    retriever = bm25s.BM25()
    retriever.index(corpus_tokens, show_progress=False)
    index_s = time.perf_counter() - started
    rankings: dict[str, list[str]] = {}
    lat: list[float] = []
    for qid, text in queries.items():
        t = time.perf_counter()
        qt = bm25s.tokenize([text], stopwords="en", stemmer=stemmer, show_progress=False)
        results, _scores = retriever.retrieve(qt, k=min(100, len(ids)), show_progress=False)
        lat.append((time.perf_counter() - t) * 1000)
        rankings[qid] = [ids[i] for i in results[0]]
    nd, rc = _score(rankings, dataset)
    return {
        "mode": f"bm25s (stemmer: {stemmed})",
        "ndcg@10": round(nd, 4),
        "recall@100": round(rc, 4),
        "p50_ms": round(percentile(lat, 50), 2),
        "p95_ms": round(percentile(lat, 95), 2),
        "index_seconds": round(index_s, 2),
    }


def run_bench(
    folder: str,
    *,
    modes: tuple[str, ...],
    settings: Settings | None,
    baseline: bool,
    limit: int | None,
    fresh: bool,
    index_dir: str | None,
    say: Say | None = None,
) -> dict[str, Any]:
    from curator.search.engine import Searcher

    dataset = beir.load(folder)
    settings = settings or Settings()
    queries = dict(list(dataset.queries.items())[:limit]) if limit else dataset.queries
    vectors = any(m != "lexical" for m in modes)
    conn, built = _build(dataset, settings, _index_dir(dataset, index_dir), fresh, vectors, say or (lambda _: None))
    searcher = Searcher(conn, built["epoch"])
    rows = []
    for mode in modes:
        (say or (lambda _: None))(f"{mode}: running {len(queries)} queries")
        rankings: dict[str, list[str]] = {}
        lat: list[float] = []
        warned: list[str] = []
        for qid, text in queries.items():
            result, fused, _ = searcher.rank(text, mode=mode, depth=200)
            warned += result.warnings
            rankings[qid] = _doc_ranking(conn, fused, 100)
        for text in queries.values():
            t = time.perf_counter()
            searcher.search(text, k=10, mode=mode)
            lat.append((time.perf_counter() - t) * 1000)
        nd, rc = _score(rankings, dataset)
        rows.append(
            {
                "mode": mode,
                "ndcg@10": round(nd, 4),
                "recall@100": round(rc, 4),
                "p50_ms": round(percentile(lat, 50), 2),
                "p95_ms": round(percentile(lat, 95), 2),
                "warnings": sorted(set(warned)),
            }
        )
    if baseline:
        rows.append(_baseline(dataset, queries))
    conn.close()
    return {"dataset": dataset.name, "queries": len(queries), "index": built, "results": rows}


def format_table(result: dict[str, Any]) -> str:
    b = result["index"]
    lines = [
        f"{result['dataset']}: {result['queries']} queries; {b.get('documents', '?')} documents, "
        f"{b['passages']} passages; embedder {b['embedder']}, {b['normalisation']}"
    ]
    when = " (cached; --fresh rebuilds)" if b.get("cached") else ""
    lines.append(
        f"index time: lexical {b.get('lexical_seconds', '?')}s, embedding {b.get('embed_seconds', '?')}s{when}"
    )
    lines.append(f"{'mode':<28}{'nDCG@10':>9}{'R@100':>8}{'p50 ms':>9}{'p95 ms':>9}")
    for r in result["results"]:
        lines.append(
            f"{r['mode']:<28}{r['ndcg@10']:>9.4f}{r['recall@100']:>8.4f}{r['p50_ms']:>9.2f}{r['p95_ms']:>9.2f}"
        )
        for w in r.get("warnings", []):
            lines.append(f"  warning: {w}")
    return "\n".join(lines)
