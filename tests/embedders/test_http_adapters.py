"""The OpenAI-compatible and Ollama adapters against a real HTTP server on loopback."""

from __future__ import annotations

import json

import pytest

from curator.embedders.all_embedders import create
from curator.embedders.base import EmbedderSpec, resolve
from curator.embedders.http import InputRefused
from curator.errors import EmbedderError
from curator.settings import EmbedderSettings, Settings
from tests.conftest import GitVault, note
from tests.embedders.fakeserver import EmbeddingServer, unpack, use_openai, vector


def _settings(**kw: object) -> Settings:
    return Settings(embedder=EmbedderSettings(**kw))  # type: ignore[arg-type]


def test_openai_wire_format_auth_and_usage(monkeypatch: pytest.MonkeyPatch) -> None:
    with EmbeddingServer(dims=8) as srv:
        monkeypatch.setenv("CURATOR_EMBED_BASE_URL", f"http://127.0.0.1:{srv.port}/v1")
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-key")
        monkeypatch.setenv("CURATOR_EMBED_MODEL", "text-embedding-x")
        monkeypatch.setenv("CURATOR_EMBED_DIMS", "8")
        spec = resolve(_settings(provider="openai"))
        emb = create(spec)
        out = emb.embed(["alpha beta", "gamma"])
        for v, t in zip(out, ("alpha beta", "gamma"), strict=True):
            assert unpack(v) == pytest.approx(vector(t, 8), rel=1e-6)
        req = srv.requests[0]
        assert req["path"] == "/v1/embeddings" and req["auth"] == "Bearer sk-test-key"
        assert req["body"]["model"] == "text-embedding-x" and req["body"]["input"] == ["alpha beta", "gamma"]
        assert emb.usage() == (1, 3) and emb.remote


def test_openai_model_never_falls_back_and_aliases_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("OPENAI_MODEL", "gpt-4o")
    with pytest.raises(EmbedderError, match="needs a model"):
        resolve(_settings(provider="openai"))
    monkeypatch.setenv("CURATOR_EMBED_MODEL", "auto")
    with pytest.raises(EmbedderError, match="moving alias"):
        resolve(_settings(provider="openai", dims=8))


def test_openai_endpoint_falls_back_to_openai_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1/")
    monkeypatch.setenv("CURATOR_EMBED_MODEL", "text-embedding-3-small")
    assert resolve(_settings(provider="openai")).base_url == "http://127.0.0.1:9/v1"
    assert resolve(_settings(provider="openai")).dims == 1536


def test_retries_then_succeeds_and_rejects_bad_input() -> None:
    with EmbeddingServer(dims=4) as srv:
        spec = EmbedderSpec("openai", "m", 4, f"http://127.0.0.1:{srv.port}/v1")
        emb = create(spec)
        srv.fail_next = 2
        assert len(emb.embed(["x"])) == 1
        srv.reject_when = "TOO-LONG"
        with pytest.raises(InputRefused):
            emb.embed(["TOO-LONG text"])
        srv.reject_when = None
        srv.wrong_dims = True
        with pytest.raises(EmbedderError, match="dimensions"):
            emb.embed(["y"])


def test_ollama_wire_format(monkeypatch: pytest.MonkeyPatch) -> None:
    with EmbeddingServer(dims=6) as srv:
        monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{srv.port}")
        spec = resolve(_settings(provider="ollama", model="nomic-test", dims=6))
        emb = create(spec)
        out = emb.embed(["hello world"])
        assert unpack(out[0]) == pytest.approx(vector("hello world", 6))
        assert srv.requests[0]["path"] == "/api/embed" and srv.requests[0]["body"]["model"] == "nomic-test"
        assert not emb.remote  # loopback is not egress


def test_down_endpoint_is_an_embedder_error() -> None:
    emb = create(EmbedderSpec("openai", "m", 4, "http://127.0.0.1:9/v1"))
    with pytest.raises(EmbedderError, match="unavailable"):
        emb.embed(["x"])


SECRET_NOTE = note(
    "kp:01J000000000000000000SECRT",
    "Deploy notes",
    "Use the key AKIAIOSFODNN7EXAMPLE for the bucket.\n\n## Other\n\nNothing secret here.\n",
)


