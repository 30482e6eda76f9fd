"""The few messages of ONNX's protobuf schema (onnx/onnx.proto, IR version 8) that an
inference graph needs, written as protobuf's wire format: a model, its graph, nodes with int and
float attributes, float and int64 tensors, and typed inputs and outputs.

Written here rather than with the ``onnx`` package: importing ``onnx`` loads ``ml_dtypes``,
which registers its number types with numpy (0.5 s a process on a quiet 2-core VM, 2.9 s under
load), and its ``SerializeToString`` copies the 85 MB of weights once more (0.9 s under load);
building e5-small's graph with this module takes the time of joining its bytes. ONNX Runtime
checks what it loads, and tests/embedders/test_e5_onnx.py runs the graph.

Field numbers (onnx.proto): ModelProto ir_version 1, producer_name 2, graph 7, opset_import 8;
OperatorSetIdProto domain 1, version 2; GraphProto node 1, name 2, initializer 5, input 11,
output 12; NodeProto input 1, output 2, name 3, op_type 4, attribute 5, domain 7; AttributeProto
name 1, f 2, i 3, type 20 (FLOAT 1, INT 2); TensorProto dims 1, data_type 2 (FLOAT 1, INT64 7),
name 8, raw_data 9 (little-endian); ValueInfoProto name 1, type 2; TypeProto tensor_type 1;
TypeProto.Tensor elem_type 1, shape 2; TensorShapeProto dim 1; Dimension dim_value 1, dim_param 2.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

import numpy as np

FLOAT, INT64 = 1, 7
_ATTR_FLOAT, _ATTR_INT = 1, 2
_VARINT, _FIXED32, _BYTES = 0, 5, 2


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # negative int64 values are ten bytes, as protobuf writes them
    out = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        if n:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _key(field: int, wire: int) -> bytes:
    return _varint(field << 3 | wire)


def _int(field: int, n: int) -> bytes:
    return _key(field, _VARINT) + _varint(n)


def _bytes(field: int, data: bytes) -> bytes:
    return _key(field, _BYTES) + _varint(len(data)) + data


def _str(field: int, text: str) -> bytes:
    return _bytes(field, text.encode("utf-8"))


def tensor(name: str, array: np.ndarray) -> bytes:
    """A float32 or int64 initializer with its values as raw little-endian bytes."""
    kind = {np.dtype(np.float32): FLOAT, np.dtype(np.int64): INT64}.get(array.dtype)
    if kind is None:
        raise ValueError(f"no ONNX tensor of {array.dtype}")
    dims = b"".join(_int(1, d) for d in array.shape)
    raw = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
    return dims + _int(2, kind) + _str(8, name) + _bytes(9, raw)


def node(op: str, inputs: Iterable[str], outputs: Iterable[str], name: str, domain: str = "", **attrs: float) -> bytes:
    """A node; an int attribute is an ONNX INT, a float one a FLOAT."""
    out = b"".join(_str(1, i) for i in inputs) + b"".join(_str(2, o) for o in outputs)
    out += _str(3, name) + _str(4, op)
    for key, value in sorted(attrs.items()):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"attribute {key} of {op} is neither an int nor a float")
        if isinstance(value, int):
            attr = _str(1, key) + _int(3, value) + _int(20, _ATTR_INT)
        else:
            attr = _str(1, key) + _key(2, _FIXED32) + struct.pack("<f", value) + _int(20, _ATTR_FLOAT)
        out += _bytes(5, attr)
    return out + (_str(7, domain) if domain else b"")


def value(name: str, kind: int, dims: Iterable[int | str]) -> bytes:
    """A graph input or output: a tensor of ``kind`` whose dimensions are sizes or names."""
    shape = b"".join(_bytes(1, _int(1, d) if isinstance(d, int) else _str(2, d)) for d in dims)
    return _str(1, name) + _bytes(2, _bytes(1, _int(1, kind) + _bytes(2, shape)))


def model(
    nodes: Iterable[bytes],
    initializers: Iterable[bytes],
    inputs: Iterable[bytes],
    outputs: Iterable[bytes],
    opsets: dict[str, int],
    name: str,
) -> bytes:
    """The serialised ModelProto, joined once (the initializers are most of its bytes)."""
    parts = [_bytes(1, n) for n in nodes] + [_str(2, name)]
    for t in initializers:
        parts += [_key(5, _BYTES), _varint(len(t)), t]
    parts += [_bytes(11, i) for i in inputs] + [_bytes(12, o) for o in outputs]
    opset = [_bytes(8, (_str(1, domain) if domain else b"") + _int(2, v)) for domain, v in opsets.items()]
    head = _int(1, 8) + _str(2, "curator") + _key(7, _BYTES) + _varint(sum(map(len, parts)))
    return b"".join([head, *parts, *opset])
