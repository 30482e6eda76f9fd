"""A deterministic hashing embedder: the test double beside the real adapters.

Bag of hashed words folded into 64 dimensions. Fast and stable, useless for
meaning; selected with CURATOR_EMBEDDER=fake by tests and benchmarks that need
vectors without a model. CURATOR_FAKE_EMBED_DELAY (seconds a batch) slows it
down so a test can kill an indexer mid-embedding.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import struct
import time

from curator.embedders.base import EmbedderSpec, Symmetric, check_vectors

_WORD = re.compile(r"\w+")


class HashEmbedder(Symmetric):
    remote = False

    def __init__(self, spec: EmbedderSpec) -> None:
        self.spec = spec
        self.calls = 0

    def _one(self, text: str) -> bytes:
        vec = [0.0] * self.spec.dims
        for w in _WORD.findall(text.lower()):
            h = hashlib.blake2b(w.encode(), digest_size=4).digest()
            vec[int.from_bytes(h, "little") % self.spec.dims] += 1.0
        norm = math.sqrt(sum(x * x for x in vec)) or 1.0
        return struct.pack(f"{self.spec.dims}f", *(x / norm for x in vec))

    def embed(self, texts: list[str]) -> list[bytes]:
        delay = float(os.environ.get("CURATOR_FAKE_EMBED_DELAY") or 0)
        if delay:
            time.sleep(delay)
        self.calls += 1
        return check_vectors(self.spec, [self._one(t) for t in texts], len(texts))

    def usage(self) -> tuple[int, int]:
        return 0, 0
