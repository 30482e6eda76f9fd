"""`curator bench` on a small BEIR-format dataset made in the test."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from curator.bench.metrics import ndcg_at, recall_at
from curator.sources.base import Problems
from curator.sources.jsonl import entries

DOCS = {
    "d1": ("Write-ahead logging", "SQLite WAL mode lets readers continue while a writer appends to the log."),
    "d2": ("Reciprocal rank fusion", "Fuse ranked lists by rank with k equal to sixty; scores share no scale."),
    "d3": ("Porter stemming", "Stemming maps running and runs to run before indexing."),
    "d4": ("Zettelkasten", "A slip box of small notes with permanent identities and dense links."),
    "d5": ("Vector search", "Dense embeddings place similar passages close under cosine similarity."),
}
QUERIES = {"q1": "readers and a writer in sqlite", "q2": "fusing ranked lists", "q3": "slip box notes"}
QRELS = {"q1": "d1", "q2": "d2", "q3": "d4"}


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    folder = tmp_path / "tiny"
    (folder / "qrels").mkdir(parents=True)
    lines = [json.dumps({"_id": k, "title": t, "text": x}) for k, (t, x) in DOCS.items()]
    lines.insert(2, "{not json")  # malformed lines are counted and skipped, never fatal
    with gzip.open(folder / "corpus.jsonl.gz", "wt", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    (folder / "queries.jsonl").write_text("\n".join(json.dumps({"_id": k, "text": v}) for k, v in QUERIES.items()))
    (folder / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t1\n" for q, d in QRELS.items())
    )
    return folder


def test_bench_reports_every_mode_and_the_baseline(dataset: Path, cli, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    monkeypatch.chdir(tmp_path)  # no vault here: the benchmark needs none
    r = cli("--json", "bench", dataset, "--mode", "all", "--baseline")
    assert r.code == 0, r
    data = json.loads(r.out)
    assert data["queries"] == 3 and data["index"]["documents"] == 5 and data["index"]["malformed_lines"] == 1
    rows = {row["mode"].split(" ")[0]: row for row in data["results"]}
    assert set(rows) == {"lexical", "vector", "hybrid", "bm25s"}
    assert rows["lexical"]["ndcg@10"] == 1.0 and rows["lexical"]["recall@100"] == 1.0
    assert rows["hybrid"]["recall@100"] == 1.0
    assert all(row["p50_ms"] > 0 for row in rows.values())
    again = json.loads(cli("--json", "bench", dataset, "--mode", "lexical").out)
    assert again["index"]["cached"] is True
    text = cli("bench", dataset, "--mode", "lexical", "--fresh").out
    assert "nDCG@10" in text and "lexical" in text and "cached" not in text
    assert "\\x0a" not in text and any(row.startswith("lexical ") for row in text.splitlines())


def test_metrics() -> None:
    assert ndcg_at(["a", "b"], {"a": 1}) == 1.0
    assert ndcg_at(["b", "a"], {"a": 1}) == pytest.approx(1 / 1.5849625)
    assert recall_at(["x"] * 5 + ["a"], {"a": 1, "b": 1}, 100) == 0.5


def test_jsonl_source_counts_malformed_lines(tmp_path: Path) -> None:
    p = tmp_path / "c.jsonl"
    p.write_text('{"id": 1, "text": "a"}\nnot json\n{"title": "no id"}\n\n{"_id": "x", "title": "T", "text": "b"}\n')
    problems = Problems()
    docs = list(entries(str(p), problems))
    assert [(d.id, d.title) for d in docs] == [("1", ""), ("x", "T")]
    assert problems.count == 2
    assert problems.named == ["line 2: not JSON (Expecting value at column 1)", "line 3: no _id or id"]


def test_a_lexical_bench_never_embeds_and_a_vector_run_embeds_only_then(
    dataset: Path, cli, monkeypatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CURATOR_EMBEDDER", "fake")
    monkeypatch.chdir(tmp_path)
    r = cli("--json", "bench", dataset, "--mode", "lexical", "--fresh")
    assert r.code == 0, r
    built = json.loads(r.out)["index"]
    assert built["pending_embeddings"] == built["passages"] == 5 and built["embed_seconds"] == 0
    assert "(lexical)" in r.err and "embedding" not in r.err  # says what it does, and it does not embed
    r = cli("--json", "bench", dataset, "--mode", "vector")
    built = json.loads(r.out)["index"]
    assert built["pending_embeddings"] == 0 and "cached" not in built
    assert "embedding 5 passages" in r.err and "using the cached index" in r.err
