"""Loading a BEIR dataset folder: corpus.jsonl(.gz), queries.jsonl, qrels/test.tsv."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from curator.errors import NotFound


@dataclass
class Dataset:
    name: str
    corpus: str
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]


def load(folder: str, split: str = "test") -> Dataset:
    folder = os.path.abspath(folder)
    corpus = next(
        (
            os.path.join(folder, n)
            for n in ("corpus.jsonl", "corpus.jsonl.gz")
            if os.path.exists(os.path.join(folder, n))
        ),
        None,
    )
    if corpus is None:
        raise NotFound(f"{folder} has no corpus.jsonl or corpus.jsonl.gz")
    qrels_path = os.path.join(folder, "qrels", f"{split}.tsv")
    queries_path = os.path.join(folder, "queries.jsonl")
    for p in (qrels_path, queries_path):
        if not os.path.exists(p):
            raise NotFound(f"{folder} has no {os.path.relpath(p, folder)}")
    qrels: dict[str, dict[str, int]] = {}
    with open(qrels_path, encoding="utf-8") as f:
        for no, line in enumerate(f):
            parts = line.rstrip("\n").split("\t")
            if no == 0 and parts[0] == "query-id":
                continue
            if len(parts) < 3:
                continue
            qrels.setdefault(parts[0], {})[parts[1]] = int(parts[2])
    queries: dict[str, str] = {}
    with open(queries_path, encoding="utf-8") as f:
        for line in f:
            try:
                q = json.loads(line)
            except ValueError:
                continue
            qid = str(q.get("_id", q.get("id")))
            if qid in qrels:
                queries[qid] = q.get("text", "")
    return Dataset(os.path.basename(folder.rstrip("/")), corpus, dict(sorted(queries.items())), qrels)