def test_index_with_remote_embedder_withholds_secrets_and_counts_usage(vault: GitVault, cli, monkeypatch) -> None:
    vault.write("notes/deploy.md", SECRET_NOTE)
    vault.commit("deploy")
    with EmbeddingServer(dims=8) as srv:
        use_openai(monkeypatch, srv.port)
        r = cli("--vault", vault.root, "--json", "index")
        assert r.code == 0, r
        report = json.loads(r.out)
        assert [w["path"] for w in report["withheld"]] == ["notes/deploy.md"]
        assert "AWS" in report["withheld"][0]["secrets"]
        assert not any("AKIA" in t for t in srv.texts)
        assert any("Nothing secret here" in t for t in srv.texts)
        status = json.loads(cli("--vault", vault.root, "--json", "status").out)
        assert status["remote_calls"] >= 1 and status["remote_tokens_estimated"] > 0
        assert status["lexical_only_secrets"] == 1
        hits = json.loads(
            cli("--vault", vault.root, "--json", "search", "AKIAIOSFODNN7EXAMPLE", "--mode", "lexical").out
        )["hits"]
        assert hits and hits[0]["path"] == "notes/deploy.md"  # still found lexically


def test_rejected_batch_is_skipped_and_named(vault: GitVault, cli, monkeypatch) -> None:
    vault.write("notes/huge.md", note("kp:huge", "Huge", "REJECT-ME please"))
    vault.commit("huge")
    with EmbeddingServer(dims=8) as srv:
        srv.reject_when = "REJECT-ME"
        vault.write(
            ".kp/config.yaml",
            "embedder:\n  provider: openai\n  model: m\n  dims: 8\n  batch_size: 1\n"
            f"  base_url: http://127.0.0.1:{srv.port}/v1\n",
        )
        r = cli("--vault", vault.root, "--json", "index")
        report = json.loads(r.out)
        assert [x["path"] for x in report["rejected"]] == ["notes/huge.md"]
        assert report["embedded"] == 2  # alpha and beta still got theirs


def test_embedder_down_means_lexical_with_a_warning(vault: GitVault, cli, monkeypatch) -> None:
    vault.write(
        ".kp/config.yaml", "embedder:\n  provider: openai\n  model: m\n  dims: 8\n  base_url: http://127.0.0.1:9/v1\n"
    )
    r = cli("--vault", vault.root, "--json", "index")
    assert r.code == 0
    report = json.loads(r.out)
    assert report["indexed"] == 2 and any("unavailable" in w for w in report["warnings"])
    s = cli("--vault", vault.root, "--json", "search", "Alpha")
    data = json.loads(s.out)
    assert data["hits"][0]["path"] == "notes/alpha.md"
    pending = json.loads(cli("--vault", vault.root, "--json", "status").out)["pending_embeddings"]
    assert pending > 0
    # Until they have their vectors, a search says how many passages are ranked by words alone:
    # here all of them, so the search does not ask the embedder for the question's vector.
    assert data["mode"] == "lexical"
    assert f"{pending} of {pending} passages have no vector yet" in " ".join(data["warnings"]), data["warnings"]


def test_a_vault_mostly_waiting_for_vectors_is_ranked_by_words_alone(vault: GitVault, cli) -> None:
    """A first index still embedding: the few notes that have vectors would win every hybrid search
    (a newcomer's French question got German and English pages). Words rank them all alike until
    most passages have their vector; then the vector leg joins again."""
    with EmbeddingServer(dims=8) as srv:
        use = f"embedder:\n  provider: openai\n  model: m\n  dims: 8\n  base_url: http://127.0.0.1:{srv.port}/v1\n"
        vault.write(".kp/config.yaml", use)
        assert json.loads(cli("--vault", vault.root, "--json", "index").out)["embedded"] == 2
        for i in range(3):
            vault.write(f"notes/gamma{i}.md", note(f"kp:01J000000000000000000GAM{i}", f"Gamma {i}", "Gamma text.\n"))
        vault.commit("three more")
        srv.fail_next = 1000  # the embedder is busy while they are indexed
        cli("--vault", vault.root, "--json", "index")
        srv.fail_next = 0
        data = json.loads(cli("--vault", vault.root, "--json", "search", "gamma text").out)
        assert data["mode"] == "lexical" and "3 of 5 passages have no vector yet" in " ".join(data["warnings"]), data
        assert {h["path"] for h in data["hits"][:3]} == {f"notes/gamma{i}.md" for i in range(3)}
        cli("--vault", vault.root, "--json", "index")  # the embedder is back: they get their vectors
        data = json.loads(cli("--vault", vault.root, "--json", "search", "gamma text").out)
        assert data["mode"] == "hybrid" and not data.get("warnings"), data


def test_wrong_dimensions_never_mix_into_the_index(vault: GitVault, cli, monkeypatch) -> None:
    with EmbeddingServer(dims=8) as srv:
        srv.wrong_dims = True
        vault.write(
            ".kp/config.yaml",
            f"embedder:\n  provider: openai\n  model: m\n  dims: 8\n  base_url: http://127.0.0.1:{srv.port}/v1\n",
        )
        report = json.loads(cli("--vault", vault.root, "--json", "index").out)
        assert report["embedded"] == 0 and any("dimensions" in w for w in report["warnings"])
        assert json.loads(cli("--vault", vault.root, "--json", "status").out)["embedded"] == 0
