"""The local BERT model as an ONNX graph, written from its safetensors weights (for
benchmarks/embed_throughput.py --onnx: ONNX Runtime measured against the default).

The graph is built here, node by node, rather than traced through torch: the same
arithmetic as ``curator.embedders.bert`` (embeddings, six post-norm layers, the exact
erf GELU, mean pooling over the attention mask, L2 normalisation), so building it
needs neither torch nor a network, takes about a second, and is byte-for-byte the same
for the same weights. ONNX Runtime fuses the attention, GELU and layer-norm patterns
when it loads the graph; ``onnxruntime.quantization`` turns its weight matrices into
int8 for the dynamic-int8 runtime.

Inputs ``input_ids`` and ``attention_mask`` (int64, batch × tokens); output
``embedding`` (float32, batch × hidden), unit length.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from curator.embedders.bert import REQUIRED, read_json

GRAPH_VERSION = 1
"""Bumped whenever the graph this module writes changes: a cached export records it."""
OPSET = 18


def build(folder: str) -> Any:
    """The ``onnx.ModelProto`` of the sentence-transformers BERT model in ``folder``."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from safetensors.numpy import load_file

    for name in REQUIRED:
        if not os.path.isfile(os.path.join(folder, name)):
            raise ValueError(f"no {name} in {folder}")
    config = read_json(os.path.join(folder, "config.json"))
    heads, layers = int(config["num_attention_heads"]), int(config["num_hidden_layers"])
    hidden, eps = int(config["hidden_size"]), float(config["layer_norm_eps"])
    w = {
        k.removeprefix("bert."): v.astype(np.float32)
        for k, v in load_file(os.path.join(folder, "model.safetensors")).items()
    }

    nodes: list[Any] = []
    inits: list[Any] = []
    counter = [0]

    def const(name: str, array: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(op: str, inputs: list[str], **attrs: Any) -> str:
        counter[0] += 1
        out = f"{op.lower()}_{counter[0]}"
        nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def dense(x: str, prefix: str) -> str:
        # MatMul with the transposed weight: the shape onnxruntime's quantizer and its
        # MatMul+Add fusion recognise.
        weight = const(prefix + ".weight_t", w[prefix + ".weight"].T)
        return node("Add", [node("MatMul", [x, weight]), const(prefix + ".bias", w[prefix + ".bias"])])

    def norm(x: str, prefix: str) -> str:
        return node(
            "LayerNormalization",
            [x, const(prefix + ".weight", w[prefix + ".weight"]), const(prefix + ".bias", w[prefix + ".bias"])],
            axis=-1,
            epsilon=eps,
        )

    i64 = lambda name, values: const(name, np.array(values, dtype=np.int64))  # noqa: E731
    f32 = lambda name, value: const(name, np.array(value, dtype=np.float32))  # noqa: E731

    # Embeddings: word + position (the first S rows) + token type 0 (single texts only).
    seq_len = node("Shape", ["input_ids"], start=1, end=2)  # [tokens], a 1-D tensor
    positions = node(
        "Slice",
        [
            const("position_table", w["embeddings.position_embeddings.weight"]),
            i64("zero_start", [0]),
            seq_len,
            i64("axis0", [0]),
        ],
    )
    x = node("Gather", [const("word_table", w["embeddings.word_embeddings.weight"]), "input_ids"], axis=0)
    x = node("Add", [node("Add", [x, positions]), const("type_row", w["embeddings.token_type_embeddings.weight"][0])])
    x = norm(x, "embeddings.LayerNorm")

    mask = node("Cast", ["attention_mask"], to=TensorProto.FLOAT)  # batch × tokens
    mask_index = node("Cast", ["attention_mask"], to=TensorProto.INT32)
    ms = "com.microsoft"
    for layer in range(layers):
        p = f"encoder.layer.{layer}."
        # onnxruntime's fused kernels (the ops its own BERT optimiser produces): one
        # attention op over the stacked query/key/value weights, residual + bias + layer
        # norm in one pass, and bias + exact GELU in one pass.
        qkv_w = np.concatenate([w[p + f"attention.self.{n}.weight"].T for n in ("query", "key", "value")], axis=1)
        qkv_b = np.concatenate([w[p + f"attention.self.{n}.bias"] for n in ("query", "key", "value")])
        attended = node(
            "Attention",
            [x, const(p + "qkv.weight", qkv_w), const(p + "qkv.bias", qkv_b), mask_index],
            domain=ms,
            num_heads=heads,
        )
        x = node(
            "SkipLayerNormalization",
            [
                node(
                    "MatMul",
                    [attended, const(p + "attention.output.dense.weight_t", w[p + "attention.output.dense.weight"].T)],
                ),
                x,
                const(p + "attention.output.LayerNorm.weight", w[p + "attention.output.LayerNorm.weight"]),
                const(p + "attention.output.LayerNorm.bias", w[p + "attention.output.LayerNorm.bias"]),
                const(p + "attention.output.dense.bias", w[p + "attention.output.dense.bias"]),
            ],
            domain=ms,
            epsilon=eps,
        )
        h = node(
            "BiasGelu",
            [
                node("MatMul", [x, const(p + "intermediate.dense.weight_t", w[p + "intermediate.dense.weight"].T)]),
                const(p + "intermediate.dense.bias", w[p + "intermediate.dense.bias"]),
            ],
            domain=ms,
        )
        x = node(
            "SkipLayerNormalization",
            [
                node("MatMul", [h, const(p + "output.dense.weight_t", w[p + "output.dense.weight"].T)]),
                x,
                const(p + "output.LayerNorm.weight", w[p + "output.LayerNorm.weight"]),
                const(p + "output.LayerNorm.bias", w[p + "output.LayerNorm.bias"]),
                const(p + "output.dense.bias", w[p + "output.dense.bias"]),
            ],
            domain=ms,
            epsilon=eps,
        )

    # Mean over the real tokens, then unit length.
    weights = node("Unsqueeze", [mask, i64("axis2", [2])])
    total = node("ReduceSum", [node("Mul", [x, weights]), i64("axis1", [1])], keepdims=0)
    count = node("Max", [node("ReduceSum", [weights, i64("axis1_again", [1])], keepdims=0), f32("tiny", 1e-9)])
    pooled = node("Div", [total, count])
    length = node("Max", [node("ReduceL2", [pooled, i64("axis_last", [-1])], keepdims=1), f32("tiny_norm", 1e-12)])
    nodes.append(helper.make_node("Div", [pooled, length], ["embedding"], name="normalise"))

    graph = helper.make_graph(
        nodes,
        "curator-bert",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "tokens"]),
        ],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["batch", hidden])],
        inits,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid("com.microsoft", 1)],
        producer_name="curator",
    )
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model
