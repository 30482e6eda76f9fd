"""Ollama's ``/api/embed`` with a named embedding model."""

from __future__ import annotations

import array
from urllib.parse import urlparse

from curator.embedders.base import EmbedderSpec, Symmetric, check_vectors
from curator.embedders.http import post_json
from curator.errors import EmbedderError

LOOPBACK = {"localhost", "127.0.0.1", "::1"}


class OllamaEmbedder(Symmetric):
    def __init__(self, spec: EmbedderSpec) -> None:
        self.spec = spec
        host = urlparse(spec.base_url or "").hostname or ""
        # A server on this machine is not egress; one elsewhere is.
        self.remote = host not in LOOPBACK
        self.requests = 0
        self.tokens = 0

    def embed(self, texts: list[str]) -> list[bytes]:
        data = post_json(f"{self.spec.base_url}/api/embed", {"model": self.spec.model, "input": texts})
        self.requests += 1
        count = data.get("prompt_eval_count")
        self.tokens += int(count) if isinstance(count, int) else sum(len(t) for t in texts) // 4
        embs = data.get("embeddings")
        if not isinstance(embs, list) or not all(isinstance(e, list) for e in embs):
            raise EmbedderError("ollama answered without an embeddings list")
        return check_vectors(self.spec, [array.array("f", e).tobytes() for e in embs], len(texts))

    def usage(self) -> tuple[int, int]:
        return (self.requests, self.tokens) if self.remote else (0, 0)
