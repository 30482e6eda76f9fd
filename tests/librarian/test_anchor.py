"""now.md's vector: from the index only when the index holds the file as it is now, else
embedded with the serving epoch's model; when that model cannot be reached, BM25, said so."""

from __future__ import annotations

import json
import math
import struct
import subprocess
import sys
from collections.abc import Iterator

import pytest

from curator.embedders.base import EmbedderSpec
from curator.embedders.fake import HashEmbedder
from curator.index import db
from curator.index import epoch as epochs
from curator.index.chunker import chunk
from curator.locations import default_index_dir
from curator.vault.note import parse
from tests.conftest import GitVault
from tests.embedders.fakeserver import EmbeddingServer, use_openai
from tests.librarian.conftest import CLOCK, staged_digest

NEW_NOW = """---
title: Now
---
# Now

Tomatoes and the garden: sun, steady water, side shoots pinched every week.
"""

HOLD = """
import sys
from curator.index.epoch import writer_lock
with writer_lock(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.read()
"""


@pytest.fixture
def indexer_running(dvault: GitVault) -> Iterator[None]:
    """Another `curator index` holds the writer's lock: a digest cannot bring the index up to date."""
    index_dir = default_index_dir(str(dvault.root))
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, index_dir], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        yield
    finally:
        proc.communicate("", timeout=30)


def _mean_unit(blobs: list[bytes]) -> list[float]:
    rows = [struct.unpack(f"{len(b) // 4}f", b) for b in blobs]
    mean = [sum(col) / len(rows) for col in zip(*rows, strict=True)]
    norm = math.sqrt(sum(x * x for x in mean))
    return [x / norm for x in mean]


def _note_vectors(v: GitVault) -> dict[str, list[float]]:
    ep = epochs.serving(default_index_dir(str(v.root)))
    assert ep is not None
    conn = db.connect(ep.path)
    blobs: dict[str, list[bytes]] = {}
    for path, emb in conn.execute(
        "SELECT d.path, v.embedding FROM documents d JOIN passages p ON p.doc_id = d.id "
        "JOIN passages_vec v ON v.rowid = p.id ORDER BY d.path, p.seq"
    ):
        blobs.setdefault(path, []).append(emb)
    conn.close()
    return {path: _mean_unit(b) for path, b in blobs.items()}


def test_a_now_md_changed_since_indexing_is_embedded_as_it_is_now(dvault: GitVault, cli, request) -> None:
    assert cli("--vault", dvault.root, "index").code == 0
    stored = _note_vectors(dvault)
    dvault.write("now.md", NEW_NOW)  # edited after the index read it
    request.getfixturevalue("indexer_running")
    r = cli("--vault", dvault.root, "digest", "--now", CLOCK, "--json", "--k", "10")
    assert r.code == 0, r
    out = json.loads(r.out)
    assert "another curator is indexing; results may lag behind the vault" in out["warnings"]
    assert out["method"]["similarity"] == "cosine"
    # now.md as the file says now, embedded with the epoch's model (the hashing embedder).
    note = parse("now.md", NEW_NOW.encode())
    anchor = _mean_unit(
        HashEmbedder(EmbedderSpec("fake", "hash-64", 64)).embed(
            [p.embed_text for p in chunk(note.body, note.body_line, note.title)]
        )
    )
    assert _mean_unit([struct.pack("64f", *stored["now.md"])]) != anchor  # the index holds the old one
    for e in out["entries"]:
        expected = sum(a * b for a, b in zip(stored[e["path"]], anchor, strict=True))
        assert e["cosine"] == pytest.approx(expected, abs=1e-6)
    assert out["entries"][0]["path"] == "garden/tomatoes.md"


def test_an_unchanged_now_md_is_read_from_the_index_without_the_model(dvault: GitVault, cli, monkeypatch) -> None:
    assert cli("--vault", dvault.root, "index").code == 0
    import curator.librarian.anchor

    def unreachable(*args: object) -> None:
        raise AssertionError("now.md was embedded although the index holds it as it is")

    monkeypatch.setattr(curator.librarian.anchor, "embed", unreachable)
    r = cli("--vault", dvault.root, "digest", "--now", CLOCK, "--json")
    assert r.code == 0, r
    assert json.loads(r.out)["method"]["similarity"] == "cosine"


def test_an_embedder_that_went_down_after_indexing_ranks_by_bm25_and_says_so(
    dvault: GitVault, cli, monkeypatch
) -> None:
    dvault.write(".gitignore", "now.md\n")  # the index never holds now.md: it must be embedded
    dvault.git("rm", "-q", "--cached", "now.md")
    dvault.commit("ignore now.md")
    with EmbeddingServer(dims=8) as server:
        use_openai(monkeypatch, server.port, "test-embed", key="sk-test")
        assert cli("--vault", dvault.root, "index").code == 0
    # Every note has its vectors; only now.md needs the model, and the server is gone.
    r = cli("--vault", dvault.root, "digest", "--now", CLOCK, "--json")
    assert r.code == 0, r
    out = json.loads(r.out)
    assert out["method"]["similarity"] == "bm25" and out["method"]["embedder"] == "openai:test-embed/8"
    assert out["method"]["why"] == "now.md could not be embedded"
    assert any(
        w.startswith("now.md cannot be embedded (") and w.endswith("scoring by BM25 instead") for w in out["warnings"]
    )
    _, text = staged_digest(dvault, out["id"])
    assert "Ranked by BM25 similarity to the terms of `now.md`" in text and "now.md could not be embedded" in text
