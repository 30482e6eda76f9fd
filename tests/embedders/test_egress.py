"""Nothing that looks like a secret reaches a remote embedder: passages, whole notes and queries.

Tried against a real OpenAI-compatible server on loopback; each of these left the machine
before the scanner was one module that scans whole lines and whole notes.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import GitVault, note
from tests.embedders.fakeserver import EmbeddingServer, use_openai

LONG_LINE = "filler " * 700 + "and the key AKIAIOSFODNN7EXAMPLE at the end"
KEY_BODY = [
    "MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi1Z4pCkBZl1ul6Rr5Yq8Qn2Hc4",
    "Xk9Lw2Vb7Nq5Rt3Ys1Pz8Jm6Hf4Dc2Ba0Zx9Wv7Ut5Sr3Qp1On8Ml6Kj4Ih2Gf0",
    "Ed9Cb7Az5Yx3Wv1Ut8Sr6Qp4On2Ml0Kj8Ih6Gf4Ed2Cb0Az9Yx7Wv5Ut3Sr1Qp8",
]
SECRETS = {
    "notes/google.md": "Maps key AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI in the app config.\n",
    "notes/hf.md": "Pull with hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567 when needed.\n",
    "notes/npm.md": "Publish token npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 (rotate it).\n",
    "notes/long.md": LONG_LINE + "\n",
    # A pasted private key whose body spans passages: the heading splits it.
    "notes/pem.md": "-----BEGIN RSA PRIVATE KEY-----\n"
    + "\n".join(KEY_BODY[:2])
    + "\n\n## Rest of the key\n\n"
    + KEY_BODY[2]
    + "\n-----END RSA PRIVATE KEY-----\n",
}
NEEDLES = ("AIzaSy", "hf_AbCd", "npm_AbCd", "AKIAIOSFODNN7EXAMPLE", *(line[:24] for line in KEY_BODY))


@pytest.fixture
def remote(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    with EmbeddingServer(dims=8) as srv:
        use_openai(monkeypatch, srv.port)
        yield srv


def test_no_secret_leaves_through_passages(vault: GitVault, cli, remote: EmbeddingServer) -> None:
    for i, (path, body) in enumerate(SECRETS.items()):
        vault.write(path, note(f"kp:01J00000000000000000SEC{i:03d}", path, body))
    vault.commit("secrets")
    r = cli("--vault", vault.root, "--json", "index")
    assert r.code == 0, r
    sent = "\n".join(remote.texts)
    assert "Alpha links to" in sent  # clean notes are still embedded
    leaked = [n for n in NEEDLES if n in sent]
    assert leaked == []
    status = json.loads(cli("--vault", vault.root, "--json", "status").out)
    kinds = status["withheld"]["passages"]
    for kind in ("Google API Key", "Hugging Face Token", "npm Token", "AWS Access Key", "Private Key"):
        assert kinds.get(kind, 0) >= 1, (kind, kinds)
    assert "AKIA" not in json.dumps(status) and "AIza" not in json.dumps(status)
    text = cli("--vault", vault.root, "status").out
    assert "withheld" in text and "Private Key" in text
    # Search still works on the unredacted index.
    hits = json.loads(cli("--vault", vault.root, "--json", "search", "AKIAIOSFODNN7EXAMPLE", "--mode", "lexical").out)
    assert [h["path"] for h in hits["hits"]] == ["notes/long.md"]


def test_a_query_with_a_secret_is_not_sent(vault: GitVault, cli, remote: EmbeddingServer) -> None:
    assert cli("--vault", vault.root, "index").code == 0
    before = len(remote.requests)
    r = cli("--vault", vault.root, "--json", "search", "why does ghp_0123456789abcdefghijABCDEFGHIJ012345 fail")
    assert r.code == 0, r
    assert len(remote.requests) == before
    data = json.loads(r.out)
    assert data["mode"] == "lexical" and any("not sent" in w for w in data["warnings"])
    status = json.loads(cli("--vault", vault.root, "--json", "status").out)
    assert status["withheld"]["queries"] == {"GitHub Token": 1, "High-entropy String": 1} or status["withheld"][
        "queries"
    ].get("GitHub Token")
    assert "ghp_" not in json.dumps(status)
    clean = cli("--vault", vault.root, "--json", "search", "alpha links")
    assert clean.code == 0 and len(remote.requests) == before + 1


def corpus_notes(per_shape: int = 3) -> tuple[dict[str, str], list[str]]:
    """One note per shape of the leak corpus, each holding a few samples between prose; and every
    secret substring the notes hold."""
    from tests import leaks_corpus as lc

    notes, secrets = {}, []
    for i, shape in enumerate(lc.SHAPES):
        samples = lc.positives(shape, per_shape, seed=7)
        body = "".join(
            f"Pasted sample {n} of the {shape} kind:\n\n{s.text}\n\nAnd prose after it.\n\n"
            for n, s in enumerate(samples)
        )
        notes[f"notes/corpus-{i:02d}.md"] = note(f"kp:01J00000000000000000000{i:03d}", f"Corpus {i}", body)
        secrets += [secret for s in samples for secret in s.secrets]
    return notes, secrets


def test_no_shape_of_the_corpus_leaves_through_passages(vault: GitVault, cli, remote: EmbeddingServer) -> None:
    notes, secrets = corpus_notes()
    for path, text in notes.items():
        vault.write(path, text)
    vault.commit("pasted configuration")
    r = cli("--vault", vault.root, "--json", "index")
    assert r.code == 0, r
    sent = "\n".join(remote.texts)
    assert "Alpha links to" in sent  # clean notes are still embedded
    assert [s for s in secrets if s in sent] == []


@pytest.mark.parametrize(
    "query",
    [
        "DB_PASSWORD=hunter2hunter2 fails",
        "Authorization: Bearer 0f1e2d3c4b5a69788796a5b4c3d2e1f0",
        "redis://:pa/ss@cache",
        "token: ghp_Ab3dEf5gH7Ij9kL1 rejected by the API",
        "api key c2VjcmV0a2V5MTIzNA== expired",
        "password: hunter2hunter2 not working on staging",
    ],
)
def test_a_query_with_an_assigned_secret_is_not_sent(vault: GitVault, cli, remote: EmbeddingServer, query: str) -> None:
    assert cli("--vault", vault.root, "index").code == 0
    before = len(remote.requests)
    r = cli("--vault", vault.root, "--json", "search", query)
    assert r.code == 0, r
    assert len(remote.requests) == before and json.loads(r.out)["mode"] == "lexical"
