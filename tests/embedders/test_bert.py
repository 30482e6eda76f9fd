"""The numpy encoder's weights, mapped from the safetensors file rather than read whole."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from safetensors.numpy import load_file, save_file

from curator.embedders import bert

DTYPES = st.sampled_from([np.float32, np.float16, np.float64, np.int64, np.int32])
TENSORS = st.dictionaries(
    st.text(alphabet="abcdefghij._0123456789", min_size=1, max_size=12),
    DTYPES.flatmap(lambda dt: hnp.arrays(dt, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5))),
    min_size=1,
    max_size=6,
)


@settings(max_examples=60, deadline=None)
@given(tensors=TENSORS)
def test_what_safetensors_writes_is_read_back_the_same(tmp_path_factory: pytest.TempPathFactory, tensors) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("w") / "model.safetensors"
    save_file(tensors, str(path))
    mapped = bert.read_weights(str(path))
    expected = load_file(str(path))
    assert mapped.keys() == expected.keys()
    for name, array in expected.items():
        assert mapped[name].dtype == array.dtype and mapped[name].shape == array.shape
        assert np.array_equal(mapped[name], array, equal_nan=True)
        assert not mapped[name].flags.writeable  # a view of the file, never a copy to write into


def test_the_bundled_model_is_mapped_not_copied() -> None:
    from curator.embedders.local import model_path

    path = str(Path(model_path(None)) / "model.safetensors")
    mapped, read = bert.read_weights(path), load_file(path)
    assert mapped.keys() == read.keys()
    assert all(np.array_equal(mapped[k], read[k]) for k in read)
    table = mapped["embeddings.word_embeddings.weight"]
    assert table.base is not None and not table.flags.owndata  # a view of the mapped file


def _file(tmp_path: Path, header: object, body: bytes = b"", length: int | None = None) -> str:
    raw = json.dumps(header).encode()
    path = tmp_path / "model.safetensors"
    path.write_bytes(struct.pack("<Q", len(raw) if length is None else length) + raw + body)
    return str(path)


@pytest.mark.parametrize(
    ("header", "body", "length"),
    [
        ({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, b"\0" * 8, None),  # cut short
        ({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 12]}}, b"\0" * 16, None),  # range < shape
        ({"w": {"dtype": "F32", "shape": [2], "data_offsets": [8, 0]}}, b"\0" * 16, None),  # backwards
        ({"w": {"dtype": "BF16", "shape": [2], "data_offsets": [0, 4]}}, b"\0" * 4, None),  # not numpy's
        ({"w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]}}, b"\0" * 4, 1 << 40),  # header past the end
        ([1, 2], b"", None),
        ({"w": {"dtype": "F32", "shape": 4, "data_offsets": [0, 16]}}, b"\0" * 16, None),  # shape not a list
        ({"w": {"dtype": "F32", "shape": [-1, -4], "data_offsets": [0, 16]}}, b"\0" * 16, None),
        ({"w": {"shape": [4], "data_offsets": [0, 16]}}, b"\0" * 16, None),  # no dtype
    ],
)
def test_a_file_that_does_not_hold_what_it_says_is_a_value_error(
    tmp_path: Path, header: object, body: bytes, length: int | None
) -> None:
    """A ValueError sends the local embedder to sentence-transformers (``local.light``)."""
    with pytest.raises(ValueError):
        bert.read_weights(_file(tmp_path, header, body, length))


@pytest.mark.parametrize("raw", [b"", b"\x05\0\0"])
def test_a_file_shorter_than_its_header_length_is_a_value_error(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "model.safetensors"
    path.write_bytes(raw)
    with pytest.raises(ValueError):
        bert.read_weights(str(path))
