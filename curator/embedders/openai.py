"""Any OpenAI-compatible ``/v1/embeddings`` endpoint."""

from __future__ import annotations

import array
import os

from curator.embedders.base import EmbedderSpec, Symmetric, check_vectors
from curator.embedders.http import post_json
from curator.errors import EmbedderError


class OpenAIEmbedder(Symmetric):
    remote = True

    def __init__(self, spec: EmbedderSpec) -> None:
        self.spec = spec
        self.key = os.environ.get("CURATOR_EMBED_API_KEY") or os.environ.get("OPENAI_API_KEY")
        self.requests = 0
        self.tokens = 0

    def embed(self, texts: list[str]) -> list[bytes]:
        headers = {"Authorization": f"Bearer {self.key}"} if self.key else {}
        payload: dict[str, object] = {"model": self.spec.model, "input": texts, "encoding_format": "float"}
        data = post_json(f"{self.spec.base_url}/embeddings", payload, headers)
        self.requests += 1
        usage = data.get("usage")
        tokens = usage.get("prompt_tokens") if isinstance(usage, dict) else None
        self.tokens += int(tokens) if isinstance(tokens, int) else sum(len(t) for t in texts) // 4
        items = data.get("data")
        if not isinstance(items, list):
            raise EmbedderError("the embeddings endpoint answered without a data list")
        ordered = sorted(items, key=lambda d: d.get("index", 0) if isinstance(d, dict) else 0)
        vectors = []
        for item in ordered:
            emb = item.get("embedding") if isinstance(item, dict) else None
            if not isinstance(emb, list):
                raise EmbedderError("the embeddings endpoint answered without an embedding")
            vectors.append(array.array("f", emb).tobytes())
        return check_vectors(self.spec, vectors, len(texts))

    def usage(self) -> tuple[int, int]:
        return self.requests, self.tokens
