"""A sentence-transformers BERT model (mean pooling, normalised) run in numpy.

The same weights and tokenizer sentence-transformers reads, and the same arithmetic
(vectors agree to about 1e-7), without torch: importing torch and transformers takes
several seconds, which a `curator search` process would pay for one short query and a
reconcile for a few edited passages. Bulk embedding still goes through sentence-transformers.
"""

from __future__ import annotations

import json
import math
import mmap
import os
import struct
from typing import Any

import numpy as np

from curator.embedders.base import mean_pooled

REQUIRED = ("config.json", "modules.json", "tokenizer.json", "model.safetensors")


def _erf(x: np.ndarray) -> np.ndarray:
    # Abramowitz & Stegun 7.1.26: within 1.5e-7 of erf, below float32's own rounding of
    # the activations; numpy has no erf and BERT's GELU is the exact, erf-based one.
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
    result: np.ndarray = sign * (1.0 - poly * np.exp(-x * x))
    return result


DTYPES = {"F32": "<f4", "F16": "<f2", "F64": "<f8", "I64": "<i8", "I32": "<i4"}
"""The safetensors dtypes numpy holds (not BF16: a checkpoint in it goes to sentence-transformers)."""


def read_weights(path: str) -> dict[str, np.ndarray]:
    """The tensors of a safetensors file, each a read-only view of the file mapped in memory.

    Written here rather than taken from safetensors' numpy loader, which reads and copies the
    whole file (91 MB for all-MiniLM-L6-v2: 70 ms of CPU, a quarter of a hybrid `curator search`
    process; benchmarks/start.py): mapped, a query costs the pages it touches, a few rows of the
    47 MB word-embedding table and the layers. The format is small: an 8-byte little-endian
    header length, a JSON header of each tensor's dtype, shape and byte range, then the bytes.
    A file that does not hold what its header says is a ValueError."""
    with open(path, "rb") as f:
        data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)  # ValueError when empty
    if len(data) < 8:
        raise ValueError("not a safetensors file")
    (size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + size])
    if not isinstance(header, dict):
        raise ValueError("not a safetensors header")
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        try:
            dtype = DTYPES.get(info["dtype"])
            begin, end = (int(n) for n in info["data_offsets"])
            shape = tuple(int(n) for n in info["shape"])
        except (KeyError, TypeError) as e:
            raise ValueError(f"{name}'s header is not a tensor's ({e!r})") from None
        if dtype is None:
            raise ValueError(f"{name} is {info['dtype']}, which numpy does not hold")
        count = math.prod(shape)
        if min(shape, default=0) < 0 or not 0 <= begin <= end or end - begin != count * np.dtype(dtype).itemsize:
            raise ValueError(f"{name}'s byte range does not fit its shape")
        tensors[name] = np.frombuffer(data, dtype=dtype, count=count, offset=8 + size + begin).reshape(shape)
    return tensors


def read_json(path: str) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def supported(folder: str) -> bool:
    """True for a plain BERT encoder with mean pooling: what this module computes exactly."""
    if not all(os.path.isfile(os.path.join(folder, name)) for name in REQUIRED):
        return False

    try:
        config = read_json(os.path.join(folder, "config.json"))
    except (OSError, ValueError):
        return False
    return (
        isinstance(config, dict)
        and config.get("architectures") == ["BertModel"]
        and config.get("hidden_act") == "gelu"
        and config.get("position_embedding_type", "absolute") == "absolute"
        and mean_pooled(folder)
    )


class BertEncoder:
    def __init__(self, folder: str) -> None:
        from tokenizers import Tokenizer

        config = read_json(os.path.join(folder, "config.json"))
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        max_len = 512
        st_config = os.path.join(folder, "sentence_bert_config.json")
        if os.path.isfile(st_config):
            max_len = int(read_json(st_config).get("max_seq_length", max_len))
        weights = read_weights(os.path.join(folder, "model.safetensors"))
        # Some BertModel checkpoints name their tensors under "bert."; float32 ones stay mapped.
        self.w = {k.removeprefix("bert."): v.astype(np.float32, copy=False) for k, v in weights.items()}
        wanted = [f"encoder.layer.{n}.output.LayerNorm.weight" for n in range(self.layers)]
        missing = [k for k in ("embeddings.word_embeddings.weight", *wanted) if k not in self.w]
        if missing:
            raise ValueError(f"not a BERT encoder's weights: no {missing[0]}")
        self.tokenizer = Tokenizer.from_file(os.path.join(folder, "tokenizer.json"))
        # sentence-transformers truncates at max_seq_length and pads a batch to its longest
        # text; one text at a time needs no padding at all.
        self.tokenizer.enable_truncation(max_length=min(max_len, int(config["max_position_embeddings"])))
        self.tokenizer.no_padding()

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        out: np.ndarray = (x - mean) / np.sqrt(var + self.eps) * self.w[name + ".weight"] + self.w[name + ".bias"]
        return out

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        out: np.ndarray = x @ self.w[name + ".weight"].T + self.w[name + ".bias"]
        return out

    def encode_one(self, text: str) -> np.ndarray:
        enc = self.tokenizer.encode(text)
        ids, types, n = np.array(enc.ids), np.array(enc.type_ids), len(enc.ids)
        w = self.w
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:n]
            + w["embeddings.token_type_embeddings.weight"][types]
        )
        x = self._norm(x, "embeddings.LayerNorm")
        heads, width = self.heads, x.shape[1] // self.heads
        # Python floats, not numpy float64 scalars: those would promote every array to float64.
        scale, root2 = 1.0 / math.sqrt(width), math.sqrt(2.0)
        for layer in range(self.layers):
            p = f"encoder.layer.{layer}."
            q, k, v = (
                self._dense(x, p + f"attention.self.{part}").reshape(n, heads, width).transpose(1, 0, 2)
                for part in ("query", "key", "value")
            )
            scores = q @ k.transpose(0, 2, 1) * scale
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            attended = (scores @ v).transpose(1, 0, 2).reshape(n, heads * width)
            x = self._norm(self._dense(attended, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
            h = self._dense(x, p + "intermediate.dense")
            h = 0.5 * h * (1.0 + _erf(h / root2))
            x = self._norm(self._dense(h, p + "output.dense") + x, p + "output.LayerNorm")
        pooled = x.mean(0)
        out: np.ndarray = (pooled / max(float(np.linalg.norm(pooled)), 1e-12)).astype(np.float32)
        return out
